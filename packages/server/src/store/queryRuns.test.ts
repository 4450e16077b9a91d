// The run history table stays bounded: a query keeps its last RUNS_KEPT_PER_QUERY runs, and ad
// hoc runs (no query) are swept after a week.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestStore, type TestStore } from "../execution/testSupport";
import { listQueryRuns, recordQueryRun, RUNS_KEPT_PER_QUERY, sweepAdHocRuns } from "./queryRuns";

let store: TestStore;
let sourceId: number;

beforeAll(async () => {
  store = await openTestStore();
  sourceId = await store.addDataSource("results", {});
});
afterAll(async () => {
  await store.close();
});

const run = (queryId: number | null, startedAt = Date.now(), rows = 1) => ({
  orgId: store.orgId,
  queryId,
  dataSourceId: sourceId,
  userId: null,
  scheduled: false,
  status: "success" as const,
  error: null,
  rows,
  resultId: null,
  startedAt,
  runtime: 0.01,
});

describe("query runs", () => {
  it("keeps only the last runs of a query, newest first", async () => {
    const query = await store.addQuery({ dataSourceId: sourceId, text: "SELECT 1" });
    const other = await store.addQuery({ dataSourceId: sourceId, text: "SELECT 2" });
    await recordQueryRun(store.database.db, run(other.id));
    for (let i = 0; i < RUNS_KEPT_PER_QUERY + 5; i += 1) {
      await recordQueryRun(store.database.db, run(query.id, Date.now(), i));
    }
    const page = await listQueryRuns(store.database.db, store.orgId, query.id, 1, 250);
    expect(page.count).toBe(RUNS_KEPT_PER_QUERY);
    expect(page.results[0]!.rows).toBe(RUNS_KEPT_PER_QUERY + 4);
    expect(page.results.at(-1)!.rows).toBe(5);
    // Another query's history is untouched.
    expect((await listQueryRuns(store.database.db, store.orgId, other.id, 1, 10)).count).toBe(1);
  });

  it("sweeps ad hoc runs older than a week", async () => {
    const db = store.database.db;
    await recordQueryRun(db, run(null, Date.now() - 8 * 24 * 3600_000));
    await recordQueryRun(db, run(null));
    await sweepAdHocRuns(db);
    const left = await db
      .selectFrom("query_runs")
      .where("query_id", "is", null)
      .selectAll()
      .execute();
    expect(left).toHaveLength(1);
    expect(Date.parse(left[0]!.started_at)).toBeGreaterThan(Date.now() - 60_000);
  });
});
