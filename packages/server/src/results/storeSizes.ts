import { sql, type Kysely } from "kysely";
import type { DB } from "../store/schema";
import { objectChunkStore } from "./chunkStore";

/** The stored results kept in one place (System Status, /status.json). */
export interface ResultStoreSize {
  /** Results whose rows are kept there. */
  count: number;
  /** Their size as Redash JSON (what a download sends), bytes. */
  size: number;
  /** Bytes their compressed chunks take there; null when the store cannot say cheaply. */
  stored_size: number | null;
}

export interface ResultStoreSizes {
  metadata_database: ResultStoreSize;
  object_storage: ResultStoreSize;
  /** Where new results' rows go. */
  new_results_in: "metadata_database" | "object_storage";
}

/**
 * The results' size per store: rows in the metadata database (query_result_chunks) or in object
 * storage (SIGHTLINE_RESULTS_URL, `chunk_location` set). The object store is not listed (a
 * bucket may hold millions of objects), so its stored size is null.
 */
export async function resultStoreSizes(db: Kysely<DB>): Promise<ResultStoreSizes> {
  const rows = await db
    .selectFrom("query_results")
    .select((eb) => [
      sql<number>`case when chunk_location is null then 0 else 1 end`.as("in_objects"),
      eb.fn.countAll<number>().as("count"),
      eb.fn.sum<number>("byte_size").as("size"),
    ])
    .groupBy(sql`case when chunk_location is null then 0 else 1 end`)
    .execute();
  const chunks = await db
    .selectFrom("query_result_chunks")
    .select(sql<number>`sum(length(data))`.as("stored"))
    .executeTakeFirst();
  const of = (inObjects: number) => rows.find((row) => Number(row.in_objects) === inObjects);
  const database = of(0);
  const objects = of(1);
  return {
    metadata_database: {
      count: Number(database?.count ?? 0),
      size: Number(database?.size ?? 0),
      stored_size: Number(chunks?.stored ?? 0),
    },
    object_storage: {
      count: Number(objects?.count ?? 0),
      size: Number(objects?.size ?? 0),
      stored_size: null,
    },
    new_results_in: objectChunkStore(db) ? "object_storage" : "metadata_database",
  };
}
