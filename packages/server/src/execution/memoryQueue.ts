import crypto from "node:crypto";
import os from "node:os";
import {
  CANCELLED_MESSAGE,
  FAILED_JOB_TTL_MS,
  JOB_TTL_MS,
  type JobData,
  type JobProcessor,
  type JobState,
  type QueueBackend,
  type QueueStatus,
  isLiveJob,
  waitingJob,
} from "./types";

export const WORKER_STOPPED_MESSAGE =
  "The worker stopped before the query finished (the server was shut down or restarted). Run the query again.";

interface MemoryJob {
  state: JobState;
  controller: AbortController | null;
  finishedAt: number | null;
  waiters: (() => void)[];
}

const lockKey = (data: JobData) => `${data.dataSourceId}:${data.queryHash}`;

/**
 * The embedded queue: jobs live in this process, FIFO, at most `concurrency` at a time. A job
 * that was running when the queue closes ends failed, never stuck in processing.
 */
export class MemoryQueue implements QueueBackend {
  private readonly jobs = new Map<string, MemoryJob>();
  private readonly locks = new Map<string, string>();
  private readonly waiting: string[] = [];
  /** Finished job ids in finishing order, per TTL: the oldest expire first. */
  private readonly finishedOk: string[] = [];
  private readonly finishedFailed: string[] = [];
  private processor: JobProcessor | null = null;
  private concurrency = 1;
  private running = 0;
  private closed = false;
  private successful = 0;
  private failed = 0;
  private workingMs = 0;
  private readonly birth = new Date().toISOString();

  async enqueue(data: JobData): Promise<JobState> {
    if (this.closed) throw new Error("The query queue is shut down.");
    this.expire();
    const existing = this.jobs.get(this.locks.get(lockKey(data)) ?? "");
    if (existing && isLiveJob(existing.state)) return { ...existing.state };
    const state = waitingJob(crypto.randomUUID(), data);
    this.jobs.set(state.id, { state, controller: null, finishedAt: null, waiters: [] });
    this.locks.set(lockKey(data), state.id);
    this.waiting.push(state.id);
    const queued = { ...state };
    this.pump();
    return queued;
  }

  async get(jobId: string): Promise<JobState | null> {
    this.expire();
    const job = this.jobs.get(jobId);
    return job ? { ...job.state } : null;
  }

  async cancel(jobId: string): Promise<void> {
    const job = this.jobs.get(jobId);
    if (!job || !isLiveJob(job.state)) return;
    const index = this.waiting.indexOf(jobId);
    if (index >= 0) this.waiting.splice(index, 1);
    job.controller?.abort();
    this.finish(job, 4, CANCELLED_MESSAGE, null);
  }

  async waitFor(jobId: string, ms: number): Promise<JobState | null> {
    const job = this.jobs.get(jobId);
    if (!job) return null;
    if (isLiveJob(job.state)) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        job.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return { ...job.state };
  }

  async startWorker(processor: JobProcessor, concurrency: number): Promise<void> {
    this.processor = processor;
    this.concurrency = Math.max(1, concurrency);
    this.pump();
  }

  async status(): Promise<QueueStatus> {
    const names = new Set<string>(["queries", "scheduled_queries"]);
    const live = [...this.jobs.values()].map((j) => j.state).filter(isLiveJob);
    for (const s of live) names.add(s.data.queueName);
    const started = live.filter((s) => s.status === 2);
    return {
      queues: [...names].sort().map((name) => ({
        name,
        queued: live.filter((s) => s.status === 1 && s.data.queueName === name).length,
        started: started.filter((s) => s.data.queueName === name).map((s) => ({ ...s })),
      })),
      workers: this.processor
        ? [
            {
              name: `${os.hostname()}:${process.pid}`,
              hostname: os.hostname(),
              pid: process.pid,
              queues: [...names].sort(),
              state: started.length > 0 ? "busy" : "idle",
              lastHeartbeat: new Date().toISOString(),
              birthDate: this.birth,
              currentJob: started[0] ? `${started[0].id} (execute_query)` : null,
              successfulJobs: this.successful,
              failedJobs: this.failed,
              totalWorkingTime: this.workingMs / 1000,
            },
          ]
        : [],
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.jobs.values()) {
      if (!isLiveJob(job.state)) continue;
      job.controller?.abort();
      this.finish(job, 4, WORKER_STOPPED_MESSAGE, null);
    }
    this.waiting.length = 0;
  }

  private pump(): void {
    while (this.processor && !this.closed && this.running < this.concurrency) {
      const id = this.waiting.shift();
      if (id === undefined) return;
      const job = this.jobs.get(id);
      if (job && job.state.status === 1) this.run(job, this.processor);
    }
  }

  private run(job: MemoryJob, processor: JobProcessor): void {
    const controller = new AbortController();
    job.controller = controller;
    job.state.status = 2;
    job.state.startedAt = Date.now();
    this.running += 1;
    processor(job.state.data, job.state.id, controller.signal)
      .then(
        (resultId) => this.finish(job, 3, "", resultId),
        (error: unknown) =>
          this.finish(job, 4, error instanceof Error ? error.message : String(error), null),
      )
      .finally(() => {
        this.running -= 1;
        this.workingMs += Date.now() - (job.state.startedAt ?? Date.now());
        job.controller = null;
        this.pump();
      });
  }

  /** The first outcome wins: a cancel is not overwritten by the runner's late answer. */
  private finish(job: MemoryJob, status: 3 | 4, error: string, resultId: number | null): void {
    if (!isLiveJob(job.state)) return;
    job.state.status = status;
    job.state.error = error;
    job.state.resultId = resultId;
    job.finishedAt = Date.now();
    if (status === 3) this.successful += 1;
    else this.failed += 1;
    (status === 3 ? this.finishedOk : this.finishedFailed).push(job.state.id);
    const key = lockKey(job.state.data);
    if (this.locks.get(key) === job.state.id) this.locks.delete(key);
    for (const wake of job.waiters.splice(0)) wake();
  }

  /** Drops expired jobs from the front of the finished lists: no walk over every job kept. */
  private expire(): void {
    const nowMs = Date.now();
    for (const [list, ttl] of [
      [this.finishedOk, JOB_TTL_MS],
      [this.finishedFailed, FAILED_JOB_TTL_MS],
    ] as const) {
      let expired = 0;
      while (expired < list.length) {
        const finishedAt = this.jobs.get(list[expired])?.finishedAt ?? null;
        if (finishedAt !== null && nowMs - finishedAt <= ttl) break;
        this.jobs.delete(list[expired]);
        expired += 1;
      }
      if (expired > 0) list.splice(0, expired);
    }
  }
}
