import { createHash, randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { RunContext } from "./types";

/**
 * Files named by URL in query text (the CSV and Excel runners): fetched by the server through the
 * guarded outbound client (SECURITY.md rule 2: the address guard checks every redirect too), with
 * a size limit and the run's signal, and cached on disk by URL. A cached copy is revalidated with
 * a conditional GET (If-None-Match / If-Modified-Since): a 304 reuses it without a download.
 */

/** What the cache keeps beside a file: where it came from and its validators. */
interface CachedMeta {
  url: string;
  etag?: string;
  lastModified?: string;
  contentType?: string;
}

export interface FetchedFile {
  /** The cached copy on disk. */
  path: string;
  /** The cache key (also the prefix of files derived from this one). */
  key: string;
  contentType: string;
  /** True when the server answered 304 Not Modified and the cached copy was used. */
  revalidated: boolean;
}

/** The cache folder: the run context's (in Sightline's data folder), else one in the temp folder. */
export function fileCacheFolder(ctx: Pick<RunContext, "cacheDir">): string {
  return ctx.cacheDir ?? path.join(os.tmpdir(), "sightline-url-files");
}

function header(headers: Record<string, string | string[] | undefined>, name: string) {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

async function readMeta(file: string): Promise<CachedMeta | null> {
  try {
    return JSON.parse(await readFile(file, "utf8")) as CachedMeta;
  } catch {
    return null;
  }
}

/** Writes atomically: concurrent runs of the same URL never read half a file. */
async function writeAtomically(file: string, data: string | Buffer): Promise<void> {
  const temp = `${file}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    await writeFile(temp, data);
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

export interface FetchOptions {
  maxBytes: number;
  timeoutMs: number;
  signal: AbortSignal;
  headers?: Record<string, string>;
}

/** Fetches `url` into the cache (or revalidates the cached copy) and returns where it lies. */
export async function fetchFile(
  url: string,
  ctx: Pick<RunContext, "outbound" | "cacheDir">,
  options: FetchOptions,
): Promise<FetchedFile> {
  const folder = fileCacheFolder(ctx);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const key = createHash("sha256").update(url).digest("hex").slice(0, 32);
  const dataPath = path.join(folder, `${key}.data`);
  const metaPath = path.join(folder, `${key}.json`);
  const cached = await readMeta(metaPath);
  const headers: Record<string, string> = { accept: "*/*", ...options.headers };
  if (cached?.url === url) {
    if (cached.etag) headers["if-none-match"] = cached.etag;
    if (cached.lastModified) headers["if-modified-since"] = cached.lastModified;
  }
  const response = await ctx.outbound.request(url, {
    headers,
    signal: options.signal,
    timeoutMs: options.timeoutMs,
    maxResponseBytes: options.maxBytes,
  });
  if (response.status === 304 && cached?.url === url) {
    const exists = await stat(dataPath).then(
      () => true,
      () => false,
    );
    if (exists) {
      // The copy was used now: it stays in the cache for another KEEP_UNUSED_MS.
      const now = new Date();
      await utimes(metaPath, now, now).catch(() => undefined);
      return { path: dataPath, key, contentType: cached.contentType ?? "", revalidated: true };
    }
  }
  if (response.status < 200 || response.status >= 300) {
    throw new Error(
      `The file's server answered HTTP ${response.status} for ${shownUrl(url)}: it could not be fetched.`,
    );
  }
  const meta: CachedMeta = {
    url,
    etag: header(response.headers, "etag"),
    lastModified: header(response.headers, "last-modified"),
    contentType: header(response.headers, "content-type"),
  };
  await writeAtomically(dataPath, response.body);
  await writeAtomically(metaPath, JSON.stringify(meta));
  pruneCacheNowAndThen(folder);
  return { path: dataPath, key, contentType: meta.contentType ?? "", revalidated: false };
}

/** Cached files unused for this long are removed (checked at most once an hour per process). */
const KEEP_UNUSED_MS = 7 * 24 * 3600_000;
const PRUNE_EVERY_MS = 3600_000;
let lastPrune = 0;

/** The folder of the CSV copies of uploaded workbooks' sheets, in the cache folder. */
export function uploadedSheetsFolder(ctx: Pick<RunContext, "cacheDir">): string {
  return path.join(fileCacheFolder(ctx), "uploaded-sheets");
}

/** Starts a prune of the cache folder when none ran in this process for an hour. */
export function pruneCacheNowAndThen(folder: string): void {
  if (Date.now() - lastPrune < PRUNE_EVERY_MS) return;
  lastPrune = Date.now();
  void pruneCache(folder);
}

/**
 * Removes the cache entries (file, validators, sheets read from it) not used for a week, and the
 * copies of uploaded workbooks' sheets not used for a week (a deleted upload's among them).
 */
export async function pruneCache(folder: string): Promise<void> {
  try {
    const names = await readdir(folder);
    for (const name of names.filter((n) => n.endsWith(".json"))) {
      const key = name.slice(0, -".json".length);
      const { mtimeMs } = await stat(path.join(folder, name));
      if (Date.now() - mtimeMs < KEEP_UNUSED_MS) continue;
      for (const other of names.filter((n) => n.startsWith(`${key}.`))) {
        await rm(path.join(folder, other), { force: true });
      }
    }
    const sheets = uploadedSheetsFolder({ cacheDir: folder });
    for (const name of await readdir(sheets).catch(() => [])) {
      const copy = path.join(sheets, name);
      const { mtimeMs } = await stat(copy);
      if (Date.now() - mtimeMs >= KEEP_UNUSED_MS) await rm(copy, { force: true });
    }
  } catch {
    // Pruning is best effort: a run never fails for it.
  }
}

/** The URL without user info or query string (they may hold credentials or tokens). */
export function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return "the URL";
  }
}
