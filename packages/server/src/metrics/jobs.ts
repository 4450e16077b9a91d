import type { Kysely } from "kysely";
import type { DB } from "../store/schema";
import {
  CANCELLED_MESSAGE,
  TIMEOUT_MESSAGE,
  type JobData,
  type JobProcessor,
} from "../execution/types";
import { recordJob, type JobEndState } from "./registry";

/** Data source types by id: a type never changes, so one look-up per data source suffices. */
const MAX_CACHED_TYPES = 10_000;

function endState(error: unknown, signal: AbortSignal): JobEndState {
  const message = error instanceof Error ? error.message : "";
  if (signal.aborted || message === CANCELLED_MESSAGE) return "cancelled";
  if (message === TIMEOUT_MESSAGE) return "timed_out";
  return "failed";
}

/**
 * The worker's processor, counted: each job's final state and run time, by its data source's type.
 * The type is looked up after the job ended, off the job's path, so metrics never slow or fail a job.
 */
export function measuredJobs(processor: JobProcessor, db: Kysely<DB>): JobProcessor {
  const types = new Map<number, string>();

  async function typeOf(data: JobData): Promise<string> {
    const known = types.get(data.dataSourceId);
    if (known) return known;
    const row = await db
      .selectFrom("data_sources")
      .select("type")
      .where("id", "=", data.dataSourceId)
      .executeTakeFirst();
    if (!row) return "unknown";
    if (types.size >= MAX_CACHED_TYPES) types.clear();
    types.set(data.dataSourceId, row.type);
    return row.type;
  }

  return async (data, jobId, signal) => {
    const started = performance.now();
    let state: JobEndState = "finished";
    try {
      return await processor(data, jobId, signal);
    } catch (error) {
      state = endState(error, signal);
      throw error;
    } finally {
      const seconds = (performance.now() - started) / 1000;
      void typeOf(data)
        .catch(() => "unknown")
        .then((type) => recordJob(state, type, seconds));
    }
  };
}
