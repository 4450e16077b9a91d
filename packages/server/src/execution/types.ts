import type { RunPrincipal } from "../runners/types";
import type { DataSourceLoad } from "./fairness";

/** The execution engine's contract with the routes (see execution/index.ts). */

export interface ExecuteRequest {
  orgId: number;
  dataSourceId: number;
  /** The final text to run: parameters already rendered, auto-limit already applied. */
  queryText: string;
  /** Saved query, or null for ad-hoc text. */
  queryId: number | null;
  /** Null for scheduled runs / API keys. */
  userId: number | null;
  scheduled: boolean;
  /** Redash max_age: 0 = always run; -1 = any cached result; N = at most N seconds old. */
  maxAge: number;
  /** Answer with the job at once instead of waiting briefly for a fast result (scheduler). */
  noWait?: boolean;
  /** Who runs it; when absent it is resolved from userId/queryId as Redash does. */
  principal?: RunPrincipal | null;
  /** The running user's email for the annotation comment, when the caller has it at hand. */
  userEmail?: string;
  /** The data source's queue settings, when the caller has read the data source already. */
  dataSource?: ExecutionDataSource;
}

export interface ExecutionDataSource {
  type: string;
  queue_name: string;
  scheduled_queue_name: string;
}

export type JobStatus = 1 | 2 | 3 | 4 | 5;

export interface JobJson {
  id: string;
  status: JobStatus;
  error: string;
  query_result_id: number | null;
  /** Start time (naive UTC ISO) while processing, else 0. */
  updated_at: number | string;
}

/** A result (cached, or from a run that finished within the wait: then with its job), or a job. */
export type ExecuteOutcome =
  { kind: "result"; resultId: number; job?: JobJson } | { kind: "job"; job: JobJson };

/** What a job carries through the queue. */
export interface JobData {
  orgId: number;
  dataSourceId: number;
  queryText: string;
  queryHash: string;
  queryId: number | null;
  userId: number | null;
  scheduled: boolean;
  /** The data source's queue (ad-hoc) or scheduled queue. */
  queueName: string;
  /** Who runs it (runners whose answer depends on the caller check it). */
  principal?: RunPrincipal | null;
  /** The user's email for the annotation comment; looked up by userId when absent. */
  userEmail?: string;
}

/** A job as a backend reports it. */
export interface JobState {
  id: string;
  data: JobData;
  status: JobStatus;
  error: string;
  resultId: number | null;
  enqueuedAt: number;
  /** ms since epoch, while or after processing. */
  startedAt: number | null;
}

/** A job just queued: waiting since now. */
export function waitingJob(id: string, data: JobData): JobState {
  return {
    id,
    data,
    status: 1,
    error: "",
    resultId: null,
    enqueuedAt: Date.now(),
    startedAt: null,
  };
}

/** Whether a job still waits or runs. */
export const isLiveJob = (state: JobState) => state.status === 1 || state.status === 2;

/** Whose job it is: what the rule on seeing or cancelling it reads (policies/jobs.ts). */
export interface JobOwner {
  orgId: number;
  userId: number | null;
  queryId: number | null;
  dataSourceId: number;
  /** Hash of the job's text (lets a query API key poll a job shared with identical runs). */
  queryHash: string;
  /** The API key whose run queued the job, if any (a share key may poll the runs it started). */
  apiKey: string | null;
}

export type JobDetails = JobJson & JobOwner;

export interface ExecutionService {
  execute(req: ExecuteRequest): Promise<ExecuteOutcome>;
  getJob(jobId: string): Promise<JobDetails | null>;
  cancel(jobId: string): Promise<void>;
  /** Queues and workers as the admin pages show them. */
  status(): Promise<QueueStatus>;
  close(): Promise<void>;
}

/** Runs one job: returns the stored result id, or throws with a message for the user. */
export type JobProcessor = (data: JobData, jobId: string, signal: AbortSignal) => Promise<number>;

export interface QueueStatus {
  queues: { name: string; queued: number; started: JobState[] }[];
  workers: WorkerInfo[];
  /** Per data source with work: running and waiting jobs against its limit. */
  dataSources: DataSourceLoad[];
  /** Memory used by the queue's store (Redis), when there is one. */
  redisUsedMemory?: number;
}

export interface WorkerInfo {
  name: string;
  hostname: string;
  pid: number;
  queues: string[];
  state: "busy" | "idle";
  lastHeartbeat: string;
  birthDate: string;
  currentJob: string | null;
  successfulJobs: number;
  failedJobs: number;
  totalWorkingTime: number;
}

/** The queue is out of reach (e.g. Redis down): executions fail, the rest of the API keeps serving. */
export class QueueUnavailableError extends Error {
  constructor(reason: string) {
    super(`The query queue is unavailable: ${reason}`);
    this.name = "QueueUnavailableError";
  }
}

/** One queue interface, two backends: in-process and BullMQ. */
export interface QueueBackend {
  /** Enqueues, or returns the live job already running the same text on the same data source. */
  enqueue(data: JobData): Promise<JobState>;
  get(jobId: string): Promise<JobState | null>;
  cancel(jobId: string): Promise<void>;
  /** Resolves with the job once it is finished or failed, or with its state after `ms`. */
  waitFor(jobId: string, ms: number): Promise<JobState | null>;
  /** Starts taking jobs from the named queues (all queues when omitted). */
  startWorker(processor: JobProcessor, concurrency: number): Promise<void>;
  status(): Promise<QueueStatus>;
  close(): Promise<void>;
}

export const CANCELLED_MESSAGE = "Query cancelled by user.";
export const TIMEOUT_MESSAGE = "Query exceeded Sightline query execution time limit.";
export const WORKER_LOST_MESSAGE =
  "The worker running this query stopped before it finished (it crashed or was restarted). Run the query again.";
/** Ad-hoc job results are kept 12 h; failures 7 days (§5.4). */
export const JOB_TTL_MS = 12 * 3600 * 1000;
export const FAILED_JOB_TTL_MS = 7 * 86400 * 1000;

/** Redash's job JSON (§5.1). */
export function jobJson(state: JobState): JobJson {
  return {
    id: state.id,
    status: state.status,
    error: state.status === 4 || state.status === 5 ? state.error : "",
    query_result_id: state.status === 3 ? state.resultId : null,
    updated_at:
      state.status === 2 && state.startedAt !== null
        ? new Date(state.startedAt).toISOString().replace("Z", "")
        : 0,
  };
}
