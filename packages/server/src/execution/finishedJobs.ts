import type { Kysely } from "kysely";
import type { DB } from "../store/schema";
import { parseJson } from "../store/values";
import { writeState } from "./serverState";
import { JOB_TTL_MS, type JobData, type JobDetails, type JobOwner } from "./types";

/**
 * A finished job's outcome kept in the metadata store beside its result, so a poll still answers
 * "done" with the result id when the queue has lost the job (Redis restarted without persistence,
 * or flushed) although the result was stored. Kept as long as the queue keeps finished jobs.
 */
interface FinishedJob extends JobOwner {
  resultId: number;
}

const KEY_PREFIX = "job:";
/** Old records are swept at most this often per process. */
const SWEEP_EVERY_MS = 3600 * 1000;

/** Stores the outcome; called inside the transaction that stores the result. */
export async function recordFinishedJob(
  tx: Kysely<DB>,
  jobId: string,
  data: JobData,
  resultId: number,
): Promise<void> {
  const record: FinishedJob = {
    resultId,
    orgId: data.orgId,
    userId: data.userId,
    queryId: data.queryId,
    dataSourceId: data.dataSourceId,
    queryHash: data.queryHash,
    apiKey: data.principal?.apiKey?.key ?? null,
  };
  await writeState(tx, KEY_PREFIX + jobId, record);
}

/** The job as done with its result, if its outcome was recorded and has not expired. */
export async function finishedJob(db: Kysely<DB>, jobId: string): Promise<JobDetails | null> {
  const row = await db
    .selectFrom("server_state")
    .select(["value", "updated_at"])
    .where("key", "=", KEY_PREFIX + jobId)
    .executeTakeFirst();
  if (!row || Date.parse(row.updated_at) < Date.now() - JOB_TTL_MS) return null;
  const record = parseJson<FinishedJob | null>(row.value, null);
  if (!record || typeof record.resultId !== "number") return null;
  const { resultId, ...owner } = record;
  return { id: jobId, status: 3, error: "", query_result_id: resultId, updated_at: 0, ...owner };
}

let lastSweep = 0;

/** Deletes expired records; cheap to call after every job (it works at most once an hour). */
export async function sweepFinishedJobs(db: Kysely<DB>): Promise<void> {
  if (Date.now() - lastSweep < SWEEP_EVERY_MS) return;
  lastSweep = Date.now();
  await db
    .deleteFrom("server_state")
    .where("key", "like", `${KEY_PREFIX}%`)
    .where("updated_at", "<", new Date(Date.now() - JOB_TTL_MS).toISOString())
    .execute();
}
