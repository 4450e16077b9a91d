import crypto from "node:crypto";
import os from "node:os";
import { JobRefusalError } from "./pipeline";
import {
  DEFAULT_FAIRNESS,
  userQueueRefusal,
  countsAgainstUser,
  mayStart,
  type DataSourceLoad,
  type FairnessLimits,
} from "./fairness";
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
 * The embedded queue: jobs live in this process, at most `concurrency` at a time, in order of
 * arrival within the fairness rules (execution/fairness.ts). A job that was running when the
 * queue closes ends failed, never stuck in processing.
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
  /** Running jobs per data source id. */
  private readonly runningBySource = new Map<number, number>();

  constructor(private readonly limits: FairnessLimits = DEFAULT_FAIRNESS) {}

  async enqueue(data: JobData): Promise<JobState> {
    if (this.closed) throw new Error("The query queue is shut down.");
    this.expire();
    const existing = this.jobs.get(this.locks.get(lockKey(data)) ?? "");
    if (existing && isLiveJob(existing.state)) return { ...existing.state };
    if (countsAgainstUser(data)) {
      const waiting = this.waiting.filter((id) => {
        const other = this.jobs.get(id)?.state.data;
        return other !== undefined && countsAgainstUser(other) && other.userId === data.userId;
      }).length;
      const refusal = userQueueRefusal(waiting, this.limits);
      if (refusal) throw new JobRefusalError(429, refusal);
    }
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
      dataSources: this.dataSourceLoads(),
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

  /** Per data source: running and waiting jobs (the status pages). */
  private dataSourceLoads(): DataSourceLoad[] {
    const loads = new Map<number, DataSourceLoad>();
    const load = (id: number) => {
      let entry = loads.get(id);
      if (!entry) {
        entry = { dataSourceId: id, running: 0, waiting: 0, limit: this.limits.perDataSource };
        loads.set(id, entry);
      }
      return entry;
    };
    for (const [id, running] of this.runningBySource) if (running > 0) load(id).running = running;
    for (const id of this.waiting) {
      const data = this.jobs.get(id)?.state.data;
      if (data) load(data.dataSourceId).waiting += 1;
    }
    return [...loads.values()].sort((a, b) => a.dataSourceId - b.dataSourceId);
  }

  private pump(): void {
    while (this.processor && !this.closed && this.running < this.concurrency) {
      const job = this.nextJob();
      if (!job) return;
      this.waiting.splice(this.waiting.indexOf(job.state.id), 1);
      this.run(job, this.processor);
    }
  }

  /** The oldest waiting job allowed to start: people's runs first, then scheduled ones. */
  private nextJob(): MemoryJob | null {
    const jobs = this.waiting
      .map((id) => this.jobs.get(id))
      .filter((job): job is MemoryJob => job !== undefined && job.state.status === 1);
    const adHocWaiting = new Map<number, number>();
    for (const job of jobs) {
      if (job.state.data.scheduled) continue;
      const source = job.state.data.dataSourceId;
      adHocWaiting.set(source, (adHocWaiting.get(source) ?? 0) + 1);
    }
    const ordered = [
      ...jobs.filter((job) => !job.state.data.scheduled),
      ...jobs.filter((job) => job.state.data.scheduled),
    ];
    return (
      ordered.find((job) => {
        const source = job.state.data.dataSourceId;
        const load = {
          running: this.runningBySource.get(source) ?? 0,
          adHocWaiting: adHocWaiting.get(source) ?? 0,
        };
        return mayStart(job.state.data, load, this.limits);
      }) ?? null
    );
  }

  private countRunning(dataSourceId: number, change: 1 | -1): void {
    const running = (this.runningBySource.get(dataSourceId) ?? 0) + change;
    if (running > 0) this.runningBySource.set(dataSourceId, running);
    else this.runningBySource.delete(dataSourceId);
  }

  private run(job: MemoryJob, processor: JobProcessor): void {
    const controller = new AbortController();
    job.controller = controller;
    job.state.status = 2;
    job.state.startedAt = Date.now();
    this.running += 1;
    this.countRunning(job.state.data.dataSourceId, 1);
    processor(job.state.data, job.state.id, controller.signal)
      .then(
        (resultId) => this.finish(job, 3, "", resultId),
        (error: unknown) =>
          this.finish(job, 4, error instanceof Error ? error.message : String(error), null),
      )
      .finally(() => {
        this.running -= 1;
        this.countRunning(job.state.data.dataSourceId, -1);
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
