// Scheduled reports end to end (issue 28), with real components: the server's worker runs the
// widgets' queries, real Chromium paints the web app's print page from the pinned results, and
// the report reaches a real SMTP server and an HTTP sink on 127.0.0.1. Both queue backends.
import fs from "node:fs";
import crypto from "node:crypto";
import type { ParsedMail } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  startHttpSink,
  startMailSink,
  type HttpSink,
  type MailSink,
} from "../packages/server/src/alerts/testSupport";
import type { RunningExecution } from "../packages/server/src/execution/runtime";
import { issuePrintToken } from "../packages/server/src/reports/printToken";
import { enqueueDueReports } from "../packages/server/src/reports/schedule";
import { findRun, findSubscription } from "../packages/server/src/reports/store";
import { ReportRenderer } from "../packages/server/src/reports/renderer";
import { runReport } from "../packages/server/src/reports/runReport";
import { createMailer } from "../packages/server/src/mail";
import { createOutboundClient } from "../packages/server/src/outbound/client";
import { createShopDataSource } from "../packages/server/src/testing/apiServer";
import { setUpAndLogin, type TestClient } from "../packages/server/src/testing/httpClient";
import {
  deleteRedisKeys,
  redisAvailable,
  TEST_REDIS_URL,
} from "../packages/server/src/testing/services";
import {
  startTestServer,
  startTestWorker,
  type TestServer,
} from "../packages/server/src/testing/testServer";
import {
  animationsSettled,
  BOTH_VIEWPORTS,
  launchBrowser,
  screenshot,
  signInThroughForm,
} from "./browser";

const HAS_REDIS = await redisAvailable();
const QUEUES = HAS_REDIS ? (["memory", "bullmq"] as const) : (["memory"] as const);

interface Run {
  id: number;
  status: string;
  error: string | null;
  recipients: string[];
  widgets: { widget_id: number; name: string; state: string }[];
  has_thumbnail: boolean;
  duration_ms: number | null;
  finished_at: string | null;
}

