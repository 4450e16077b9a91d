// The scheduled queries the scheduler refreshes and schedule health counts: every query with a
// schedule that is not archived, with its data source (whose `paused` both read) and its latest
// result (whose `retrieved_at` says when it last ran). Each reader selects the fields it needs.
import type { Kysely } from "kysely";
import type { DB } from "./schema";

/** The scheduled, unarchived queries joined to their data source and latest result; select on it. */
export function selectScheduledQueries(db: Kysely<DB>) {
  return db
    .selectFrom("queries")
    .innerJoin("data_sources", "data_sources.id", "queries.data_source_id")
    .leftJoin("query_results", "query_results.id", "queries.latest_query_data_id")
    .where("queries.schedule", "is not", null)
    .where("queries.is_archived", "=", false);
}
