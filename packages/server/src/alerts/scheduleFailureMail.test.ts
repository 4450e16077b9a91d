import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setUpAndLogin, type TestClient } from "../testing/httpClient";
import { startTestServer, type TestServer } from "../testing/testServer";
import { findOrgBySlug } from "../store/organizations";
import { makeSqliteFile } from "../testing/apiServer";
import { startMailSink, type MailSink } from "./testSupport";

/** Failed scheduled queries e-mail their owner, once per run of failures (issue 18). */
describe("e-mail on failed scheduled queries", () => {
  let server: TestServer;
  let smtp: MailSink;
  let admin: TestClient;
  let orgId: number;
  let dataSourceId: number;
  let queryId: number;

  const subject = "Sightline failed to execute 1 of your scheduled queries";
  const failures = () => smtp.mails.filter((m) => m.subject === subject);

  /** A scheduled run of the query with this text, to its end. */
  async function scheduledRun(text: string, expected: 3 | 4) {
    const outcome = await server.ctx.execution.execute({
      orgId,
      dataSourceId,
      queryText: text,
      queryId,
      userId: null,
      scheduled: true,
      maxAge: 0,
      noWait: true,
    });
    if (outcome.kind === "result") return;
    await expect
      .poll(async () => (await server.ctx.execution.getJob(outcome.job.id))?.status, {
        timeout: 20_000,
      })
      .toBe(expected);
  }

  const setting = (on: boolean) =>
    admin.post("/api/settings/organization", { send_email_on_failed_scheduled_queries: on });

  /** Lets any e-mail already on its way arrive. */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 700));

  beforeAll(async () => {
    smtp = await startMailSink();
    server = await startTestServer(
      "sqlite",
      {
        SIGHTLINE_MAIL_SERVER: "127.0.0.1",
        SIGHTLINE_MAIL_PORT: String(smtp.port),
        SIGHTLINE_MAIL_DEFAULT_SENDER: "sightline@example.com",
      },
      { afterSetup: async () => {} },
    );
    admin = await setUpAndLogin(server.url);
    orgId = (await findOrgBySlug(server.ctx.database.db, "default"))!.id;
    const file = makeSqliteFile(server);
    dataSourceId = (
      await admin.post("/api/data_sources", {
        name: "Shop",
        type: "sqlite",
        options: { dbpath: file },
      })
    ).body.id;
    const query = await admin.post("/api/queries", {
      name: "Nightly people",
      query: "SELECT id FROM people",
      data_source_id: dataSourceId,
    });
    queryId = query.body.id;
  });

  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  it("sends nothing while the organisation setting is off", async () => {
    await scheduledRun("SELECT nope FROM missing_table", 4);
    await settle();
    expect(failures()).toEqual([]);
    await scheduledRun("SELECT id FROM people", 3);
  });

  it("e-mails the owner on the first failure of a streak only", async () => {
    expect((await setting(true)).status).toBe(200);
    await scheduledRun("SELECT nope FROM missing_table", 4);
    await expect.poll(() => failures().length, { timeout: 15_000 }).toBe(1);
    const mail = failures()[0]!;
    expect(mail.to && "text" in mail.to ? mail.to.text : "").toBe("admin@example.com");
    expect(mail.text).toContain('Your scheduled query "Nightly people" failed:');
    expect(mail.text).toContain("missing_table");
    expect(mail.text).toContain(`${server.url}/queries/${queryId}`);
    expect(mail.text).not.toContain("Username:");

    // Still failing: no more mail. Succeeds, then fails again: a new streak, a new mail.
    await scheduledRun("SELECT nope FROM missing_table -- again", 4);
    await scheduledRun("SELECT id FROM people", 3);
    await scheduledRun("SELECT nope FROM missing_table -- later", 4);
    await expect.poll(() => failures().length, { timeout: 15_000 }).toBe(2);
    await settle();
    expect(failures()).toHaveLength(2);
  });
});
