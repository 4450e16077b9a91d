// Run history (issue 28) through the real HTTP layer, on both metadata stores: ad hoc, saved and
// scheduled runs recorded, viewer rights, paging, bad input, the list's failing mark, and the
// scheduler heartbeat and late schedules in /status.json.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localLeader, Scheduler } from "../execution/scheduler";
import { SCHEDULER_LAST_RUNS_KEY, readState, writeState } from "../execution/serverState";
import { createShopAndSecret, settledJob } from "../testing/apiServer";
import {
  metadataDatabases,
  plainPgRole,
  postgresAvailable,
  TEST_PG_URL,
} from "../testing/services";
import { CANCELLED_MESSAGE, TIMEOUT_MESSAGE } from "../execution/types";
import type { TestClient } from "../testing/httpClient";
import { startWithAdminAndMember, type AdminAndMember } from "../testing/signedIn";

const DATABASES = await metadataDatabases();
const HAS_PG = await postgresAvailable();

interface Run {
  query_id: number | null;
  user_id: number | null;
  user: { id: number; name: string } | null;
  scheduled: boolean;
  status: string;
  error: string | null;
  rows: number | null;
  runtime: number;
  started_at: string;
}
interface RunList {
  count: number;
  page: number;
  page_size: number;
  results: Run[];
}
const EVERY_MINUTE = { interval: 60, time: null, day_of_week: null, until: null };

