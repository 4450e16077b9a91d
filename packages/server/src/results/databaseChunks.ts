import type { Kysely } from "kysely";
import type { DB } from "../store/schema";
import type { ChunkPlace, ChunkStore, StoredChunk } from "./chunkStore";

/** Chunks as rows of the metadata database's query_result_chunks, keyed by the result's id. */
export const databaseChunks: ChunkStore = {
  newLocation: () => null,

  async put(db: Kysely<DB>, place: ChunkPlace, chunk: StoredChunk) {
    await db
      .insertInto("query_result_chunks")
      .values({
        result_id: place.resultId,
        seq: chunk.seq,
        row_count: chunk.rowCount,
        data: chunk.data,
      })
      .execute();
  },

  writer(db: Kysely<DB>, place: ChunkPlace) {
    return {
      put: (chunk: StoredChunk) => databaseChunks.put(db, place, chunk),
      finish: async () => undefined,
      abort: async () => undefined,
    };
  },

  async *read(db: Kysely<DB>, place: ChunkPlace, chunkCount: number, maxRows: number) {
    let read = 0;
    for (let seq = 0; seq < chunkCount && read < maxRows; seq += 1) {
      const chunk = await db
        .selectFrom("query_result_chunks")
        .select(["row_count", "data"])
        .where("result_id", "=", place.resultId)
        .where("seq", "=", seq)
        .executeTakeFirst();
      if (!chunk) break;
      const rowCount = Number(chunk.row_count);
      read += rowCount;
      yield { rowCount, data: chunk.data };
    }
  },

  async remove(db: Kysely<DB>, places: ChunkPlace[]) {
    if (places.length === 0) return;
    const ids = places.map((p) => p.resultId);
    await db.deleteFrom("query_result_chunks").where("result_id", "in", ids).execute();
  },
};
