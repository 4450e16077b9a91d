// The life of one query execution (spec 1 §4, §8): start, poll the job, load the result, cancel.
// Pure of React and of fetch: the calls come in as functions, so it runs under fake timers.
import { JOB_CANCELLED_MESSAGE, JobStatus, type Job, type QueryResult } from "@sightline/core";
import { isApiError } from "../../api/errors";

export type ExecutionStatus =
  "waiting" | "processing" | "loading-result" | "cancelling" | "done" | "failed";

export interface ExecutionState {
  status: ExecutionStatus;
  job?: Job;
  result?: QueryResult;
  error?: string;
  /** When the current status began (ms since epoch): the banner shows the time since then. */
  since: number;
}

/**
 * How an execution starts: the result itself, a job to poll, or the id of a result already stored
 * (a cached result), which is then loaded with the same retries as a job's result.
 */
export interface StartAnswer {
  job?: Job;
  query_result?: QueryResult;
  query_result_id?: number;
}

export interface ExecutionCalls {
  start(): Promise<StartAnswer>;
  getJob(jobId: string): Promise<Job>;
  getResult(resultId: number): Promise<QueryResult>;
  cancelJob(jobId: string): Promise<unknown>;
}

export const POLL_FAST_MS = 500;
export const POLL_SLOW_MS = 3000;
export const FAST_POLLS = 10;
export const RESULT_LOAD_RETRIES = 3;
export const CONNECTION_FAILED_MESSAGE =
  "failed communicating with server. Please check your Internet connection and try again.";
export const CACHED_RESULT_UNAVAILABLE = "cached query result unavailable, please execute again.";
export const UNKNOWN_EXECUTION_ERROR = "Unknown error occurred. Please try again later.";

export const STATUS_TEXT: Record<
  "waiting" | "processing" | "loading-result" | "cancelling",
  string
> = {
  waiting: "Query in queue…",
  processing: "Executing query…",
  "loading-result": "Loading results…",
  cancelling: "Cancelling…",
};

/** Wait before polling again: 500 ms for the first 10 polls, then 3 s. */
export function pollDelay(pollsDone: number): number {
  return pollsDone < FAST_POLLS ? POLL_FAST_MS : POLL_SLOW_MS;
}

/** Wait before the n-th retry of a result load (n from 0): 1 s × 2^n. */
export function retryDelay(attempt: number): number {
  return 1000 * 2 ** attempt;
}

function jobErrorText(job: Job): string {
  if (typeof job.error === "object" && job.error) return job.error.message;
  return job.error || "";
}

/** How a refused execution call reads (spec 1 §8, query execution). */
export function startFailure(error: unknown): { job?: Job; message?: string } {
  if (isApiError(error)) {
    const data = error.data as { job?: Job } | undefined;
    if (data && typeof data === "object" && data.job) return { job: data.job };
    if (error.status === 404) return { message: CACHED_RESULT_UNAVAILABLE };
    // The run never reached the server (offline): the connection message, not an unknown error.
    if (error.status === 0) return { message: CONNECTION_FAILED_MESSAGE };
    return { message: error.serverMessage ?? UNKNOWN_EXECUTION_ERROR };
  }
  return { message: UNKNOWN_EXECUTION_ERROR };
}

/**
 * A result with its id: results read with an API key (public dashboards, embeds) come in Redash's
 * reduced form, data and retrieved_at only, and their downloads need the id the job named.
 */
function withId(result: QueryResult, id: number | null | undefined): QueryResult {
  return result.id === undefined && typeof id === "number" ? { ...result, id } : result;
}

export interface ExecutionHandle {
  cancel(): Promise<void>;
  /** Stops every timer; no more updates are reported. */
  dispose(): void;
}

/** Runs one execution, reporting each new state through `onChange`. */
export function runExecution(
  calls: ExecutionCalls,
  onChange: (state: ExecutionState) => void,
  now: () => number = Date.now,
): ExecutionHandle {
  let disposed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let polls = 0;
  let job: Job | undefined;
  let cancelling = false;
  let cancelSent = false;
  let current: ExecutionState = { status: "waiting", since: now() };

  function report(next: Omit<ExecutionState, "since">) {
    if (disposed) return;
    const since = next.status === current.status ? current.since : now();
    current = { ...next, since };
    onChange(current);
  }

  function fail(message: string, failedJob?: Job) {
    report({ status: "failed", error: message, job: failedJob });
    disposed = true;
  }

  function later(ms: number, fn: () => void) {
    if (disposed) return;
    timer = setTimeout(fn, ms);
  }

  async function loadResult(resultId: number, attempt = 0): Promise<void> {
    report({ status: "loading-result", job });
    try {
      const result = withId(await calls.getResult(resultId), resultId);
      if (disposed) return;
      report({ status: "done", result, job });
      disposed = true;
    } catch {
      if (disposed) return;
      if (attempt >= RESULT_LOAD_RETRIES) return fail(CONNECTION_FAILED_MESSAGE, job);
      later(retryDelay(attempt), () => void loadResult(resultId, attempt + 1));
    }
  }

  function sendCancel() {
    if (!job || cancelSent) return;
    cancelSent = true;
    calls.cancelJob(job.id).catch(() => {
      // The next poll tells how the job ended.
    });
  }

  function handleJob(next: Job) {
    job = next;
    if (next.status === JobStatus.FAILED || next.status === JobStatus.CANCELLED) {
      const text = next.status === JobStatus.CANCELLED ? JOB_CANCELLED_MESSAGE : jobErrorText(next);
      return fail(text, next);
    }
    const resultId = next.query_result_id;
    if (resultId && (next.status === JobStatus.DONE || next.status === JobStatus.PROCESSING)) {
      return void loadResult(resultId);
    }
    if (next.status === JobStatus.DONE) return fail(UNKNOWN_EXECUTION_ERROR, next);
    // Cancel pressed before the server answered with the job.
    if (cancelling) sendCancel();
    const status = cancelling
      ? "cancelling"
      : next.status === JobStatus.PROCESSING
        ? "processing"
        : "waiting";
    report({ status, job: next });
    later(pollDelay(polls), poll);
  }

  async function poll() {
    if (!job || disposed) return;
    polls += 1;
    try {
      const next = await calls.getJob(job.id);
      if (!disposed) handleJob(next);
    } catch {
      if (!disposed) fail(CONNECTION_FAILED_MESSAGE, job);
    }
  }

  report({ status: "waiting" });
  calls.start().then(
    (answer) => {
      if (disposed) return;
      if (answer.query_result) {
        report({
          status: "done",
          result: withId(answer.query_result, answer.job?.query_result_id),
        });
        disposed = true;
      } else if (answer.job) {
        handleJob(answer.job);
      } else if (answer.query_result_id) {
        void loadResult(answer.query_result_id);
      } else {
        fail(UNKNOWN_EXECUTION_ERROR);
      }
    },
    (error: unknown) => {
      if (disposed) return;
      const failure = startFailure(error);
      if (failure.job) return handleJob(failure.job);
      fail(failure.message ?? UNKNOWN_EXECUTION_ERROR);
    },
  );

  return {
    async cancel() {
      if (disposed || cancelling) return;
      if (current.status !== "waiting" && current.status !== "processing") return;
      cancelling = true;
      report({ status: "cancelling", job });
      sendCancel();
    },
    dispose() {
      disposed = true;
      if (timer) clearTimeout(timer);
    },
  };
}
