import crypto from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { TEST_REDIS_URL, redisAvailable } from "../testing/services";
import { findQuery } from "../store/queries";
import { MemoryQueue } from "./memoryQueue";
import { jobProcessor } from "./runJob";
import { localLeader, Scheduler } from "./scheduler";
import { redisLeader } from "./redisLeader";
import { listQueryRuns } from "../store/queryRuns";
import {
  readState,
  SCHEDULER_LAST_RUNS_KEY,
  SCHEDULER_STATE_KEY,
  writeState,
  type SchedulerState,
} from "./serverState";
import { createExecutionService } from "./service";
import { openTestStore, type TestStore } from "./testSupport";

const HAS_REDIS = await redisAvailable();

const EVERY_MINUTE = { interval: 60, time: null, day_of_week: null, until: null };

let store: TestStore;
let backend: MemoryQueue;
let sourceId: number;
const schedulers: Scheduler[] = [];

function scheduler(leader = localLeader, intervalMs?: number): Scheduler {
  const execution = createExecutionService({ db: store.database.db, backend, waitMs: 0 });
  const created = new Scheduler({ db: store.database.db, execution, leader, intervalMs });
  schedulers.push(created);
  return created;
}

/** The query's row once its scheduled run has finished (a result, or a counted failure). */
async function settled(queryId: number) {
  let query = await findQuery(store.database.db, store.orgId, queryId);
  await expect
    .poll(
      async () => {
        query = await findQuery(store.database.db, store.orgId, queryId);
        return query!.latest_query_data_id !== null || query!.schedule_failures > 0;
      },
      { timeout: 10_000 },
    )
    .toBe(true);
  return query!;
}

beforeAll(async () => {
  store = await openTestStore();
  // Query Results with no query tables: plain SQL in an in-memory DuckDB, no outside service.
  sourceId = await store.addDataSource("results", {});
  backend = new MemoryQueue();
  await backend.startWorker(
    jobProcessor({
      db: store.database.db,
      config: store.config,
      keys: store.keys,
      limits: store.config.resultLimits,
    }),
    2,
  );
});

afterEach(async () => {
  await Promise.all(schedulers.splice(0).map((s) => s.stop()));
  // Each test starts with no scheduled queries from the previous one.
  await store.database.db
    .updateTable("queries")
    .set({ schedule: null })
    .where("org_id", "=", store.orgId)
    .execute();
});

afterAll(async () => {
  await backend.close();
  await store.close();
});

