import type { Kysely } from "kysely";
import type { DB } from "../store/schema";
import { findCachedResult } from "../results/cache";
import { getRunner } from "../runners/registry";
import type { RunPrincipal } from "../runners/types";
import { queryHash } from "./hash";
import { JobRefusalError } from "./pipeline";
import { resolvePrincipal } from "./principal";
import { principalResults } from "./readableResults";
import { finishedJob } from "./finishedJobs";
import {
  QueueUnavailableError,
  jobJson,
  type JobState,
  type ExecuteOutcome,
  type ExecuteRequest,
  type ExecutionService,
  type JobDetails,
  type QueueBackend,
} from "./types";

export interface ExecutionServiceOptions {
  db: Kysely<DB>;
  backend: QueueBackend;
  /** How long execute() waits for a fast query before answering with a job (default 1 s). */
  waitMs?: number;
}

/** Cache lookup, de-duplicated enqueueing and a short wait, over either queue backend. */
export function createExecutionService(options: ExecutionServiceOptions): ExecutionService & {
  backend: QueueBackend;
} {
  const { db, backend } = options;
  const waitMs = options.waitMs ?? 1000;
  return {
    backend,

    async execute(req: ExecuteRequest): Promise<ExecuteOutcome> {
      const hash = queryHash(req.queryText);
      const source =
        req.dataSource ??
        (await db
          .selectFrom("data_sources")
          .select(["type", "queue_name", "scheduled_queue_name"])
          .where("org_id", "=", req.orgId)
          .where("id", "=", req.dataSourceId)
          .executeTakeFirst());
      if (!source) throw new Error(`Data source ${req.dataSourceId} not found.`);
      // A runner whose answer depends on the caller is asked before a cached result or a shared
      // job is handed out: caches never serve a result to someone who may not see it.
      const runner = getRunner(source.type);
      let principal: RunPrincipal | null | undefined;
      if (runner?.authorize) {
        principal = req.principal !== undefined ? req.principal : await resolvePrincipal(db, req);
        const problem = await runner.authorize(req.queryText, principalResults(db, principal));
        if (problem) throw new JobRefusalError(403, problem);
      }
      const cached = await findCachedResult(db, {
        orgId: req.orgId,
        dataSourceId: req.dataSourceId,
        queryHash: hash,
        maxAge: req.maxAge,
      });
      if (cached) return { kind: "result", resultId: cached.id };
      let state = await backend.enqueue({
        orgId: req.orgId,
        dataSourceId: req.dataSourceId,
        queryText: req.queryText,
        queryHash: hash,
        queryId: req.queryId,
        userId: req.userId,
        scheduled: req.scheduled,
        queueName: (req.scheduled ? source.scheduled_queue_name : source.queue_name) || "queries",
        ...(principal !== undefined ? { principal } : {}),
        ...(req.userEmail !== undefined ? { userEmail: req.userEmail } : {}),
      });
      if (waitMs > 0 && !req.noWait) state = (await backend.waitFor(state.id, waitMs)) ?? state;
      if (state.status === 3 && state.resultId !== null) {
        return { kind: "result", resultId: state.resultId, job: jobJson(state) };
      }
      return { kind: "job", job: jobJson(state) };
    },

    async getJob(jobId: string): Promise<JobDetails | null> {
      let state: JobState | null;
      try {
        state = await backend.get(jobId);
      } catch (error) {
        // A finished job still answers while the queue is out of reach.
        if (error instanceof QueueUnavailableError) {
          const finished = await finishedJob(db, jobId);
          if (finished) return finished;
        }
        throw error;
      }
      // The queue lost it (Redis restarted or was flushed): its stored outcome answers.
      if (!state) return finishedJob(db, jobId);
      return {
        ...jobJson(state),
        orgId: state.data.orgId,
        userId: state.data.userId,
        queryId: state.data.queryId,
        dataSourceId: state.data.dataSourceId,
        queryHash: state.data.queryHash,
        apiKey: state.data.principal?.apiKey?.key ?? null,
      };
    },

    cancel: (jobId) => backend.cancel(jobId),
    status: () => backend.status(),
    close: () => backend.close(),
  };
}
