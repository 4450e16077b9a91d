import type { Kysely } from "kysely";

/**
 * Where a stored result's chunks are: null in the metadata database's query_result_chunks, else
 * the object storage place (`s3://bucket/prefix/<uuid>`) holding one object per chunk
 * (results/objectChunks.ts). Self-contained on purpose: it must keep meaning the same thing as
 * the application changes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("query_results").addColumn("chunk_location", "text").execute();
}