describe("scheduler", () => {
  it("runs a query whose interval schedule is due, and not again before the next interval", async () => {
    const query = await store.addQuery({
      dataSourceId: sourceId,
      text: "SELECT 42 AS answer",
      schedule: EVERY_MINUTE,
    });
    const unscheduled = await store.addQuery({ dataSourceId: sourceId, text: "SELECT 1 AS one" });
    const loop = scheduler();
    const start = new Date();
    expect(await loop.refreshOutdated(start)).toEqual([query.id]);
    const ran = await settled(query.id);
    expect(ran.latest_query_data_id).not.toBeNull();
    expect(ran.schedule_failures).toBe(0);
    expect(
      (await findQuery(store.database.db, store.orgId, unscheduled.id))!.latest_query_data_id,
    ).toBeNull();
    // Fresh: nothing to do half a minute later; due again once the interval has passed.
    expect(await loop.refreshOutdated(new Date(start.getTime() + 30_000))).toEqual([]);
    expect(await loop.refreshOutdated(new Date(start.getTime() + 61_000))).toEqual([query.id]);
    const state = await readState<SchedulerState | null>(
      store.database.db,
      SCHEDULER_STATE_KEY,
      null,
    );
    expect(state).toMatchObject({ outdated_queries_count: 1, query_ids: [query.id] });
  });

  it("runs a schedule missed while the scheduler was down exactly once when it comes back", async () => {
    const db = store.database.db;
    const query = await store.addQuery({
      dataSourceId: sourceId,
      text: "SELECT 'catch up' AS c",
      schedule: EVERY_MINUTE,
    });
    const runsOf = async () => (await listQueryRuns(db, store.orgId, query.id, 1, 50)).results;
    // Running: the first pass runs the never-run query once.
    const first = scheduler(localLeader, 50);
    first.start();
    await expect.poll(async () => (await runsOf()).length, { timeout: 10_000 }).toBe(1);
    await first.stop();
    // Down for ten minutes: ten due times pass with no scheduler (moved back in the stored state,
    // since the test cannot wait; the result's own time is moved back as well).
    const tenMinutesAgo = new Date(Date.now() - 600_000).toISOString();
    const lastRuns = await readState<Record<string, string>>(db, SCHEDULER_LAST_RUNS_KEY, {});
    lastRuns[String(query.id)] = tenMinutesAgo;
    await writeState(db, SCHEDULER_LAST_RUNS_KEY, lastRuns);
    await db.updateTable("query_results").set({ retrieved_at: tenMinutesAgo }).execute();
    // Back: many passes (50 ms apart) for a second, and exactly one catch-up run, not ten.
    const back = scheduler(localLeader, 50);
    back.start();
    await expect.poll(async () => (await runsOf()).length, { timeout: 10_000 }).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await back.stop();
    const runs = await runsOf();
    expect(runs).toHaveLength(2);
    expect(runs.every((r) => r.scheduled && r.status === "success")).toBe(true);
    // The next run is one interval after the catch-up, not after the missed due times.
    const after = await readState<Record<string, string>>(db, SCHEDULER_LAST_RUNS_KEY, {});
    expect(Date.parse(after[String(query.id)]!)).toBeGreaterThan(Date.now() - 30_000);
  });

  it("never runs archived queries", async () => {
    const archived = await store.addQuery({
      dataSourceId: sourceId,
      text: "SELECT 'archived' AS a",
      schedule: EVERY_MINUTE,
      archived: true,
    });
    expect(await scheduler().refreshOutdated(new Date(Date.now() + 3600_000))).toEqual([]);
    expect(
      (await findQuery(store.database.db, store.orgId, archived.id))!.latest_query_data_id,
    ).toBeNull();
  });

  it("backs off a failing query by 2^failures minutes", async () => {
    const failing = await store.addQuery({
      dataSourceId: sourceId,
      text: "SELECT * FROM no_such_table",
      schedule: EVERY_MINUTE,
    });
    const healthy = await store.addQuery({
      dataSourceId: sourceId,
      text: "SELECT 7 AS seven",
      schedule: EVERY_MINUTE,
    });
    const loop = scheduler();
    const start = new Date();
    expect((await loop.refreshOutdated(start)).sort()).toEqual([failing.id, healthy.id].sort());
    expect((await settled(failing.id)).schedule_failures).toBe(1);
    await settled(healthy.id);
    // One interval later only the healthy query is due; the failing one waits 2 more minutes.
    const later = (s: number) => new Date(start.getTime() + s * 1000);
    expect(await loop.refreshOutdated(later(61))).toEqual([healthy.id]);
    expect(await loop.refreshOutdated(later(170))).not.toContain(failing.id);
    expect(await loop.refreshOutdated(later(185))).toContain(failing.id);
    await expect
      .poll(
        async () =>
          (await findQuery(store.database.db, store.orgId, failing.id))!.schedule_failures,
        { timeout: 10_000 },
      )
      .toBe(2);
    // Both failures are in the run history: shown as failing, never dropped.
    const history = await listQueryRuns(store.database.db, store.orgId, failing.id, 1, 50);
    expect(history.results.map((r) => [r.scheduled, r.status])).toEqual([
      [true, "failed"],
      [true, "failed"],
    ]);
  });

  it("a run refused for its owner (no access to a query it reads) counts as a failure", async () => {
    const finance = await store.addGroup("finance");
    const financeSource = await store.addDataSource("results", {}, finance);
    const secret = await store.addQuery({ dataSourceId: financeSource, text: "SELECT 1 AS s" });
    const owner = await store.addUser([store.defaultGroupId]);
    const reader = await store.addQuery({
      dataSourceId: sourceId,
      text: `SELECT * FROM query_${secret.id}`,
      schedule: EVERY_MINUTE,
      userId: owner.id,
    });
    expect(await scheduler().refreshOutdated(new Date())).toEqual([]);
    const after = await findQuery(store.database.db, store.orgId, reader.id);
    expect(after).toMatchObject({ schedule_failures: 1, latest_query_data_id: null });
  });

  it.runIf(HAS_REDIS)("a second scheduler on Redis waits for the leader's lock", async () => {
    const prefix = `sltest_sched_${crypto.randomBytes(4).toString("hex")}`;
    const leader = redisLeader(TEST_REDIS_URL, prefix);
    const follower = redisLeader(TEST_REDIS_URL, prefix);
    try {
      expect(await leader.acquire()).toBe(true);
      // Renewing its own lock keeps the leader the leader.
      expect(await leader.acquire()).toBe(true);
      expect(await follower.acquire()).toBe(false);

      const query = await store.addQuery({
        dataSourceId: sourceId,
        text: "SELECT 'leader' AS who",
        schedule: EVERY_MINUTE,
      });
      const waiting = scheduler(follower, 100);
      waiting.start();
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(
        (await findQuery(store.database.db, store.orgId, query.id))!.latest_query_data_id,
      ).toBeNull();

      // The leader steps down: the follower takes the lock on its next pass and runs the query.
      await leader.release();
      expect((await settled(query.id)).latest_query_data_id).not.toBeNull();
    } finally {
      await leader.release();
      const client = new Redis(TEST_REDIS_URL);
      await client.del(`${prefix}:sightline:scheduler-lock`);
      client.disconnect();
    }
  });
});
