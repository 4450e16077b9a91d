// Report subscriptions and runs (issue 28) through the real HTTP layer on both metadata stores:
// create and validate, rights, "Send now", run history, and the print data token's rules.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createShopAndSecret, publishQuery, settledJob } from "../testing/apiServer";
import { metadataDatabases } from "../testing/services";
import { TestClient } from "../testing/httpClient";
import { startServerBeside } from "../testing/testServer";
import { startWithAdminAndMember, type AdminAndMember } from "../testing/signedIn";
import { issuePrintToken } from "../reports/printToken";
import { findSubscription, insertRun, updateRun } from "../reports/store";
import { enqueueDueReports } from "../reports/schedule";
import { PRINT_REFUSALS } from "./reportRuns";

const DATABASES = await metadataDatabases();
const DAILY = { interval: 86400, time: "09:00", day_of_week: null, until: null };

interface Sub {
  id: number;
  name: string;
  user: { id: number; email: string };
  schedule: typeof DAILY;
  format: string;
  recipients: { emails: string[]; destination_ids: number[] };
  last_run: { id: number; status: string } | null;
  next_run_at: string | null;
  active: boolean;
}

describe.each(DATABASES)("report subscriptions on %s", (dbKind) => {
  let ctx: AdminAndMember<TestClient>;
  let admin: TestClient;
  let member: TestClient;
  let dashboardId: number;
  let widgetId: number;
  let queryId: number;
  let visualizationId: number;
  let secretQueryId: number;

  beforeAll(async () => {
    // No renderer in this process: runs stay queued where the test looks at them.
    ctx = await startWithAdminAndMember(dbKind, {
      env: { SIGHTLINE_REPORT_BROWSERS: "0", SIGHTLINE_OUTBOUND_ALLOWED_RANGES: "127.0.0.1/32" },
    });
    ({ admin, member } = ctx);
    const { shop, secret } = await createShopAndSecret(ctx.server, admin);
    const query = await publishQuery(admin, shop, "People", "SELECT name, value FROM people");
    queryId = query.id;
    visualizationId = query.visualizations[0]!.id;
    secretQueryId = (await publishQuery(admin, secret, "Secret people", "SELECT 1 AS n")).id;
    const board = await admin.post<{ id: number }>("/api/dashboards", { name: "Weekly" });
    dashboardId = board.body.id;
    const widget = await admin.post<{ id: number }>("/api/widgets", {
      dashboard_id: dashboardId,
      visualization_id: visualizationId,
      width: 1,
      options: { position: { col: 0, row: 0, sizeX: 3, sizeY: 8 } },
    });
    expect(widget.status, widget.text).toBe(200);
    widgetId = widget.body.id;
  });
  afterAll(async () => {
    await ctx?.server.close();
  });

  const create = (client: TestClient, body: Record<string, unknown>) =>
    client.post<Sub & { message?: string }>(`/api/dashboards/${dashboardId}/subscriptions`, body);
  const valid = {
    name: "Monday numbers",
    schedule: DAILY,
    format: "png",
    recipients: { emails: ["boss@example.com"], destination_ids: [] },
  };

  it("creates a dashboard subscription and lists it with its owner and next run", async () => {
    const res = await create(member, valid);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      name: "Monday numbers",
      format: "png",
      user: { email: "mel@example.com" },
      schedule: DAILY,
      recipients: { emails: ["boss@example.com"], destination_ids: [] },
      skip_if_empty: false,
      only_if_changed: false,
      active: true,
      last_run: null,
    });
    expect(res.body.next_run_at).toMatch(/T09:00:/);
    const list = await admin.get<Sub[]>(`/api/dashboards/${dashboardId}/subscriptions`);
    expect(list.status).toBe(200);
    expect(list.body.map((s) => s.id)).toContain(res.body.id);
  });

  it("refuses bad input with a message naming it", async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ ...valid, format: "gif" }, /format must be one of/],
      [{ ...valid, schedule: { interval: -5 } }, /schedule.interval/],
      [{ ...valid, schedule: { interval: 3600, time: "25:00" } }, /schedule.time/],
      [{ ...valid, recipients: { emails: ["not an address"] } }, /not an e-mail address/],
      [{ ...valid, recipients: { emails: [], destination_ids: [] } }, /at least one recipient/],
      [{ ...valid, recipients: { destination_ids: [987654] } }, /Destination 987654/],
      [{ ...valid, skip_if_empty: "yes" }, /skip_if_empty must be true or false/],
      [{ ...valid, parameters: [1] }, /parameters must be an object/],
      [{ ...valid, name: "" }, /name/],
    ];
    for (const [body, message] of cases) {
      const res = await create(admin, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toMatch(message);
    }
  });

  it("takes only destinations of the organisation that can carry a report", async () => {
    const pager = await admin.post<{ id: number }>("/api/destinations", {
      name: "Pager",
      type: "pagerduty",
      options: { integration_key: "abc" },
    });
    expect(pager.status, pager.text).toBe(200);
    const refused = await create(admin, {
      ...valid,
      recipients: { destination_ids: [pager.body.id] },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/cannot carry a report/);
    const hook = await admin.post<{ id: number }>("/api/destinations", {
      name: "Hook",
      type: "webhook",
      options: { url: "http://127.0.0.1:9/hook" },
    });
    expect(hook.status, hook.text).toBe(200);
    const ok = await create(admin, { ...valid, recipients: { destination_ids: [hook.body.id] } });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.recipients.destination_ids).toEqual([hook.body.id]);
  });

  it("lets only the owner or an admin edit, delete or send", async () => {
    const mine = await create(admin, valid);
    const edit = await member.post(`/api/subscriptions/${mine.body.id}`, { name: "Hijacked" });
    expect(edit.status).toBe(403);
    expect((await member.delete(`/api/subscriptions/${mine.body.id}`)).status).toBe(403);
    expect((await member.post(`/api/subscriptions/${mine.body.id}/send`)).status).toBe(403);
    // The member may read it (they can view the dashboard).
    expect((await member.get(`/api/subscriptions/${mine.body.id}`)).status).toBe(200);

    const theirs = await create(member, valid);
    const renamed = await admin.post<Sub>(`/api/subscriptions/${theirs.body.id}`, {
      name: "Renamed",
      active: false,
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toMatchObject({ name: "Renamed", active: false, next_run_at: null });
    const bad = await member.post(`/api/subscriptions/${theirs.body.id}`, { format: "bmp" });
    expect(bad.status).toBe(400);
    expect((await member.delete(`/api/subscriptions/${theirs.body.id}`)).status).toBe(204);
    expect((await member.get(`/api/subscriptions/${theirs.body.id}`)).status).toBe(404);
  });

  it("subscribes to a query visualization the caller may view, and no other", async () => {
    const ok = await member.post<Sub & { visualization_id: number }>(
      `/api/queries/${queryId}/subscriptions`,
      { ...valid, visualization_id: visualizationId },
    );
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.visualization_id).toBe(visualizationId);
    const missing = await member.post(`/api/queries/${queryId}/subscriptions`, valid);
    expect(missing.status).toBe(400);
    expect(missing.body.message).toMatch(/visualization_id/);
    const secret = await member.post(`/api/queries/${secretQueryId}/subscriptions`, {
      ...valid,
      visualization_id: visualizationId,
    });
    expect(secret.status).toBe(403);
    const list = await member.get<Sub[]>(`/api/queries/${queryId}/subscriptions`);
    expect(list.body.map((s) => s.id)).toEqual([ok.body.id]);

    // The admin's report of a query the member may not view: neither it nor its runs are theirs.
    const secretViz = await admin.get<{ visualizations: { id: number }[] }>(
      `/api/queries/${secretQueryId}`,
    );
    const hidden = await admin.post<Sub>(`/api/queries/${secretQueryId}/subscriptions`, {
      ...valid,
      visualization_id: secretViz.body.visualizations[0]!.id,
    });
    expect(hidden.status, hidden.text).toBe(200);
    const run = await admin.post<{ run: { id: number } }>(
      `/api/subscriptions/${hidden.body.id}/send`,
    );
    expect((await member.get(`/api/subscriptions/${hidden.body.id}`)).status).toBe(403);
    expect((await member.get(`/api/subscriptions/${hidden.body.id}/runs`)).status).toBe(403);
    expect((await member.get(`/api/report_runs/${run.body.run.id}`)).status).toBe(403);
    expect((await member.get(`/api/queries/${secretQueryId}/subscriptions`)).status).toBe(403);
    expect((await admin.get(`/api/report_runs/${run.body.run.id}`)).status).toBe(200);
  });

  it("sends now: a queued manual run, in the history and as the last run", async () => {
    const sub = await create(admin, valid);
    const sent = await admin.post<{ run: { id: number; status: string; trigger: string } }>(
      `/api/subscriptions/${sub.body.id}/send`,
    );
    expect(sent.status, sent.text).toBe(202);
    expect(sent.body.run).toMatchObject({ status: "queued", trigger: "manual", widgets: [] });
    const runs = await member.get<{ count: number; results: { id: number }[] }>(
      `/api/subscriptions/${sub.body.id}/runs?page=1&page_size=10`,
    );
    expect(runs.status).toBe(200);
    expect(runs.body).toMatchObject({ count: 1, page: 1, page_size: 10 });
    expect(runs.body.results[0]!.id).toBe(sent.body.run.id);
    const one = await member.get(`/api/report_runs/${sent.body.run.id}`);
    expect(one.status).toBe(200);
    expect(one.body.has_thumbnail).toBe(false);
    expect((await member.get(`/api/report_runs/${sent.body.run.id}/thumbnail.png`)).status).toBe(
      404,
    );
    const read = await admin.get<Sub>(`/api/subscriptions/${sub.body.id}`);
    expect(read.body.last_run?.id).toBe(sent.body.run.id);
    const badPage = await admin.get(`/api/subscriptions/${sub.body.id}/runs?page_size=999`);
    expect(badPage.status).toBe(400);
  });

  it("creates one subscription for a double-clicked Save, and a second on purpose", async () => {
    const body = { ...valid, name: "Pressed twice" };
    const [first, second] = await Promise.all([create(admin, body), create(admin, body)]);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.body.id).toBe(first.body.id);
    // The answer lost and Save pressed again: still the one.
    expect((await create(admin, body)).body.id).toBe(first.body.id);
    // Another name is another subscription; so is the same one made by someone else.
    const other = await create(admin, { ...body, name: "Pressed twice (copy)" });
    expect(other.body.id).not.toBe(first.body.id);
    const list = await admin.get<Sub[]>(`/api/dashboards/${dashboardId}/subscriptions`);
    expect(list.body.filter((s) => s.name === "Pressed twice")).toHaveLength(1);
  });

  it("sends once for a double-clicked Send now, and again once that run is over", async () => {
    const sub = await create(admin, { ...valid, name: "Send now twice" });
    const url = `/api/subscriptions/${sub.body.id}/send`;
    const [first, second] = await Promise.all([admin.post(url), admin.post(url)]);
    expect([first.status, second.status]).toEqual([202, 202]);
    expect(second.body.run.id).toBe(first.body.run.id);
    // A second tab pressing it while the run is still queued gets the same run.
    expect((await admin.post(url)).body.run.id).toBe(first.body.run.id);
    const runs = await admin.get<{ count: number }>(`/api/subscriptions/${sub.body.id}/runs`);
    expect(runs.body.count).toBe(1);
    await updateRun(ctx.server.ctx.database.db, first.body.run.id, { status: "sent" });
    const again = await admin.post(url);
    expect(again.status).toBe(202);
    expect(again.body.run.id).not.toBe(first.body.run.id);
  });

  it.runIf(dbKind === "postgres")(
    "makes one subscription and sends once for presses that reach two servers",
    async () => {
      // Scaled mode: the same browser's two presses land on two servers sharing the store.
      const other = await startServerBeside(ctx.server);
      try {
        const onOther = new TestClient(other.url);
        for (const [name, value] of admin.cookies) onOther.cookies.set(name, value);
        const body = { ...valid, name: "Pressed on two servers" };
        const created = await Promise.all([create(admin, body), create(onOther, body)]);
        expect(created.map((r) => r.status)).toEqual([200, 200]);
        expect(created[1].body.id).toBe(created[0].body.id);
        const url = `/api/subscriptions/${created[0].body.id}/send`;
        const sent = await Promise.all([admin.post(url), onOther.post(url)]);
        expect(sent.map((r) => r.status)).toEqual([202, 202]);
        expect(sent[1].body.run.id).toBe(sent[0].body.run.id);
        const runs = await admin.get<{ count: number }>(
          `/api/subscriptions/${created[0].body.id}/runs`,
        );
        expect(runs.body.count).toBe(1);
      } finally {
        await other.close();
      }
    },
  );

  it("schedules as queries do: not at once, due after its interval, once after downtime", async () => {
    const db = ctx.server.ctx.database.db;
    const hourly = await create(admin, {
      ...valid,
      schedule: { interval: 3600, time: null, day_of_week: null, until: null },
    });
    const paused = await create(admin, {
      ...valid,
      active: false,
      schedule: { interval: 3600, time: null, day_of_week: null, until: null },
    });
    const created = Date.parse(hourly.body.next_run_at!) - 3600_000;
    expect(await enqueueDueReports(db, new Date(created + 60_000))).not.toContain(hourly.body.id);
    // The scheduler was down for a day: one run when it is back, not 24.
    const back = new Date(created + 24 * 3600_000);
    const queued = await enqueueDueReports(db, back);
    expect(queued).toContain(hourly.body.id);
    expect(queued).not.toContain(paused.body.id);
    expect(await enqueueDueReports(db, new Date(back.getTime() + 60_000))).not.toContain(
      hourly.body.id,
    );
    const runs = await admin.get<{ count: number; results: { trigger: string }[] }>(
      `/api/subscriptions/${hourly.body.id}/runs`,
    );
    expect(runs.body.count).toBe(1);
    expect(runs.body.results[0]!.trigger).toBe("schedule");
    const read = await admin.get<Sub>(`/api/subscriptions/${hourly.body.id}`);
    expect(read.body.next_run_at).toBe(new Date(back.getTime() + 3600_000).toISOString());
    // Due again while its last run still waits: counted as sent, not piled up.
    expect(await enqueueDueReports(db, new Date(back.getTime() + 2 * 3600_000))).not.toContain(
      hourly.body.id,
    );
    expect(
      (await admin.get<{ count: number }>(`/api/subscriptions/${hourly.body.id}/runs`)).body.count,
    ).toBe(1);
  });

  describe("print data", () => {
    let runId: number;
    let otherRunId: number;
    let subscriptionId: number;
    const db = () => ctx.server.ctx.database.db;
    const key = () => ctx.server.ctx.keys.tokens;
    const tokenFor = async (id: number, sub = subscriptionId) =>
      issuePrintToken(db(), key(), id, (await findSubscription(db(), null, sub))!);
    const printData = (id: number, token: string) =>
      fetch(
        `${ctx.server.url}/api/report_runs/${id}/print_data?token=${encodeURIComponent(token)}`,
      );

    beforeAll(async () => {
      const sub = await create(admin, { ...valid, parameters: {} });
      subscriptionId = sub.body.id;
      const run = await admin.post(`/api/subscriptions/${subscriptionId}/send`);
      runId = run.body.run.id;
      // A second Send now would answer the first run while it is queued: another run directly.
      otherRunId = (
        await insertRun(db(), (await findSubscription(db(), null, subscriptionId))!, "manual")
      ).id;
      const executed = await admin.post(`/api/queries/${queryId}/results`, { max_age: 0 });
      const resultId = executed.body.job
        ? (await settledJob(admin, executed.body)).query_result_id
        : executed.body.query_result.id;
      await updateRun(db(), runId, { results: { [widgetId]: { result_id: resultId } } });
    });

    it("gives the dashboard and the pinned results once for a fresh token", async () => {
      const token = await tokenFor(runId);
      const res = await printData(runId, token);
      expect(res.status).toBe(200);
      const body = (await res.json()) as {
        dashboard: { id: number; widgets: { id: number }[] };
        results: Record<string, { query_result: { data: { rows: { name: string }[] } } }>;
        width: number;
      };
      expect(body.width).toBe(1200);
      expect(body.dashboard.id).toBe(dashboardId);
      // As the owner (the admin, who made the dashboard) reads it.
      expect((body.dashboard as unknown as { can_edit: boolean }).can_edit).toBe(true);
      expect(body.dashboard.widgets.map((w) => w.id)).toEqual([widgetId]);
      expect(body.results[widgetId]!.query_result.data.rows.map((r) => r.name)).toEqual([
        "John",
        "Ann",
      ]);
      // Reused: refused.
      const again = await printData(runId, token);
      expect(again.status).toBe(403);
      expect(((await again.json()) as { message: string }).message).toBe(PRINT_REFUSALS.used);
    });

    it("refuses an expired token, another run's, a forged one, none, and a changed report", async () => {
      const old = await issuePrintToken(
        db(),
        key(),
        runId,
        (await findSubscription(db(), null, subscriptionId))!,
        Date.now() - 3 * 60_000,
      );
      expect(((await (await printData(runId, old)).json()) as { message: string }).message).toBe(
        PRINT_REFUSALS.expired,
      );
      const other = await tokenFor(otherRunId);
      expect(((await (await printData(runId, other)).json()) as { message: string }).message).toBe(
        PRINT_REFUSALS["wrong-run"],
      );
      const forged = (await tokenFor(runId)).replace(/.$/, (c) => (c === "A" ? "B" : "A"));
      expect(((await (await printData(runId, forged)).json()) as { message: string }).message).toBe(
        PRINT_REFUSALS["bad-signature"],
      );
      const none = await fetch(`${ctx.server.url}/api/report_runs/${runId}/print_data`);
      expect(none.status).toBe(403);
      const before = await tokenFor(runId);
      await admin.post(`/api/subscriptions/${subscriptionId}`, { parameters: { x: 1 } });
      const changed = await printData(runId, before);
      expect(changed.status).toBe(403);
      expect(((await changed.json()) as { message: string }).message).toBe(PRINT_REFUSALS.changed);
      await admin.post(`/api/subscriptions/${subscriptionId}`, { parameters: {} });
    });

    it("refuses a request from another address, even with a good token", async () => {
      const token = await tokenFor(runId);
      const res = await ctx.server.app.inject({
        method: "GET",
        url: `/api/report_runs/${runId}/print_data?token=${encodeURIComponent(token)}`,
        remoteAddress: "10.1.2.3",
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(PRINT_REFUSALS.address);
      // The token was not used up by the refused request.
      expect((await printData(runId, token)).status).toBe(200);
    });

    it("serves the print page without a login", async () => {
      const res = await fetch(`${ctx.server.url}/reports/print/${runId}?token=x`, {
        redirect: "manual",
      });
      expect(res.status).not.toBe(302);
    });
  });
});
