import { setObjectChunkStore } from "./chunkStore";
import type { ResultsStorageConfig } from "./objectChunks";

/**
 * Keeps new results of this metadata store in object storage (config null: in the metadata
 * database). Call once after opening the store, in every process that writes or reads results.
 * The S3 client is loaded only when object storage is configured (it takes ~150 ms to load).
 */
export async function useResultsStorage(
  db: object,
  config: ResultsStorageConfig | null,
): Promise<void> {
  if (!config) return setObjectChunkStore(db, null);
  const { ObjectChunkStore } = await import("./objectChunks");
  setObjectChunkStore(db, new ObjectChunkStore(config));
}
