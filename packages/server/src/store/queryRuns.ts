import type { Kysely } from "kysely";
import type { DB } from "./schema";
import { bool } from "./values";

/** How many runs are kept per query (older ones are deleted as new ones arrive). */
export const RUNS_KEPT_PER_QUERY = 200;

export type RunStatus = "success" | "failed" | "cancelled" | "timeout";

export interface NewQueryRun {
  orgId: number;
  queryId: number | null;
  dataSourceId: number;
  userId: number | null;
  scheduled: boolean;
  status: RunStatus;
  /** The message users see (never a secret, never the annotation comment). */
  error: string | null;
  rows: number | null;
  resultId: number | null;
  /** ms since epoch. */
  startedAt: number;
  /** Seconds. */
  runtime: number;
}

/** One execution as the API shows it. */
export interface QueryRunView {
  id: number;
  query_id: number | null;
  data_source_id: number | null;
  user_id: number | null;
  user: { id: number; name: string } | null;
  scheduled: boolean;
  status: RunStatus;
  error: string | null;
  rows: number | null;
  query_result_id: number | null;
  started_at: string;
  runtime: number;
}

/** Records a finished run; a query keeps only its last RUNS_KEPT_PER_QUERY runs. */
export async function recordQueryRun(db: Kysely<DB>, run: NewQueryRun): Promise<void> {
  await db
    .insertInto("query_runs")
    .values({
      org_id: run.orgId,
      query_id: run.queryId,
      data_source_id: run.dataSourceId,
      user_id: run.userId,
      scheduled: run.scheduled,
      status: run.status,
      error: run.error,
      rows: run.rows,
      result_id: run.resultId,
      started_at: new Date(run.startedAt).toISOString(),
      runtime: run.runtime,
    })
    .execute();
  if (run.queryId === null) return;
  const oldestKept = await db
    .selectFrom("query_runs")
    .select("id")
    .where("query_id", "=", run.queryId)
    .orderBy("id", "desc")
    .offset(RUNS_KEPT_PER_QUERY - 1)
    .limit(1)
    .executeTakeFirst();
  if (oldestKept) {
    await db
      .deleteFrom("query_runs")
      .where("query_id", "=", run.queryId)
      .where("id", "<", oldestKept.id)
      .execute();
  }
}

/** Ad hoc runs (no query) are kept for this long. */
const AD_HOC_KEEP_MS = 7 * 24 * 3600_000;

/** Deletes ad hoc runs older than a week (they have no per-query bound). */
export async function sweepAdHocRuns(db: Kysely<DB>, now = Date.now()): Promise<void> {
  await db
    .deleteFrom("query_runs")
    .where("query_id", "is", null)
    .where("started_at", "<", new Date(now - AD_HOC_KEEP_MS).toISOString())
    .execute();
}

/** A page of a query's runs, newest first. */
export async function listQueryRuns(
  db: Kysely<DB>,
  orgId: number,
  queryId: number,
  page: number,
  pageSize: number,
): Promise<{ count: number; results: QueryRunView[] }> {
  const base = db
    .selectFrom("query_runs")
    .where("query_runs.org_id", "=", orgId)
    .where("query_runs.query_id", "=", queryId);
  const counted = await base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirst();
  const rows = await base
    .leftJoin("users", "users.id", "query_runs.user_id")
    .selectAll("query_runs")
    .select(["users.name as user_name"])
    .orderBy("query_runs.id", "desc")
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
  return {
    count: Number(counted?.n ?? 0),
    results: rows.map((row) => ({
      id: row.id,
      query_id: row.query_id,
      data_source_id: row.data_source_id,
      user_id: row.user_id,
      user:
        row.user_id !== null && row.user_name !== null
          ? { id: row.user_id, name: row.user_name }
          : null,
      scheduled: bool(row.scheduled),
      status: row.status as RunStatus,
      error: row.error,
      rows: row.rows,
      query_result_id: row.result_id,
      started_at: row.started_at,
      runtime: Number(row.runtime),
    })),
  };
}

/** Of the given queries, those whose last scheduled run did not succeed (any org when null). */
export async function queriesWithFailedLastScheduledRun(
  db: Kysely<DB>,
  orgId: number | null,
  queryIds: number[],
): Promise<Set<number>> {
  const failing = new Set<number>();
  // In slices, so a long list stays under the databases' limits on bound parameters.
  for (let i = 0; i < queryIds.length; i += 500) {
    let select = db.selectFrom("query_runs as r").select(["r.query_id", "r.status"]);
    if (orgId !== null) select = select.where("r.org_id", "=", orgId);
    const rows = await select
      .where("r.query_id", "in", queryIds.slice(i, i + 500))
      .where("r.scheduled", "=", true)
      .where("r.id", "=", (eb) =>
        eb
          .selectFrom("query_runs as newer")
          .select((e) => e.fn.max("newer.id").as("m"))
          .whereRef("newer.query_id", "=", "r.query_id")
          .where("newer.scheduled", "=", true),
      )
      .execute();
    for (const row of rows) if (row.status !== "success") failing.add(row.query_id as number);
  }
  return failing;
}
