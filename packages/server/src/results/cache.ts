import type { Kysely } from "kysely";
import type { DB } from "../store/schema";
import { deleteResults, loadResultMeta, metaFromRow, type ResultMeta } from "./resultStore";

export interface CacheLookup {
  orgId: number;
  dataSourceId: number;
  queryHash: string;
  /** Redash max_age: 0 never; -1 any age; N at most N seconds old. */
  maxAge: number;
  now?: Date;
}

/** The newest stored result for the same final text and data source that max_age allows (§4.7). */
export async function findCachedResult(
  db: Kysely<DB>,
  lookup: CacheLookup,
): Promise<ResultMeta | null> {
  if (lookup.maxAge === 0) return null;
  let q = db
    .selectFrom("query_results")
    .selectAll()
    .where("org_id", "=", lookup.orgId)
    .where("data_source_id", "=", lookup.dataSourceId)
    .where("query_hash", "=", lookup.queryHash);
  if (lookup.maxAge > 0) {
    const since = new Date((lookup.now ?? new Date()).getTime() - lookup.maxAge * 1000);
    q = q.where("retrieved_at", ">=", since.toISOString());
  }
  const row = await q.orderBy("retrieved_at", "desc").orderBy("id", "desc").executeTakeFirst();
  return row ? metaFromRow(row) : null;
}

/**
 * After a successful run: every non-archived query of the org with the same hash and data
 * source points at the new result (their updated_at untouched), and the job's own query has
 * its schedule failures reset (§5.4).
 */
export async function linkLatestResult(
  db: Kysely<DB>,
  result: Pick<ResultMeta, "id" | "orgId" | "dataSourceId" | "queryHash">,
  jobQueryId: number | null,
): Promise<void> {
  await db
    .updateTable("queries")
    .set({ latest_query_data_id: result.id })
    .where("org_id", "=", result.orgId)
    .where("query_hash", "=", result.queryHash)
    .where("data_source_id", "=", result.dataSourceId)
    .where("is_archived", "=", false)
    .execute();
  if (jobQueryId !== null) {
    await db
      .updateTable("queries")
      .set({ schedule_failures: 0 })
      .where("id", "=", jobQueryId)
      .where("org_id", "=", result.orgId)
      .execute();
  }
}

/** A scheduled run failed: back off the next run (§7 step 3). */
export async function countScheduleFailure(
  db: Kysely<DB>,
  orgId: number,
  queryId: number,
): Promise<void> {
  await db
    .updateTable("queries")
    .set((eb) => ({ schedule_failures: eb("schedule_failures", "+", 1) }))
    .where("id", "=", queryId)
    .where("org_id", "=", orgId)
    .execute();
}

export const UNUSED_RESULT_AGE_DAYS = 7;

function unusedResults(db: Kysely<DB>, olderThan: Date) {
  return db
    .selectFrom("query_results")
    .where("retrieved_at", "<", olderThan.toISOString())
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("queries")
            .select("queries.id")
            .whereRef("queries.latest_query_data_id", "=", "query_results.id"),
        ),
      ),
    );
}

/** Deletes up to `limit` results that no query points at and that are older than the age. */
export async function purgeUnusedResults(
  db: Kysely<DB>,
  { limit = 100, ageDays = UNUSED_RESULT_AGE_DAYS, now = new Date() } = {},
): Promise<number> {
  const olderThan = new Date(now.getTime() - ageDays * 86_400_000);
  const rows = await unusedResults(db, olderThan)
    .select("query_results.id")
    .orderBy("query_results.id")
    .limit(limit)
    .execute();
  await deleteResults(
    db,
    rows.map((r) => r.id),
  );
  return rows.length;
}

export async function countUnusedResults(db: Kysely<DB>, now = new Date()): Promise<number> {
  const olderThan = new Date(now.getTime() - UNUSED_RESULT_AGE_DAYS * 86_400_000);
  const row = await unusedResults(db, olderThan)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export { loadResultMeta };
