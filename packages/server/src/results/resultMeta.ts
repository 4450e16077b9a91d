// What a stored result is apart from its rows: the store (resultStore.ts) and its memory of fresh
// results (recentResults.ts) both speak of it, so it lives in neither.
import type { ResultColumn } from "../runners/types";

/** A stored result's metadata row; the rows themselves stay in the chunks. */
export interface ResultMeta {
  id: number;
  orgId: number;
  dataSourceId: number;
  queryHash: string;
  query: string;
  runtime: number;
  retrievedAt: string;
  columns: ResultColumn[];
  rowCount: number;
  byteSize: number;
  truncated: boolean;
  log: string[];
  chunkCount: number;
  /** Where the chunks are: null in the metadata database, else an object storage place. */
  chunkLocation: string | null;
}
