import type { Kysely } from "kysely";
import type { DB } from "../store/schema";
import { ResultStorageError, objectChunkStore, type ChunkStore } from "./chunkStore";
import { databaseChunks } from "./databaseChunks";

/** One result moved: its id, chunks, and how many of the results to move are done. */
export interface MovedResult {
  resultId: number;
  chunks: number;
  location: string | null;
  done: number;
  total: number;
}

/** Results being written have a masked hash (resultStore.ts) and are left alone. */
const PENDING_PREFIX = "pending:";

/**
 * `sightline results move`: moves stored results' chunks from the metadata database to object
 * storage (or back, `toDatabase`), one result at a time. A result is copied whole, then its row
 * points at the copy and the old chunks are deleted in one step, so readers always find all its
 * rows. Resumable: a moved result no longer matches, and one cut short is simply done again (into
 * the same objects, named after the result).
 */
export async function moveResults(
  db: Kysely<DB>,
  {
    toDatabase = false,
    onMoved,
  }: { toDatabase?: boolean; onMoved?: (moved: MovedResult) => void } = {},
): Promise<{ moved: number }> {
  const objects = objectChunkStore(db);
  if (!objects) {
    throw new ResultStorageError(
      "Object storage is not configured: set SIGHTLINE_RESULTS_URL (and AWS_* settings) first.",
    );
  }
  const pending = await db
    .selectFrom("query_results")
    .select(["id", "chunk_count", "chunk_location"])
    .where("chunk_location", toDatabase ? "is not" : "is", null)
    .where("chunk_count", ">", 0)
    .where("query_hash", "not like", `${PENDING_PREFIX}%`)
    .orderBy("id")
    .execute();
  let moved = 0;
  for (const row of pending) {
    const place = { resultId: row.id, location: row.chunk_location };
    const chunkCount = Number(row.chunk_count);
    const location = toDatabase
      ? await moveToDatabase(db, objects, place, chunkCount)
      : await moveToObjects(db, objects, row.id, chunkCount);
    moved += 1;
    onMoved?.({
      resultId: row.id,
      chunks: chunkCount,
      location,
      done: moved,
      total: pending.length,
    });
  }
  return { moved };
}

async function moveToObjects(
  db: Kysely<DB>,
  objects: ChunkStore,
  resultId: number,
  chunkCount: number,
): Promise<string> {
  const location = objects.newLocation(`moved-${resultId}`)!;
  const target = { resultId, location };
  try {
    let seq = 0;
    const source = { resultId, location: null };
    for await (const chunk of databaseChunks.read(db, source, chunkCount, Infinity)) {
      await objects.put(db, target, {
        seq,
        rowCount: chunk.rowCount,
        data: Buffer.from(chunk.data),
      });
      seq += 1;
    }
    const switched = await db.transaction().execute(async (tx) => {
      const update = await tx
        .updateTable("query_results")
        .set({ chunk_location: location })
        .where("id", "=", resultId)
        .where("chunk_location", "is", null)
        .executeTakeFirst();
      if (Number(update.numUpdatedRows) === 0) return false;
      await databaseChunks.remove(tx, [{ resultId, location: null }]);
      return true;
    });
    // Deleted (or moved by someone else) meanwhile: the copy is not needed.
    if (!switched) await objects.remove(db, [target]);
  } catch (error) {
    await objects.remove(db, [target]).catch(() => undefined);
    throw error;
  }
  return location;
}

async function moveToDatabase(
  db: Kysely<DB>,
  objects: ChunkStore,
  place: { resultId: number; location: string | null },
  chunkCount: number,
): Promise<null> {
  const { resultId } = place;
  // Chunk rows of an earlier move that was cut short.
  await databaseChunks.remove(db, [{ resultId, location: null }]);
  let seq = 0;
  for await (const chunk of objects.read(db, place, chunkCount, Infinity)) {
    const data = Buffer.from(chunk.data);
    await databaseChunks.put(
      db,
      { resultId, location: null },
      { seq, rowCount: chunk.rowCount, data },
    );
    seq += 1;
  }
  await db
    .updateTable("query_results")
    .set({ chunk_location: null })
    .where("id", "=", resultId)
    .execute();
  await objects.remove(db, [place]);
  return null;
}
