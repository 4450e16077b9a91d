import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import SQLite from "../store/sqliteDriver.mjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningExecution } from "../execution/runtime";
import {
  deleteRedisKeys,
  metadataDatabases,
  redisAvailable,
  TEST_REDIS_URL,
} from "../testing/services";
import { setUpAndLogin, type TestClient } from "../testing/httpClient";
import { startTestServer, startTestWorker, type TestServer } from "../testing/testServer";
import { userClient } from "../testing/signedIn";
import { startHttpSink, startMailSink, type HttpSink, type MailSink } from "./testSupport";

/**
 * Alerts evaluated after real executions (api-platform.md §9.5), on both queue backends, with
 * the notifications received by a real SMTP server and a local HTTP sink.
 */

type Setup = { db: "sqlite" | "postgres"; queue: "memory" | "bullmq" };
const databases = await metadataDatabases();
const SETUPS: Setup[] = [{ db: "sqlite", queue: "memory" }];
if (await redisAvailable()) SETUPS.push({ db: databases.at(-1)!, queue: "bullmq" });

const SECRET_PATH = "/hook/secret-token-123";

describe.each(SETUPS)("alert evaluation ($db metadata, $queue queue)", ({ db, queue }) => {
  const prefix = `sltest_alerts_${crypto.randomBytes(4).toString("hex")}`;
  let server: TestServer;
  let worker: RunningExecution | null = null;
  let sink: HttpSink;
  let smtp: MailSink;
  let admin: TestClient;
  let owner: TestClient;
  let dataSourceId: number;
  let dataFile: string;
  let webhookId: number;
  let queries = 0;

  /** Sets the value every test query reads. */
  function setValue(table: string, n: number | null) {
    const file = new SQLite(dataFile);
    file.exec(`CREATE TABLE IF NOT EXISTS ${table} (n INTEGER); DELETE FROM ${table};`);
    file.prepare(`INSERT INTO ${table} VALUES (?)`).run(n);
    file.close();
  }

  /** A query of its own (own text, own table), so runs of other tests never touch its alerts. */
  async function newQuery(): Promise<{ id: number; table: string }> {
    queries += 1;
    const table = `metric${queries}`;
    setValue(table, 0);
    const res = await admin.post("/api/queries", {
      name: `Metric ${queries}`,
      query: `SELECT n FROM ${table}`,
      data_source_id: dataSourceId,
    });
    expect(res.status).toBe(200);
    return { id: res.body.id, table };
  }

  /** Runs the query and waits until its job (evaluation included) is done. */
  async function run(client: TestClient, queryId: number): Promise<void> {
    const res = await client.post(`/api/queries/${queryId}/results`, { max_age: 0 });
    expect(res.status, res.text).toBe(200);
    const job = res.body.job as { id: string; status: number } | undefined;
    if (res.body.query_result && (!job || job.status === 3)) return;
    await expect
      .poll(async () => (await client.get(`/api/jobs/${job!.id}`)).body.job.status, {
        timeout: 20_000,
      })
      .toBe(3);
  }

  async function newAlert(queryId: number, options: Record<string, unknown>, rearm?: number) {
    const res = await owner.post("/api/alerts", {
      name: `Alert on ${queryId}`,
      query_id: queryId,
      options: { column: "n", op: ">", value: 5, selector: "first", ...options },
      rearm: rearm ?? null,
    });
    expect(res.status, res.text).toBe(200);
    return res.body.id as number;
  }

  async function subscribe(alertId: number, destinationId?: number) {
    const res = await owner.post(`/api/alerts/${alertId}/subscriptions`, {
      alert_id: alertId,
      ...(destinationId ? { destination_id: destinationId } : {}),
    });
    expect(res.status, res.text).toBe(200);
  }

  const alertRow = (id: number) =>
    server.ctx.database.db
      .selectFrom("alerts")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirstOrThrow();

  /** The webhook payloads received for an alert. */
  const hooksFor = (alertId: number) =>
    sink.requests
      .filter((r) => r.path === SECRET_PATH)
      .map(
        (r) => JSON.parse(r.body) as { alert: { id: number; state: string } } & Record<string, any>,
      )
      .filter((p) => p.alert.id === alertId);

  beforeAll(async () => {
    sink = await startHttpSink();
    smtp = await startMailSink();
    const env: Record<string, string> = {
      SIGHTLINE_MAIL_SERVER: "127.0.0.1",
      SIGHTLINE_MAIL_PORT: String(smtp.port),
      SIGHTLINE_MAIL_DEFAULT_SENDER: "alerts@sightline.example.com",
      SIGHTLINE_OUTBOUND_ALLOWED_RANGES: "127.0.0.1/32",
      // One query at a time: a notification in flight must not hold up the next one.
      SIGHTLINE_WORKER_CONCURRENCY: "1",
    };
    if (queue === "bullmq") {
      env.SIGHTLINE_REDIS_URL = TEST_REDIS_URL;
      env.SIGHTLINE_REDIS_PREFIX = prefix;
    }
    server = await startTestServer(db, env, { afterSetup: async () => {} });
    if (queue === "bullmq") {
      // The `sightline worker` process of the scaled mode.
      worker = await startTestWorker(server);
    }
    admin = await setUpAndLogin(server.url);
    ({ client: owner } = await userClient(server, "owner@example.com"));
    fs.mkdirSync(server.config.fileDataDir!, { recursive: true });
    dataFile = path.join(server.config.fileDataDir!, "metrics.sqlite");
    setValue("metric0", 0);
    const source = await admin.post("/api/data_sources", {
      name: "Metrics",
      type: "sqlite",
      options: { dbpath: "metrics.sqlite" },
    });
    expect(source.status, source.text).toBe(200);
    dataSourceId = source.body.id;
    const hook = await admin.post("/api/destinations", {
      name: "Hook",
      type: "webhook",
      options: { url: `${sink.url}${SECRET_PATH}` },
    });
    expect(hook.status).toBe(200);
    webhookId = hook.body.id;
  });

  afterAll(async () => {
    await worker?.close();
    await server?.close();
    await sink?.close();
    await smtp?.close();
    if (queue === "bullmq") {
      await deleteRedisKeys(prefix);
    }
  });

  it("notifies e-mail and webhook subscribers on each change, after storing the state", async () => {
    const query = await newQuery();
    const alertId = await newAlert(query.id, {});
    await subscribe(alertId);
    await subscribe(alertId, webhookId);
    const statesSeen: string[] = [];
    sink.answer = async (request) => {
      if (request.path === SECRET_PATH) {
        const payload = JSON.parse(request.body) as { alert: { id: number } };
        if (payload.alert.id === alertId) statesSeen.push((await alertRow(alertId)).state);
      }
      return 200;
    };

    setValue(query.table, 10);
    await run(owner, query.id);
    await expect.poll(() => hooksFor(alertId).length, { timeout: 15_000 }).toBe(1);
    const [payload] = hooksFor(alertId);
    expect(payload).toMatchObject({
      event: "alert_state_change",
      alert: { id: alertId, state: "triggered", query_id: query.id, title: "", description: "" },
      url_base: server.url,
      metadata: {
        Username: "owner@example.com",
        query_id: query.id,
        Queue: "queries",
        Scheduled: false,
      },
    });
    expect(typeof payload!.metadata["Job ID"]).toBe("string");
    expect(payload!.metadata["Query Hash"]).toMatch(/^[0-9a-f]{32}$/);
    // The sink records a request before its answer has read the stored state: wait for that read.
    await expect.poll(() => statesSeen).toEqual(["triggered"]);
    expect((await alertRow(alertId)).last_triggered_at).not.toBeNull();

    await expect
      .poll(() => smtp.mails.filter((m) => m.subject?.includes(`Alert on ${query.id}`)).length, {
        timeout: 15_000,
      })
      .toBe(1);
    const mail = smtp.mails.find((m) => m.subject?.includes(`Alert on ${query.id}`))!;
    expect(mail.subject).toBe(`Alert: Alert on ${query.id} changed status to TRIGGERED`);
    expect(mail.to && "text" in mail.to ? mail.to.text : "").toBe("owner@example.com");
    expect(String(mail.html)).toContain("STATUS: TRIGGERED");
    expect(String(mail.html)).toContain("CONDITION: 10 &gt; 5");
    expect(String(mail.html)).toContain(`Metric ${queries}</a>`);

    // Still triggered, no rearm: nothing; back to normal: notified.
    await run(owner, query.id);
    setValue(query.table, 1);
    await run(owner, query.id);
    await expect.poll(() => hooksFor(alertId).length, { timeout: 15_000 }).toBe(2);
    expect(hooksFor(alertId)[1]!.alert.state).toBe("ok");
    await expect.poll(() => statesSeen).toEqual(["triggered", "ok"]);
    sink.answer = () => 200;
  });

  it("renders custom templates as Redash does: text for chat and webhooks, escaped values in e-mail", async () => {
    const query = await newQuery();
    // The result carries markup, as a text column may.
    const edited = await admin.post(`/api/queries/${query.id}`, {
      query: `SELECT n, '<i>R&D</i>' AS team FROM ${query.table}`,
    });
    expect(edited.status, edited.text).toBe(200);
    const alertId = await newAlert(query.id, {
      custom_subject:
        "{{ALERT_NAME}}: {{QUERY_RESULT_VALUE}} {{ALERT_CONDITION}} {{ALERT_THRESHOLD}}",
      custom_body:
        "<p>See {{QUERY_URL}} ({{{ALERT_CONDITION}}})</p>{{#QUERY_RESULT_ROWS}}<b>{{team}}</b>{{/QUERY_RESULT_ROWS}}",
    });
    await subscribe(alertId);
    await subscribe(alertId, webhookId);
    setValue(query.table, 10);
    await run(owner, query.id);

    const subject = `Alert on ${query.id}: 10 > 5`;
    const url = `${server.url}/queries/${query.id}`;
    await expect.poll(() => hooksFor(alertId).length, { timeout: 15_000 }).toBe(1);
    expect(hooksFor(alertId)[0]!.alert).toMatchObject({
      title: subject,
      description: `<p>See ${url} (>)</p><b><i>R&D</i></b>`,
    });
    await expect
      .poll(() => smtp.mails.filter((m) => m.subject === subject).length, { timeout: 15_000 })
      .toBe(1);
    // The template's markup stays; every value it substitutes is escaped, {{{x}}} included.
    const mail = smtp.mails.find((m) => m.subject === subject)!;
    expect(String(mail.html).trim()).toBe(
      `<p>See ${url} (&gt;)</p><b>&lt;i&gt;R&amp;D&lt;/i&gt;</b>`,
    );
  });

  it("does not notify unknown → ok nor muted alerts, but stores their states", async () => {
    const query = await newQuery();
    const fresh = await newAlert(query.id, { op: ">", value: 5 });
    const muted = await newAlert(query.id, { op: "==", value: 0, muted: true });
    const marker = await newAlert(query.id, { op: "==", value: 0 });
    for (const id of [fresh, muted, marker]) await subscribe(id, webhookId);
    await run(owner, query.id);
    await expect.poll(() => hooksFor(marker).length, { timeout: 15_000 }).toBe(1);
    // Give anything else dispatched by the same evaluation time to arrive.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(hooksFor(fresh)).toEqual([]);
    expect(hooksFor(muted)).toEqual([]);
    expect((await alertRow(fresh)).state).toBe("ok");
    expect((await alertRow(muted)).state).toBe("triggered");
  });

  it("POST /eval notifies every subscription even when muted, with empty metadata", async () => {
    const query = await newQuery();
    setValue(query.table, 10);
    await run(owner, query.id);
    const alertId = await newAlert(query.id, { muted: true, custom_subject: "{{ALERT_STATUS}}!" });
    await subscribe(alertId, webhookId);
    const res = await owner.post(`/api/alerts/${alertId}/eval`);
    expect(res.status).toBe(200);
    await expect.poll(() => hooksFor(alertId).length, { timeout: 15_000 }).toBe(1);
    expect(hooksFor(alertId)[0]).toMatchObject({
      alert: { id: alertId, state: "triggered", title: "TRIGGERED!" },
      metadata: {},
    });
    // Unchanged state: still sent.
    await owner.post(`/api/alerts/${alertId}/eval`);
    await expect.poll(() => hooksFor(alertId).length, { timeout: 15_000 }).toBe(2);
  });

  it("re-notifies a triggered alert once rearm seconds have passed (0 = never)", async () => {
    const query = await newQuery();
    setValue(query.table, 10);
    const everyHour = await newAlert(query.id, {}, 3600);
    const never = await newAlert(query.id, {}, 0);
    for (const id of [everyHour, never]) await subscribe(id, webhookId);
    await run(owner, query.id);
    await expect.poll(() => hooksFor(everyHour).length, { timeout: 15_000 }).toBe(1);
    await expect.poll(() => hooksFor(never).length, { timeout: 15_000 }).toBe(1);
    // Within the hour: nothing. An hour and a minute later (moved back in the store): again.
    await run(owner, query.id);
    const earlier = new Date(Date.now() - 3660 * 1000).toISOString();
    await server.ctx.database.db
      .updateTable("alerts")
      .set({ last_triggered_at: earlier })
      .where("id", "in", [everyHour, never])
      .execute();
    await run(owner, query.id);
    await expect.poll(() => hooksFor(everyHour).length, { timeout: 15_000 }).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(hooksFor(never)).toHaveLength(1);
    expect((await alertRow(everyHour)).last_triggered_at! > earlier).toBe(true);
  });

  it("retries a failing destination three times, then records why on it for admins", async () => {
    const query = await newQuery();
    const alertId = await newAlert(query.id, {});
    const failing = await admin.post("/api/destinations", {
      name: "Failing hook",
      type: "webhook",
      options: { url: `${sink.url}/failing/secret-token-456` },
    });
    await subscribe(alertId, failing.body.id);
    await subscribe(alertId, webhookId);
    sink.answer = (request) => (request.path.startsWith("/failing/") ? 500 : 200);
    setValue(query.table, 10);
    await run(owner, query.id);
    // The healthy destination is not held up by the failing one.
    await expect.poll(() => hooksFor(alertId).length, { timeout: 15_000 }).toBe(1);
    await expect
      .poll(
        async () => (await admin.get(`/api/destinations/${failing.body.id}`)).body.last_failure,
        { timeout: 20_000 },
      )
      .toMatch(/^127\.0\.0\.1:\d+ answered HTTP 500\.$/);
    expect(sink.requests.filter((r) => r.path.startsWith("/failing/"))).toHaveLength(3);
    const shown = await admin.get(`/api/destinations/${failing.body.id}`);
    expect(shown.body.last_failure_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(shown.text).not.toContain("secret-token-456");
    expect((await owner.get(`/api/destinations/${failing.body.id}`)).status).toBe(403);
    expect((await alertRow(alertId)).state).toBe("triggered");
    sink.answer = () => 200;
  }, 40_000);

  it("a notification in flight does not hold up the worker's next query", async () => {
    const query = await newQuery();
    const alertId = await newAlert(query.id, {});
    const slow = await admin.post("/api/destinations", {
      name: "Slow hook",
      type: "webhook",
      options: { url: `${sink.url}/slow` },
    });
    await subscribe(alertId, slow.body.id);
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    sink.answer = async (request) => {
      if (request.path === "/slow") await gate;
      return 200;
    };
    setValue(query.table, 10);
    await run(owner, query.id);
    await expect.poll(() => sink.requests.filter((r) => r.path === "/slow").length).toBe(1);
    // The only worker slot runs another query while the delivery still waits for an answer.
    const next = await newQuery();
    await run(owner, next.id);
    expect(sink.requests.filter((r) => r.path === "/slow")).toHaveLength(1);
    release();
    sink.answer = () => 200;
  });
});
