import type { ResultMeta } from "./resultMeta";

/**
 * Small results this process wrote in the last minute, kept in memory with their row text.
 *
 * A result is read right after it is written: the execution routes answer with it inline, and the
 * web app or a script then fetches it by id. Stored results never change; they are deleted when
 * unused for days (results/cache.ts) or with their data source, and both forget them here. So
 * serving a fresh one from memory cannot differ from reading it back; it saves the metadata and
 * chunk reads and the inflating. Each metadata store (one Kysely instance) has its own entries;
 * in a scaled deployment they live in the worker that wrote them, where only the Query Results
 * runner reads results.
 */

interface RecentResult {
  meta: ResultMeta;
  /** The single chunk's row text (row objects joined by commas, see chunks.ts). */
  text: Buffer;
  expiresAt: number;
}

/** Only one-chunk results this small are kept; a few dozen of them at most. */
export const RECENT_RESULT_MAX_BYTES = 64 * 1024;
const MAX_ENTRIES = 64;
const KEEP_MS = 60_000;

const byStore = new WeakMap<object, Map<number, RecentResult>>();

export function rememberResult(store: object, meta: ResultMeta, text: Buffer): void {
  if (meta.chunkCount !== 1 || text.length > RECENT_RESULT_MAX_BYTES) return;
  let entries = byStore.get(store);
  if (!entries) {
    entries = new Map();
    byStore.set(store, entries);
  }
  entries.set(meta.id, { meta, text, expiresAt: Date.now() + KEEP_MS });
  // Insertion order: the oldest entry goes first.
  if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
}

/** The remembered result `id` of organisation `orgId`, unless it has expired. */
export function recentResult(store: object, orgId: number, id: number): RecentResult | null {
  const entries = byStore.get(store);
  const entry = entries?.get(id);
  if (!entry) return null;
  if (entry.expiresAt < Date.now()) {
    entries!.delete(id);
    return null;
  }
  return entry.meta.orgId === orgId ? entry : null;
}

export function forgetResults(store: object, ids: number[]): void {
  const entries = byStore.get(store);
  if (entries) for (const id of ids) entries.delete(id);
}

export function forgetDataSourceResults(store: object, dataSourceId: number): void {
  const entries = byStore.get(store);
  if (!entries) return;
  for (const [id, entry] of entries) {
    if (entry.meta.dataSourceId === dataSourceId) entries.delete(id);
  }
}
