import type { AppContext } from "../context";
import { isPostgresUrl } from "../store/database";
import { createOutboundClient } from "../outbound/client";
import {
  forbiddenPaths as ownForbiddenPaths,
  runnerCacheDir,
  uploadsFolder,
} from "../runners/ownPaths";
import { getRunner, listRunners } from "../runners/registry";
import type { RunContext, Runner } from "../runners/types";

/** The installed data source types, sorted by display name. */
export function allRunners(): readonly Runner[] {
  return listRunners();
}

export function findRunner(type: string): Runner | null {
  return getRunner(type) ?? null;
}

/** Sightline's own files that no file-based data source may open (SECURITY.md rule 3). */
export function forbiddenPaths(ctx: AppContext): string[] {
  return ownForbiddenPaths(ctx.config);
}

/** Sightline's own PostgreSQL metadata database, which no data source may reach; null on SQLite. */
export function metadataDatabaseUrl(ctx: AppContext): string | null {
  return isPostgresUrl(ctx.config.databaseUrl) ? ctx.config.databaseUrl : null;
}

/** The context a runner gets for the short synchronous calls of the data source routes (test, schema). */
export function adminRunContext(
  ctx: AppContext,
  signal: AbortSignal,
  timeoutMs: number,
  dataSourceId: number | null = null,
): RunContext {
  return {
    signal,
    timeoutMs,
    fileDataDir: ctx.config.fileDataDir,
    forbiddenPaths: forbiddenPaths(ctx),
    metadataDatabaseUrl: metadataDatabaseUrl(ctx),
    queueRedisUrl: ctx.config.redisUrl,
    cacheDir: runnerCacheDir(ctx.config),
    uploadsDir: dataSourceId === null ? null : uploadsFolder(ctx.config, dataSourceId),
    outbound: createOutboundClient({
      allowedRanges: ctx.config.outboundAllowedRanges,
      timeoutMs,
    }),
  };
}

/**
 * How much longer a data source route waits than the time limit it gives the connector: the
 * connector stops at the limit with a message naming what it was reading, and that message, not
 * the route's plainer one, is what the user gets.
 */
export const CONNECTOR_GRACE_MS = 500;

/** Runs `work` with an abort signal that fires after `timeoutMs`; the timeout rejects with `message`. */
export async function withTimeout<T>(
  timeoutMs: number,
  message: string,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new Error(message));
    }, timeoutMs);
  });
  try {
    return await Promise.race([work(controller.signal), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