describe.each(QUEUES)("report delivery (%s queue)", (queue) => {
  let server: TestServer;
  let worker: RunningExecution | null = null;
  let admin: TestClient;
  let sink: HttpSink;
  let smtp: MailSink;
  let dashboardId: number;
  let hookId: number;
  let counterWidgetId: number;
  const prefix = `reports-${crypto.randomBytes(4).toString("hex")}`;

  beforeAll(async () => {
    sink = await startHttpSink();
    smtp = await startMailSink();
    const env: Record<string, string> = {
      SIGHTLINE_MAIL_SERVER: "127.0.0.1",
      SIGHTLINE_MAIL_PORT: String(smtp.port),
      SIGHTLINE_MAIL_DEFAULT_SENDER: "reports@sightline.example.com",
      SIGHTLINE_OUTBOUND_ALLOWED_RANGES: "127.0.0.1/32",
    };
    if (queue === "bullmq") {
      env.SIGHTLINE_REDIS_URL = TEST_REDIS_URL;
      env.SIGHTLINE_REDIS_PREFIX = prefix;
    }
    server = await startTestServer("sqlite", env, { afterSetup: async () => {} });
    // The renderer opens the print page at this server's own address.
    server.config.reports.renderUrl = server.url;
    if (queue === "bullmq") {
      // The `sightline worker` process of the scaled mode: queries and reports.
      worker = await startTestWorker(server);
    }
    admin = await setUpAndLogin(server.url);
    const shop = await createShopDataSource(server, admin);
    const counter = await admin.post<{ id: number; visualizations: { id: number }[] }>(
      "/api/queries",
      { name: "Orders", query: "SELECT 4242 AS counter", data_source_id: shop },
    );
    const counterViz = await admin.post<{ id: number }>("/api/visualizations", {
      query_id: counter.body.id,
      type: "COUNTER",
      name: "Orders counter",
      options: { counterColName: "counter", rowNumber: 1, counterLabel: "Orders" },
    });
    expect(counterViz.status, counterViz.text).toBe(200);
    const people = await admin.post<{ id: number; visualizations: { id: number }[] }>(
      "/api/queries",
      { name: "People", query: "SELECT name, value FROM people", data_source_id: shop },
    );
    const board = await admin.post<{ id: number }>("/api/dashboards", { name: "Shop report" });
    dashboardId = board.body.id;
    const w1 = await admin.post<{ id: number }>("/api/widgets", {
      dashboard_id: dashboardId,
      visualization_id: counterViz.body.id,
      width: 1,
      options: { position: { col: 0, row: 0, sizeX: 2, sizeY: 5 } },
    });
    counterWidgetId = w1.body.id;
    await admin.post("/api/widgets", {
      dashboard_id: dashboardId,
      visualization_id: people.body.visualizations[0]!.id,
      width: 1,
      options: { position: { col: 2, row: 0, sizeX: 4, sizeY: 8 } },
    });
    const hook = await admin.post<{ id: number }>("/api/destinations", {
      name: "Report hook",
      type: "webhook",
      options: { url: `${sink.url}/reports-hook` },
    });
    expect(hook.status, hook.text).toBe(200);
    hookId = hook.body.id;
  });

  afterAll(async () => {
    await worker?.close();
    await server?.close();
    await sink?.close();
    await smtp?.close();
    if (queue === "bullmq") await deleteRedisKeys(prefix);
  });

  async function subscribe(body: Record<string, unknown>) {
    const res = await admin.post<{ id: number }>(`/api/dashboards/${dashboardId}/subscriptions`, {
      name: "Shop report",
      schedule: { interval: 86400, time: null, day_of_week: null, until: null },
      recipients: { emails: ["boss@example.com"], destination_ids: [hookId] },
      ...body,
    });
    expect(res.status, res.text).toBe(200);
    return res.body.id;
  }

  async function finished(runId: number): Promise<Run> {
    const deadline = Date.now() + 90_000;
    for (;;) {
      const res = await admin.get<Run>(`/api/report_runs/${runId}`);
      if (!["queued", "running"].includes(res.body.status)) return res.body;
      if (Date.now() > deadline) throw new Error(`run ${runId} still ${res.body.status}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  async function sendNow(subscriptionId: number): Promise<Run> {
    const sent = await admin.post<{ run: { id: number } }>(
      `/api/subscriptions/${subscriptionId}/send`,
    );
    expect(sent.status, sent.text).toBe(202);
    return finished(sent.body.run.id);
  }

  const mailsTo = (address: string, since: number) =>
    smtp.mails
      .slice(since)
      .filter((m: ParsedMail) => m.to && JSON.stringify(m.to).includes(address));

  it("paints a PNG, mails it inline with the values, and posts it to the webhook", async () => {
    const id = await subscribe({ format: "png" });
    const mailsBefore = smtp.mails.length;
    const hooksBefore = sink.requests.length;
    const run = await sendNow(id);
    expect(run.status, run.error ?? "").toBe("sent");
    expect(run.recipients).toEqual(["boss@example.com", "Report hook"]);
    expect(run.has_thumbnail).toBe(true);
    expect(run.widgets.map((w) => w.state)).toEqual(["painted", "painted"]);

    const mail = mailsTo("boss@example.com", mailsBefore)[0]!;
    expect(mail.subject).toBe("Shop report");
    const image = mail.attachments.find((a) => a.contentType === "image/png")!;
    expect(image.cid).toBeTruthy();
    expect(image.size).toBeGreaterThan(20_000);
    fs.mkdirSync("test-artifacts/screenshots", { recursive: true });
    fs.writeFileSync(`test-artifacts/screenshots/report-${queue}.png`, image.content);
    // Inline: an image of the HTML part (the parser puts it in the <img> the cid named).
    expect(image.related).toBe(true);
    expect(mail.html).toMatch(/<img src="data:image\/png;base64,/);
    expect(mail.html).toContain(`${server.url}/dashboards/${dashboardId}`);
    // The table for mail clients that block images.
    expect(mail.html).toContain("4,242");
    expect(mail.html).toContain("John Doe");

    const hook = sink.requests.slice(hooksBefore).find((r) => r.path === "/reports-hook")!;
    const payload = JSON.parse(hook.body) as {
      event: string;
      report: { url: string; values: string };
      image: { base64: string };
    };
    expect(payload.event).toBe("report");
    expect(payload.report.values).toContain("Orders: 4,242");
    expect(Buffer.from(payload.image.base64, "base64").equals(image.content)).toBe(true);

    const thumb = await fetch(`${server.url}/api/report_runs/${run.id}/thumbnail.png`, {
      headers: { cookie: [...admin.cookies].map(([k, v]) => `${k}=${v}`).join("; ") },
    });
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get("content-type")).toBe("image/png");

    // Render time and browser memory on the status API (published once the run is done).
    type Renderers = {
      renders: number;
      last_render_ms: number;
      peak_browser_memory_bytes: number;
    }[];
    const renderers = async () => {
      const status = await admin.get<{ reports: { workers: Renderers } }>(
        "/api/admin/queries/rq_status",
      );
      expect(status.status, status.text).toBe(200);
      return status.body.reports.workers.filter((w) => w.renders > 0);
    };
    await expect
      .poll(async () => (await renderers()).length, { timeout: 10_000 })
      .toBeGreaterThan(0);
    const [renderer] = await renderers();
    expect(renderer!.last_render_ms).toBeGreaterThan(0);
    expect(renderer!.peak_browser_memory_bytes).toBeGreaterThan(10 * 1024 * 1024);

    // The page the image was made from shows the known values (same pinned results).
    const db = server.ctx.database.db;
    const token = await issuePrintToken(
      db,
      server.ctx.keys.tokens,
      run.id,
      (await findSubscription(db, null, id))!,
    );
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
      await page.goto(`${server.url}/reports/print/${run.id}?token=${token}`);
      await page.waitForFunction(() => document.documentElement.dataset.reportReady === "true");
      const text = await page.evaluate(() => document.body.innerText);
      expect(text).toContain("4,242");
      expect(text).toContain("John Doe");
      const widgets = await page.evaluate(
        () => (window as unknown as { __reportWidgets: { widget_id: number }[] }).__reportWidgets,
      );
      expect(widgets.map((w) => w.widget_id)).toContain(counterWidgetId);
    } finally {
      await browser.close();
    }
  });

  /** A run this test holds, as a worker that just claimed it would. */
  async function heldRun(subscriptionId: number, attempts: number) {
    const db = server.ctx.database.db;
    const subscription = (await findSubscription(db, null, subscriptionId))!;
    const inserted = await db
      .insertInto("report_runs")
      .values({
        org_id: subscription.org_id,
        subscription_id: subscriptionId,
        status: "running",
        trigger: "manual",
        started_at: new Date().toISOString(),
        recipients: "[]",
        widgets: "[]",
        attempts,
        claimed_at: new Date().toISOString(),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return (await findRun(db, null, inserted.id))!;
  }

  /** Runs a held run here, with a renderer whose browser is missing. */
  async function runWithoutBrowser(run: Awaited<ReturnType<typeof heldRun>>) {
    const db = server.ctx.database.db;
    const mailer = createMailer(server.config.mail);
    await runReport(
      {
        db,
        keys: server.ctx.keys,
        execution: server.ctx.execution,
        renderer: new ReportRenderer({ chromiumPath: "/nonexistent/chromium" }),
        config: server.config,
        mailer,
        log: server.ctx.log,
        delivery: {
          db,
          keys: server.ctx.keys,
          log: server.ctx.log,
          tools: { outbound: createOutboundClient({ allowedRanges: [] }), mailer },
        },
      },
      run,
    );
  }

  it("paints again on a retry from the pinned results, without running a query again", async () => {
    const id = await subscribe({ format: "png", recipients: { emails: ["retry@example.com"] } });
    const db = server.ctx.database.db;
    const executions = async () =>
      Number(
        (
          await db
            .selectFrom("query_runs")
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const held = await heldRun(id, 0);
    // The first paint has no browser: the queries ran and are pinned, the run waits again.
    await runWithoutBrowser(held);
    const afterQueries = await executions();
    const waiting = (await findRun(db, null, held.id))!;
    expect(waiting.attempts).toBe(1);
    expect(Object.keys(waiting.results ?? {})).toHaveLength(2);
    // The server's worker takes it again and paints it.
    const before = smtp.mails.length;
    const run = await finished(held.id);
    expect(run.status, run.error ?? "").toBe("sent");
    expect((await findRun(db, null, held.id))!.attempts).toBe(2);
    expect(await executions()).toBe(afterQueries);
    expect(mailsTo("retry@example.com", before)).toHaveLength(1);
  });

  it("a missing browser on the last try fails the run with a clear error", async () => {
    const id = await subscribe({ format: "pdf", recipients: { emails: ["never@example.com"] } });
    const held = await heldRun(id, 1);
    const before = smtp.mails.length;
    await runWithoutBrowser(held);
    const run = (await admin.get<Run>(`/api/report_runs/${held.id}`)).body;
    expect(run.status).toBe("failed");
    expect(run.error).toBe(
      "The report could not be drawn: no browser at /nonexistent/chromium. Install Debian's chromium package or set SIGHTLINE_CHROMIUM.",
    );
    expect(run.finished_at).not.toBeNull();
    expect(mailsTo("never@example.com", before)).toHaveLength(0);
  });

  it("sends one query visualization as a report", async () => {
    const queries = await admin.get<{ results: { id: number; name: string }[] }>("/api/queries");
    const people = queries.body.results.find((q) => q.name === "People")!;
    const query = await admin.get<{ visualizations: { id: number }[] }>(
      `/api/queries/${people.id}`,
    );
    const created = await admin.post<{ id: number }>(`/api/queries/${people.id}/subscriptions`, {
      visualization_id: query.body.visualizations[0]!.id,
      format: "png",
      recipients: { emails: ["single@example.com"] },
    });
    expect(created.status, created.text).toBe(200);
    const before = smtp.mails.length;
    const run = await sendNow(created.body.id);
    expect(run.status, run.error ?? "").toBe("sent");
    expect(run.widgets).toEqual([expect.objectContaining({ widget_id: 0, state: "painted" })]);
    const mail = mailsTo("single@example.com", before)[0]!;
    expect(mail.subject).toBe("People: Table");
    expect(mail.html).toContain(`${server.url}/queries/${people.id}#`);
    expect(mail.html).toContain("Ann Lee");
    const image = mail.attachments.find((a) => a.contentType === "image/png")!;
    fs.writeFileSync(`test-artifacts/screenshots/report-query-${queue}.png`, image.content);
  });

  it("attaches a PDF, and CSV and XLSX of each widget's result", async () => {
    for (const format of ["pdf", "csv", "xlsx"] as const) {
      const id = await subscribe({ format, recipients: { emails: [`${format}@example.com`] } });
      const before = smtp.mails.length;
      const run = await sendNow(id);
      expect(run.status, run.error ?? "").toBe("sent");
      const mail = mailsTo(`${format}@example.com`, before)[0]!;
      const files = mail.attachments.filter((a) => !a.cid);
      if (format === "pdf") {
        expect(files).toHaveLength(1);
        expect(files[0]!.content.subarray(0, 5).toString()).toBe("%PDF-");
        expect(run.has_thumbnail).toBe(true);
        // Kept to be looked at: pdftoppm turns it into PNG pages.
        fs.writeFileSync(`test-artifacts/screenshots/report-${queue}.pdf`, files[0]!.content);
      } else {
        expect(files.map((f) => f.filename).sort()).toEqual([
          expect.stringMatching(new RegExp(`^Orders_.*\\.${format}$`)),
          expect.stringMatching(new RegExp(`^People_.*\\.${format}$`)),
        ]);
        const people = files.find((f) => f.filename!.startsWith("People"))!;
        if (format === "csv") expect(people.content.toString()).toContain("John Doe");
        else expect(people.content.subarray(0, 2).toString()).toBe("PK");
        expect(run.has_thumbnail).toBe(false);
      }
    }
  });

  it("skips when the numbers did not change, and when every widget is empty", async () => {
    const id = await subscribe({ format: "link", only_if_changed: true });
    expect((await sendNow(id)).status).toBe("sent");
    const second = await sendNow(id);
    expect(second.status).toBe("skipped");
    expect(second.error).toMatch(/did not change/);

    const empty = await admin.post<{ id: number }>("/api/dashboards", { name: "Nothing" });
    const shop = (await admin.get<{ id: number }[]>("/api/data_sources")).body[0]!.id;
    const none = await admin.post<{ visualizations: { id: number }[] }>("/api/queries", {
      name: "None",
      query: "SELECT name FROM people WHERE 1 = 0",
      data_source_id: shop,
    });
    await admin.post("/api/widgets", {
      dashboard_id: empty.body.id,
      visualization_id: none.body.visualizations[0]!.id,
      width: 1,
      options: { position: { col: 0, row: 0, sizeX: 3, sizeY: 4 } },
    });
    const sub = await admin.post<{ id: number }>(`/api/dashboards/${empty.body.id}/subscriptions`, {
      recipients: { emails: ["x@example.com"] },
      skip_if_empty: true,
      format: "link",
    });
    const skipped = await sendNow(sub.body.id);
    expect(skipped.status).toBe("skipped");
    expect(skipped.error).toMatch(/Every widget is empty/);
  });

  it.runIf(queue === "memory")(
    "the RQ Status page's Reports tab shows render time and browser memory",
    async () => {
      // A report rendered in this test, whatever ran before it.
      const rendered = await sendNow(await subscribe({ format: "png" }));
      expect(rendered.status, rendered.error ?? "").toBe("sent");
      const browser = await launchBrowser();
      try {
        for (const { name, viewport } of BOTH_VIEWPORTS) {
          const context = await browser.newContext({ baseURL: server.url, viewport });
          const page = await context.newPage();
          await signInThroughForm(page);
          await page.goto("/admin/queries/jobs#reports");
          await page.getByRole("columnheader", { name: "Reports Rendered" }).waitFor();
          const row = page
            .getByRole("row")
            .filter({ hasText: /\d+ MB/ })
            .first();
          await row.waitFor();
          expect(await row.innerText()).toMatch(/\d+\.\d s/);
          await animationsSettled(page);
          await screenshot(page, `report-renderers-${name}`);
          await context.close();
        }
      } finally {
        await browser.close();
      }
    },
  );

  it("a scheduled report that fails tells its owner by e-mail", async () => {
    sink.answer = (request) => (request.path === "/failing-hook" ? 500 : 200);
    const hook = await admin.post<{ id: number }>("/api/destinations", {
      name: "Failing hook",
      type: "webhook",
      options: { url: `${sink.url}/failing-hook` },
    });
    const id = await subscribe({
      name: "Doomed report",
      format: "link",
      recipients: { emails: [], destination_ids: [hook.body.id] },
    });
    const before = smtp.mails.length;
    // A scheduler pass two days on: the daily subscription is due once.
    const queued = await enqueueDueReports(
      server.ctx.database.db,
      new Date(Date.now() + 2 * 86400_000),
    );
    expect(queued).toContain(id);
    const runs = await admin.get<{ results: { id: number }[] }>(`/api/subscriptions/${id}/runs`);
    const run = await finished(runs.body.results[0]!.id);
    expect(run.status).toBe("failed");
    expect(run.error).toMatch(/Failing hook: .*HTTP 500/);
    await expect
      .poll(() => mailsTo("admin@example.com", before).map((m) => m.subject), { timeout: 10_000 })
      .toContain('Your scheduled report "Doomed report" failed');
  });
});

// The web app's print page must exist for these tests.
if (!fs.existsSync("packages/web/dist/index.html")) {
  throw new Error("Build the web app first: npm run build --workspace @sightline/web");
}
