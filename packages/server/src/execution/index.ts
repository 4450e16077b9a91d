// The execution engine: one queue interface, in-process and BullMQ backends, worker, scheduler.
import type { Kysely } from "kysely";
import type { Config } from "../config";
import type { DB } from "../store/schema";
import { MemoryQueue } from "./memoryQueue";
import type { QueueBackend } from "./types";

export * from "./types";
export { queryHash } from "./hash";
export { createExecutionService } from "./service";
export { jobProcessor, annotate, forbiddenPaths } from "./runJob";
export { MemoryQueue } from "./memoryQueue";
export { Scheduler, localLeader } from "./scheduler";
export * from "./pipeline";
export { principalOf, resolvePrincipal } from "./principal";

/** The queue names data sources use, for BullMQ workers and the status pages. */
export async function listQueueNames(db: Kysely<DB>): Promise<string[]> {
  const rows = await db
    .selectFrom("data_sources")
    .select(["queue_name", "scheduled_queue_name"])
    .execute();
  return [...new Set(rows.flatMap((r) => [r.queue_name, r.scheduled_queue_name]))].filter(Boolean);
}

/**
 * In-process when no Redis is configured (embedded), else BullMQ (scaled). BullMQ and its Redis
 * client are loaded only then: the embedded server does without their ~10 MB.
 */
export async function createQueueBackend(
  config: Pick<Config, "redisUrl" | "redisPrefix" | "workerLockSeconds" | "fairness">,
  db: Kysely<DB>,
  options: { prefix?: string; onError?: (error: Error) => void } = {},
): Promise<QueueBackend> {
  if (!config.redisUrl) return new MemoryQueue(config.fairness);
  const { BullmqQueue } = await import("./bullmqQueue");
  return new BullmqQueue({
    redisUrl: config.redisUrl,
    prefix: options.prefix ?? config.redisPrefix,
    listQueueNames: () => listQueueNames(db),
    lockDurationMs: config.workerLockSeconds * 1000,
    fairness: config.fairness,
    onError: options.onError,
  });
}
