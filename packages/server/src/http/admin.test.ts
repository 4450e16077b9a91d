import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startExecution, type RunningExecution } from "../execution/runtime";
import { TEST_REDIS_URL, redisAvailable, deleteRedisKeys } from "../testing/services";
import { setUpAndLogin, type TestClient } from "../testing/httpClient";
import { startTestServer, type TestServer } from "../testing/testServer";

/** DuckDB counting for hours: a job that stays running until it is cancelled. */
const ENDLESS = "SELECT count(*) FROM range(1000000000000) t(x) WHERE x % 7 = 3";

/**
 * The scaled mode's admin pages: an API server without a worker, and a separate worker and
 * scheduler (as `sightline worker` / `sightline scheduler` would run) sharing Redis.
 */
describe.runIf(await redisAvailable())("admin queue pages on the BullMQ backend", () => {
  const prefix = `sltest_admin_${crypto.randomBytes(4).toString("hex")}`;
  let server: TestServer;
  let admin: TestClient;
  let background: RunningExecution | null = null;
  let sourceId: number;
  let scheduledId: number;

  beforeAll(async () => {
    server = await startTestServer("sqlite", {
      SIGHTLINE_REDIS_URL: TEST_REDIS_URL,
      SIGHTLINE_REDIS_PREFIX: prefix,
    });
    expect(server.config.mode).toBe("scaled");
    admin = await setUpAndLogin(server.url);
    const source = await admin.post("/api/data_sources", {
      name: "results",
      type: "results",
      options: {},
    });
    sourceId = source.body.id;
    const query = await admin.post("/api/queries", {
      name: "hourly",
      data_source_id: sourceId,
      query: "SELECT 1 AS one",
      schedule: { interval: 3600, time: null, day_of_week: null, until: null },
    });
    expect(query.status).toBe(200);
    scheduledId = query.body.id;
    // The worker and scheduler processes; the scheduler's first pass finds the query outdated.
    background = await startExecution(
      {
        config: server.config,
        db: server.ctx.database.db,
        keys: server.ctx.keys,
        resultLimits: server.config.resultLimits,
        log: server.ctx.log,
      },
      { worker: true, scheduler: true },
    );
  });

  afterAll(async () => {
    await background?.close();
    await server?.close();
    await deleteRedisKeys(prefix);
  });

  it("rq_status and /status.json show the running job, the worker and Redis", async () => {
    const run = await admin.post("/api/query_results", {
      data_source_id: sourceId,
      query: ENDLESS,
      max_age: 0,
    });
    expect(run.status).toBe(200);
    const jobId: string = run.body.job.id;
    try {
      let rq = await admin.get("/api/admin/queries/rq_status");
      await expect
        .poll(
          async () => {
            rq = await admin.get("/api/admin/queries/rq_status");
            return rq.body.queues.queries?.started?.map((j: { id: string }) => j.id);
          },
          { timeout: 15_000 },
        )
        .toEqual([jobId]);
      expect(rq.body.queues.queries).toMatchObject({ name: "queries", queued: 0 });
      expect(rq.body.queues.queries.started[0]).toMatchObject({
        id: jobId,
        name: "sightline.execution.execute_query",
        origin: "queries",
        meta: { data_source_id: sourceId, scheduled: false, query_id: "adhoc" },
      });
      expect(rq.body.queues).toHaveProperty("scheduled_queries");
      const worker = rq.body.workers.find((w: { state: string }) => w.state === "busy");
      expect(worker).toMatchObject({ pid: process.pid, current_job: `${jobId} (execute_query)` });
      expect(worker.queues.split(",")).toEqual(expect.arrayContaining(["queries"]));

      const status = await admin.get("/status.json");
      expect(status.status).toBe(200);
      expect(status.body.queue_backend).toBe("redis");
      expect(status.body.redis_used_memory).toBeGreaterThan(0);
      expect(status.body.redis_used_memory_human).toMatch(/\d/);
      expect(status.body.manager.queues).toMatchObject({
        queries: { size: 0 },
        scheduled_queries: { size: expect.any(Number) },
      });
    } finally {
      expect((await admin.delete(`/api/jobs/${jobId}`)).status).toBe(200);
    }
    expect((await admin.get(`/api/jobs/${jobId}`)).body.job.status).toBe(4);
  });

  it("the scheduler process's pass shows up as outdated queries", async () => {
    // The caller's favorites are marked (api-platform.md §6.5).
    expect((await admin.post(`/api/queries/${scheduledId}/favorite`)).status).toBe(200);
    let outdated = await admin.get("/api/admin/queries/outdated");
    await expect
      .poll(
        async () => {
          outdated = await admin.get("/api/admin/queries/outdated");
          return outdated.body.queries.map((q: { id: number }) => q.id);
        },
        { timeout: 15_000 },
      )
      .toEqual([scheduledId]);
    expect(outdated.body.updated_at).toMatch(/^\d+$/);
    expect(outdated.body.queries[0]).toMatchObject({
      is_favorite: true,
      starred_at: expect.any(String),
    });
    const status = await admin.get("/status.json");
    expect(status.body.manager).toMatchObject({
      outdated_queries_count: 1,
      query_ids: JSON.stringify([scheduledId]),
    });
    // The scheduled run went through the scheduled queue to the worker.
    await expect
      .poll(
        async () => (await admin.get(`/api/queries/${scheduledId}`)).body.latest_query_data_id,
        {
          timeout: 15_000,
        },
      )
      .toEqual(expect.any(Number));
  });
});
