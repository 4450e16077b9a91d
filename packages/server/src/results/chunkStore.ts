import type { Kysely } from "kysely";
import type { DB } from "../store/schema";

/**
 * Where a result's compressed chunks (chunks.ts) are kept: the metadata database's
 * query_result_chunks table (databaseChunks.ts) or, when SIGHTLINE_RESULTS_URL is set, an
 * S3-compatible object store (objectChunks.ts). The result's row names the place in
 * `chunk_location` (null: the metadata database), so results of both kinds are read side by side.
 */

export interface StoredChunk {
  seq: number;
  rowCount: number;
  data: Buffer;
}

/** One result's chunks: its row id and its `chunk_location`. */
export interface ChunkPlace {
  resultId: number;
  location: string | null;
}

export interface ChunkStore {
  /**
   * The place new chunks get before the result's row exists (null: keyed by the row's id); a
   * `name` makes it the same on every call (a move that is redone overwrites its own objects).
   */
  newLocation(name?: string): string | null;
  /** Stores one chunk on its own (in object storage: an object of its own). */
  put(db: Kysely<DB>, place: ChunkPlace, chunk: StoredChunk): Promise<void>;
  /**
   * Stores a result's chunks, given in order; object storage groups them into bigger objects and
   * uploads a few at once. Every chunk is stored once `finish()` has resolved.
   */
  writer(db: Kysely<DB>, place: ChunkPlace): ChunkWriter;
  /** The chunks in order, until `chunkCount` chunks or `maxRows` rows have been read. */
  read(
    db: Kysely<DB>,
    place: ChunkPlace,
    chunkCount: number,
    maxRows: number,
  ): AsyncGenerator<{ rowCount: number; data: Buffer | Uint8Array }>;
  /** Deletes the chunks of these results (their rows are the caller's). */
  remove(db: Kysely<DB>, places: ChunkPlace[]): Promise<void>;
}

export interface ChunkWriter {
  /** Takes the next chunk; waits while the store has as many uploads in flight as it allows. */
  put(chunk: StoredChunk): Promise<void>;
  /** Stores the chunks still held and waits for every upload. */
  finish(): Promise<void>;
  /** After a failure: waits for the uploads in flight to end (they may fail), starts none. */
  abort(): Promise<void>;
}

/** A result's chunks could not be written, read or deleted in object storage. */
export class ResultStorageError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ResultStorageError";
  }
}

/** The object store of each metadata store (one Kysely instance), when one is configured. */
const objectStores = new WeakMap<object, ChunkStore>();

export function setObjectChunkStore(db: object, store: ChunkStore | null): void {
  if (store) objectStores.set(db, store);
  else objectStores.delete(db);
}

export function objectChunkStore(db: object): ChunkStore | null {
  return objectStores.get(db) ?? null;
}
