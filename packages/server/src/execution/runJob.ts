import type { Kysely } from "kysely";
import type { Config } from "../config";
import type { Keys } from "../auth/secretKey";
import { createOutboundClient } from "../outbound/client";
import { countScheduleFailure, linkLatestResult } from "../results/cache";
import type { ResultLimits } from "../results/limits";
import { writeResult, type ResultMeta } from "../results/resultStore";
import { forbiddenPaths, runnerCacheDir, uploadsFolder } from "../runners/ownPaths";
import { getRunner } from "../runners/registry";
import { QueryCancelledError, QueryTimeoutError } from "../runners/types";
import { queryTimeoutMs, readDataSourceOptions } from "../services/dataSourceOptions";
import { isPostgresUrl } from "../store/database";
import { recordQueryRun, type RunStatus } from "../store/queryRuns";
import type { DB } from "../store/schema";
import { annotationComment, withoutAnnotation } from "./annotation";
import { recordFinishedJob, sweepFinishedJobs } from "./finishedJobs";
import { resolvePrincipal } from "./principal";
import { principalResults } from "./readableResults";
import { CANCELLED_MESSAGE, TIMEOUT_MESSAGE, type JobData, type JobProcessor } from "./types";

export interface RunJobDeps {
  db: Kysely<DB>;
  config: Config;
  keys: Keys;
  limits: ResultLimits;
  /** Called after each stored result (alerts plug in here). */
  onResult?: (result: ResultMeta, job: JobData, jobId: string) => Promise<void>;
  /** Called after a scheduled run's failure is counted (failure e-mails plug in here). */
  onScheduleFailure?: (job: JobData, message: string) => Promise<void>;
}

export { forbiddenPaths };

/** Redash's annotation comment, so database logs show who ran what. */
export function annotate(data: JobData, jobId: string, username: string): string {
  return annotationComment(data, jobId, username) + data.queryText;
}

async function username(db: Kysely<DB>, data: JobData): Promise<string> {
  if (data.scheduled || data.userId === null) return data.scheduled ? "Scheduled" : "API";
  if (data.userEmail !== undefined) return data.userEmail;
  const user = await db
    .selectFrom("users")
    .select("email")
    .where("id", "=", data.userId)
    .executeTakeFirst();
  return user?.email ?? "unknown";
}

function runStatus(error: unknown, aborted: boolean): RunStatus {
  if (error instanceof QueryTimeoutError) return "timeout";
  if (aborted || error instanceof QueryCancelledError) return "cancelled";
  return "failed";
}

/** The run history row (store/queryRuns.ts); a failure to record never fails the job. */
async function record(
  db: Kysely<DB>,
  data: JobData,
  begun: number,
  outcome: {
    status: RunStatus;
    error: string | null;
    rows: number | null;
    resultId: number | null;
  },
): Promise<void> {
  await recordQueryRun(db, {
    orgId: data.orgId,
    queryId: data.queryId,
    dataSourceId: data.dataSourceId,
    userId: data.scheduled ? null : data.userId,
    scheduled: data.scheduled,
    startedAt: begun,
    runtime: (Date.now() - begun) / 1000,
    ...outcome,
  }).catch(() => undefined);
}

function userMessage(error: unknown): string {
  if (error instanceof QueryCancelledError) return CANCELLED_MESSAGE;
  if (error instanceof QueryTimeoutError) return TIMEOUT_MESSAGE;
  return error instanceof Error ? error.message : String(error);
}

/**
 * The worker's job: run the text on its data source, store the result, link it to the queries
 * with the same text, and account for scheduled failures (§5.4).
 */
export function jobProcessor(deps: RunJobDeps): JobProcessor {
  const outbound = createOutboundClient({ allowedRanges: deps.config.outboundAllowedRanges });
  return async (data, jobId, signal) => {
    // The comment put in front of the text; users never see it in an error.
    let comment = "";
    const begun = Date.now();
    try {
      const source = await deps.db
        .selectFrom("data_sources")
        .selectAll()
        .where("org_id", "=", data.orgId)
        .where("id", "=", data.dataSourceId)
        .executeTakeFirst();
      if (!source) throw new Error("The data source of this query no longer exists.");
      const runner = getRunner(source.type);
      if (!runner) throw new Error(`Unknown data source type "${source.type}".`);
      const options = readDataSourceOptions({ keys: deps.keys }, source);
      // HTTP-based runners take the text as a request description: no comment prefix.
      if (runner.syntax === "sql" && runner.type !== "json" && runner.annotateQuery !== false) {
        comment = annotationComment(data, jobId, await username(deps.db, data));
      }
      const text = comment + data.queryText;
      const startedAt = Date.now();
      // Only runners that judge the caller need a principal resolved for jobs without one.
      const principal =
        data.principal ?? (runner.authorize ? await resolvePrincipal(deps.db, data) : null);
      const run = await runner.run(options, text, {
        signal,
        timeoutMs: queryTimeoutMs(options, deps.config.queryTimeoutSeconds),
        fileDataDir: deps.config.fileDataDir,
        forbiddenPaths: forbiddenPaths(deps.config),
        metadataDatabaseUrl: isPostgresUrl(deps.config.databaseUrl)
          ? deps.config.databaseUrl
          : null,
        queueRedisUrl: deps.config.redisUrl,
        cacheDir: runnerCacheDir(deps.config),
        uploadsDir: uploadsFolder(deps.config, data.dataSourceId),
        outbound,
        results: principalResults(deps.db, principal ?? null),
      });
      const result = await writeResult(deps.db, {
        orgId: data.orgId,
        dataSourceId: data.dataSourceId,
        queryHash: data.queryHash,
        query: data.queryText,
        columns: run.columns,
        batches: run.batches,
        startedAt,
        limits: deps.limits,
        // Stored and linked together; a cancel that raced with the last rows still wins.
        beforeCommit: async (tx, stored) => {
          if (signal.aborted) throw new QueryCancelledError();
          await linkLatestResult(tx, stored, data.queryId);
          await recordFinishedJob(tx, jobId, data, stored.id);
        },
      });
      void sweepFinishedJobs(deps.db).catch(() => undefined);
      await record(deps.db, data, begun, {
        status: "success",
        error: null,
        rows: result.rowCount,
        resultId: result.id,
      });
      await deps.onResult?.(result, data, jobId).catch(() => undefined);
      return result.id;
    } catch (error) {
      const raw = signal.aborted ? CANCELLED_MESSAGE : userMessage(error);
      const message = comment ? withoutAnnotation(raw, comment) : raw;
      const status = runStatus(error, signal.aborted);
      await record(deps.db, data, begun, { status, error: message, rows: null, resultId: null });
      if (data.scheduled && data.queryId !== null) {
        await countScheduleFailure(deps.db, data.orgId, data.queryId).catch(() => undefined);
        await deps.onScheduleFailure?.(data, message).catch(() => undefined);
      }
      throw new Error(message, { cause: error });
    }
  };
}