describe.each(DATABASES)("query run history on %s", (dbKind) => {
  let ctx: AdminAndMember<TestClient>;
  let admin: TestClient;
  let member: TestClient;
  let shop: number;
  let secret: number;

  beforeAll(async () => {
    ctx = await startWithAdminAndMember(dbKind);
    ({ admin, member } = ctx);
    ({ shop, secret } = await createShopAndSecret(ctx.server, admin));
  });
  afterAll(async () => {
    await ctx?.server.close();
  });

  async function save(text: string, dataSourceId = shop, schedule: unknown = null) {
    const res = await admin.post<{ id: number }>("/api/queries", {
      name: text,
      query: text,
      data_source_id: dataSourceId,
      schedule,
    });
    expect(res.status, res.text).toBe(200);
    return res.body.id;
  }
  async function run(id: number) {
    const res = await admin.post(`/api/queries/${id}/results`, { max_age: 0 });
    expect(res.status, res.text).toBe(200);
    if (res.body.job) await settledJob(admin, res.body);
  }
  const runs = (client: TestClient, id: number, qs = "") =>
    client.get<RunList>(`/api/queries/${id}/runs${qs}`);
  /** A scheduler pass an hour from now: every scheduled query is due. */
  const schedulerPass = () =>
    new Scheduler({
      db: ctx.server.ctx.database.db,
      execution: ctx.server.ctx.execution,
      leader: localLeader,
    }).refreshOutdated(new Date(Date.now() + 3600_000));

  it("records a user's runs, successful and failed, with rows, duration and who", async () => {
    const id = await save("SELECT name FROM people ORDER BY id");
    await run(id);
    const res = await runs(admin, id);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ count: 1, page: 1, page_size: 25 });
    expect(res.body.results[0]).toMatchObject({
      query_id: id,
      user_id: ctx.adminUser.id,
      user: { id: ctx.adminUser.id },
      scheduled: false,
      status: "success",
      error: null,
      rows: 2,
    });
    expect(res.body.results[0]!.runtime).toBeGreaterThanOrEqual(0);
    expect(Date.parse(res.body.results[0]!.started_at)).toBeGreaterThan(Date.now() - 120_000);

    await admin.post(`/api/queries/${id}`, { query: "SELECT * FROM no_such_table" });
    await run(id);
    const after = (await runs(admin, id)).body;
    expect(after.count).toBe(2);
    expect(after.results[0]).toMatchObject({ status: "failed", rows: null });
    expect(after.results[0]!.error).toMatch(/no_such_table/);
  });

  it("records ad hoc runs without a query", async () => {
    const db = ctx.server.ctx.database.db;
    const before = await db
      .selectFrom("query_runs")
      .where("query_id", "is", null)
      .selectAll()
      .execute();
    const res = await admin.post("/api/query_results", {
      data_source_id: shop,
      query: "SELECT 'ad hoc' AS a",
      max_age: 0,
    });
    expect(res.status, res.text).toBe(200);
    if (res.body.job) await settledJob(admin, res.body);
    const rows = await db
      .selectFrom("query_runs")
      .where("query_id", "is", null)
      .selectAll()
      .execute();
    expect(rows.length).toBe(before.length + 1);
    expect(rows.at(-1)).toMatchObject({ user_id: ctx.adminUser.id, status: "success", rows: 1 });
  });

  it("records scheduled runs as the scheduler and marks queries whose last scheduled run failed", async () => {
    const good = await save("SELECT 1 AS ok", shop, EVERY_MINUTE);
    const bad = await save("SELECT * FROM missing_table", shop, EVERY_MINUTE);
    const ids = await schedulerPass();
    expect(ids).toEqual(expect.arrayContaining([good, bad]));
    await expect.poll(async () => (await runs(admin, bad)).body.count, { timeout: 15_000 }).toBe(1);
    await expect
      .poll(async () => (await runs(admin, good)).body.count, { timeout: 15_000 })
      .toBe(1);
    const failed = (await runs(admin, bad)).body.results[0]!;
    expect(failed).toMatchObject({ scheduled: true, user_id: null, user: null, status: "failed" });
    expect(failed.error).toMatch(/missing_table/);

    const list = await admin.get<{
      results: { id: number; last_scheduled_run_failed: boolean; schedule_failures: number }[];
    }>("/api/queries?page_size=250");
    expect(list.status, list.text).toBe(200);
    const byId = new Map(list.body.results.map((q) => [q.id, q]));
    expect(byId.get(bad)).toMatchObject({ last_scheduled_run_failed: true, schedule_failures: 1 });
    expect(byId.get(good)).toMatchObject({
      last_scheduled_run_failed: false,
      schedule_failures: 0,
    });
    // A manual success does not hide that the schedule is failing.
    await admin.post(`/api/queries/${bad}`, { query: "SELECT 2 AS fixed" });
    await run(bad);
    const again = await admin.get<{
      results: { id: number; last_scheduled_run_failed: boolean }[];
    }>("/api/queries?page_size=250");
    expect(again.body.results.find((q) => q.id === bad)).toMatchObject({
      last_scheduled_run_failed: true,
    });
  });

  it("shows runs only to those who may view the query", async () => {
    const hidden = await save("SELECT 1 AS s", secret);
    await run(hidden);
    expect((await runs(admin, hidden)).body.count).toBe(1);
    const refused = await runs(member, hidden);
    expect(refused.status).toBe(403);
    expect(refused.body).toHaveProperty("message");
    const visible = await save("SELECT 1 AS v");
    expect((await runs(member, visible)).status).toBe(200);
    expect((await runs(member, 999_999)).status).toBe(404);
  });

  it("pages newest first and refuses bad paging with a 400 message", async () => {
    const id = await save("SELECT 3 AS three");
    for (let i = 0; i < 3; i += 1) await run(id);
    const all = (await runs(admin, id)).body;
    expect(all.count).toBe(3);
    const second = (await runs(admin, id, "?page=2&page_size=1")).body;
    expect(second).toMatchObject({ count: 3, page: 2, page_size: 1 });
    expect(second.results).toHaveLength(1);
    expect(second.results[0]).toEqual(all.results[1]);
    expect((await runs(admin, id, "?page=9&page_size=2")).body.results).toEqual([]);
    for (const qs of ["?page=0", "?page=abc", "?page_size=0", "?page_size=251", "?page_size=-1"]) {
      const res = await runs(admin, id, qs);
      expect(res.status, qs).toBe(400);
      expect(typeof (res.body as unknown as { message: unknown }).message, qs).toBe("string");
    }
  });

  it.runIf(HAS_PG)("records cancelled and timed-out runs", async () => {
    const url = new URL(TEST_PG_URL);
    const pgOptions = {
      host: url.hostname,
      port: Number(url.port || 5432),
      // A plain account, on another database than the metadata store's.
      user: await plainPgRole(),
      dbname: "postgres",
      sslmode: "disable",
    };
    const source = async (name: string, options: Record<string, unknown>) => {
      const res = await admin.post<{ id: number }>("/api/data_sources", {
        name,
        type: "pg",
        options,
      });
      expect(res.status, res.text).toBe(200);
      return res.body.id;
    };
    const slow = await source("pg slow", pgOptions);
    const limited = await source("pg one second", { ...pgOptions, timeout: 1 });

    const cancelled = await save("SELECT pg_sleep(30) AS cancelled_run", slow);
    const started = await admin.post(`/api/queries/${cancelled}/results`, { max_age: 0 });
    const jobId = started.body.job.id as string;
    await expect
      .poll(async () => (await admin.get(`/api/jobs/${jobId}`)).body.job.status, {
        timeout: 10_000,
      })
      .toBe(2);
    expect((await admin.delete(`/api/jobs/${jobId}`)).status).toBe(200);
    await expect
      .poll(async () => (await runs(admin, cancelled)).body.results[0]?.status, {
        timeout: 15_000,
      })
      .toBe("cancelled");
    expect((await runs(admin, cancelled)).body.results[0]!.error).toBe(CANCELLED_MESSAGE);

    const timedOut = await save("SELECT pg_sleep(30) AS timed_out_run", limited);
    await run(timedOut);
    await expect
      .poll(async () => (await runs(admin, timedOut)).body.results[0]?.status, {
        timeout: 15_000,
      })
      .toBe("timeout");
    const last = (await runs(admin, timedOut)).body.results[0]!;
    expect(last.error).toBe(TIMEOUT_MESSAGE);
    expect(last.runtime).toBeLessThan(10);
  });

  it("/status.json shows the scheduler heartbeat and the late schedules", async () => {
    const db = ctx.server.ctx.database.db;
    await schedulerPass();
    const fresh = await admin.get<any>("/status.json");
    expect(fresh.status, fresh.text).toBe(200);
    expect(fresh.body.manager.heartbeat_at).toBeTypeOf("number");
    expect(fresh.body.manager.heartbeat_age).toBeGreaterThanOrEqual(0);
    expect(fresh.body.manager.late_margin_seconds).toBe(300);
    // The failing scheduled query of an earlier test is counted.
    expect(fresh.body.manager.failing_schedules_count).toBeGreaterThan(0);
    const before = fresh.body.manager.late_schedules_count as number;
    expect(before).toBeTypeOf("number");
    // A query whose last scheduled run was an hour ago (a minute interval) is late.
    const late = await save("SELECT 'late' AS l", shop, EVERY_MINUTE);
    const lastRuns = await readState<Record<string, string>>(db, SCHEDULER_LAST_RUNS_KEY, {});
    lastRuns[String(late)] = new Date(Date.now() - 3600_000).toISOString();
    await writeState(db, SCHEDULER_LAST_RUNS_KEY, lastRuns);
    const now = await admin.get<any>("/status.json");
    expect(now.body.manager.late_schedules_count).toBe(before + 1);
    expect((await member.get("/status.json")).status).toBe(403);
  });
});
