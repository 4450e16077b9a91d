import crypto from "node:crypto";
import { Job, Queue } from "bullmq";
import { Redis } from "ioredis";
import { DEFAULT_FAIRNESS, type FairnessLimits } from "./fairness";
import { BullmqWorkers, DEFAULT_LOCK_MS } from "./bullmqWorkers";
import { RedisFairness } from "./redisFairness";
import {
  CANCELLED_MESSAGE,
  FAILED_JOB_TTL_MS,
  JOB_TTL_MS,
  QueueUnavailableError,
  WORKER_LOST_MESSAGE,
  type JobData,
  type JobProcessor,
  type JobState,
  type JobStatus,
  type QueueBackend,
  type QueueStatus,
  type WorkerInfo,
  isLiveJob,
  waitingJob,
} from "./types";

export interface BullmqQueueOptions {
  redisUrl: string;
  /** Redis key prefix; tests use a unique one per run. */
  prefix: string;
  /** Queue names in use (the data sources' queues); workers listen on all of them. */
  listQueueNames: () => Promise<string[]>;
  /**
   * How long a worker's lock on a running job lasts without renewal (default 20 s): a job whose
   * worker died is reported failed at most this long after.
   */
  lockDurationMs?: number;
  /** How often workers look for jobs whose worker died (default 30 s). */
  stalledIntervalMs?: number;
  /** A Redis call slower than this fails the execution (default 3 s). */
  commandTimeoutMs?: number;
  /** Per-data-source and per-user limits (execution/fairness.ts). */
  fairness?: FairnessLimits;
  onError?: (error: Error) => void;
}

const DEFAULT_QUEUES = ["queries", "scheduled_queries"];
const TASK_NAME = "execute_query";
const STALLED_REASON = "job stalled more than allowable limit";

/** Job ids carry their queue so a job can be found from its id alone. */
function makeJobId(queueName: string): string {
  return `${crypto.randomUUID()}_${Buffer.from(queueName).toString("base64url")}`;
}

function queueOfJobId(jobId: string): string | null {
  const match = /^[0-9a-f-]{36}_([A-Za-z0-9_-]+)$/.exec(jobId);
  return match ? Buffer.from(match[1]!, "base64url").toString() : null;
}

function statusOf(state: string): JobStatus | null {
  switch (state) {
    case "waiting":
    case "wait":
    case "delayed":
    case "prioritized":
    case "waiting-children":
      return 1;
    case "active":
      return 2;
    case "completed":
      return 3;
    case "failed":
      return 4;
    default:
      return null;
  }
}

/**
 * The scaled queue: BullMQ on Redis, one BullMQ queue per Sightline queue name. Workers in any
 * process take jobs; a cancel is broadcast over Redis pub/sub to the worker running the job; a
 * worker that dies stops renewing its job's lock, and whoever next reads the job fails it (see
 * failIfWorkerLost), as other workers' stalled-job checks would.
 */
export class BullmqQueue implements QueueBackend {
  private readonly client: Redis;
  private readonly queues = new Map<string, Queue>();
  private workerPool: BullmqWorkers | null = null;
  private readonly timeoutMs: number;
  private readonly fairness: RedisFairness;
  private lastError = "";

  constructor(private readonly options: BullmqQueueOptions) {
    this.timeoutMs = options.commandTimeoutMs ?? 3000;
    this.client = new Redis(options.redisUrl, {
      maxRetriesPerRequest: 1,
      connectTimeout: this.timeoutMs,
      retryStrategy: (times) => Math.min(times * 200, 2000),
    });
    this.client.on("error", (error: Error) => this.reportError(error));
    this.fairness = new RedisFairness(
      this.client,
      (...parts) => this.key(...parts),
      options.fairness ?? DEFAULT_FAIRNESS,
      // A slot outlives its job's lock a little: the lock decides that a worker died.
      (options.lockDurationMs ?? DEFAULT_LOCK_MS) * 1.5,
    );
  }

  private reportError(error: Error): void {
    // Reconnect loops repeat the same error; report each distinct one once.
    if (error.message === this.lastError) return;
    this.lastError = error.message;
    this.options.onError?.(error);
  }

  private key(...parts: (string | number)[]): string {
    return [this.options.prefix, "sightline", ...parts].join(":");
  }

  /** Every Redis call of an API request goes through here: bounded in time, clear on failure. */
  private async guard<T>(work: () => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new QueueUnavailableError(`Redis did not answer within ${this.timeoutMs} ms`)),
        this.timeoutMs,
      );
    });
    try {
      return await Promise.race([work(), timeout]);
    } catch (error) {
      if (error instanceof QueueUnavailableError) throw error;
      const message = error instanceof Error ? error.message : String(error);
      if (
        this.client.status !== "ready" ||
        /ECONNREFUSED|Connection|connect|writeable/i.test(message)
      ) {
        throw new QueueUnavailableError(message || "cannot reach Redis");
      }
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  private queue(name: string): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection: this.client, prefix: this.options.prefix });
      queue.on("error", (error: Error) => this.reportError(error));
      this.queues.set(name, queue);
    }
    return queue;
  }

  async enqueue(data: JobData): Promise<JobState> {
    return this.guard(async () => {
      const lock = this.key("lock", data.dataSourceId, data.queryHash);
      const id = makeJobId(data.queueName);
      const acquired = (await this.client.set(lock, id, "PX", JOB_TTL_MS, "NX")) === "OK";
      if (!acquired) {
        const existing = await this.liveJob(await this.client.get(lock));
        if (existing) return existing;
        // The lock pointed at a finished job: take it over.
        await this.client.set(lock, id, "PX", JOB_TTL_MS);
      }
      try {
        await this.fairness.assertUserMayQueue(
          data,
          async (jobId) => (await this.read(jobId, false))?.status === 1,
        );
      } catch (error) {
        if ((await this.client.get(lock)) === id) await this.client.del(lock);
        throw error;
      }
      // Counted as waiting before a worker can see it: a worker's slot taken first would
      // otherwise be followed by a stale "waiting" entry.
      await this.fairness.queued(id, data);
      try {
        await this.queue(data.queueName).add(TASK_NAME, data, {
          jobId: id,
          attempts: 1,
          removeOnComplete: { age: JOB_TTL_MS / 1000 },
          removeOnFail: { age: FAILED_JOB_TTL_MS / 1000 },
        });
      } catch (error) {
        await this.fairness.forget(id, data).catch(() => undefined);
        throw error;
      }
      return waitingJob(id, data);
    });
  }

  /** The job a dedup lock points at, if it is still waiting or running. */
  private async liveJob(jobId: string | null): Promise<JobState | null> {
    if (!jobId) return null;
    let state = await this.read(jobId);
    if (!state) {
      // The other caller may have taken the lock but not added its job yet.
      await new Promise((resolve) => setTimeout(resolve, 100));
      state = await this.read(jobId);
    }
    return state && isLiveJob(state) ? state : null;
  }

  async get(jobId: string): Promise<JobState | null> {
    return this.guard(() => this.read(jobId));
  }

  private async read(jobId: string, checkWorker = true): Promise<JobState | null> {
    const queueName = queueOfJobId(jobId);
    if (queueName === null) return null;
    const queue = this.queue(queueName);
    // The state before the job's hash: once the state says completed, the hash read after it
    // holds the return value (read the other way round, a job finishing in between would
    // report "completed" with no result id).
    const [cancelled, state] = await Promise.all([
      this.client.get(this.key("cancelled", jobId)),
      queue.getJobState(jobId),
    ]);
    const job = await Job.fromId<JobData, number>(queue, jobId);
    if (!job) {
      if (!cancelled) return null;
      return this.cancelledState(jobId, JSON.parse(cancelled) as JobData, null);
    }
    let status = statusOf(state);
    if (status === null) return null;
    if (cancelled && status !== 3) return this.cancelledState(jobId, job.data, job.processedOn);
    if (status === 2 && checkWorker && (await this.failIfWorkerLost(queue, job))) {
      return this.read(jobId, false);
    }
    // A worker holds a job it takes while it asks for a slot; without one the job still waits.
    if (status === 2 && !(await this.fairness.holds(jobId, job.data))) status = 1;
    let error = "";
    if (status === 4) {
      error = job.failedReason === STALLED_REASON ? WORKER_LOST_MESSAGE : job.failedReason;
    }
    return {
      id: jobId,
      data: job.data,
      status,
      error,
      resultId: status === 3 ? Number(job.returnvalue) : null,
      enqueuedAt: job.timestamp,
      startedAt: job.processedOn ?? null,
    };
  }

  /**
   * A running job's worker holds a lock on it and renews it while it lives, so a running job
   * without a lock lost its worker (killed, crashed, its machine gone). It is failed here, by
   * whoever reads it (a poll, an identical run, the admin pages): no other worker has to be alive
   * to notice. True when the job was failed (or finished meanwhile): read it again.
   */
  private async failIfWorkerLost(queue: Queue, job: Job<JobData, number>): Promise<boolean> {
    if ((await this.client.exists(`${queue.toKey(job.id!)}:lock`)) === 1) return false;
    // Token "0": there is no lock to release. BullMQ moves the job only while it is still
    // active, so a job that finished since the lock was read keeps its outcome.
    await job.moveToFailed(new Error(WORKER_LOST_MESSAGE), "0").catch(() => undefined);
    // Its slot is freed only if it did fail here: a job that a worker just put back to wait for
    // a slot (it holds no lock then either) keeps its place.
    if ((await queue.getJobState(job.id!)) === "failed") {
      await this.fairness.forget(job.id!, job.data);
    }
    return true;
  }

  private cancelledState(jobId: string, data: JobData, startedAt: number | null | undefined) {
    return {
      id: jobId,
      data,
      status: 4 as const,
      error: CANCELLED_MESSAGE,
      resultId: null,
      enqueuedAt: 0,
      startedAt: startedAt ?? null,
    };
  }

  async cancel(jobId: string): Promise<void> {
    await this.guard(async () => {
      const state = await this.read(jobId);
      if (!state || !isLiveJob(state)) return;
      await this.client.set(
        this.key("cancelled", jobId),
        JSON.stringify(state.data),
        "PX",
        FAILED_JOB_TTL_MS,
      );
      const lock = this.key("lock", state.data.dataSourceId, state.data.queryHash);
      if ((await this.client.get(lock)) === jobId) await this.client.del(lock);
      await this.fairness.forget(jobId, state.data);
      const job = await Job.fromId(this.queue(state.data.queueName), jobId);
      // A waiting job is simply removed; a running one is locked and is stopped by its worker.
      if (job && state.status === 1) await job.remove().catch(() => undefined);
      await this.client.publish(this.key("cancel"), jobId);
    });
  }

  async waitFor(jobId: string, ms: number): Promise<JobState | null> {
    const deadline = Date.now() + ms;
    let delay = 25;
    for (;;) {
      const state = await this.get(jobId);
      if (!state || !isLiveJob(state) || Date.now() >= deadline) return state;
      await new Promise((resolve) => setTimeout(resolve, Math.min(delay, deadline - Date.now())));
      delay = Math.min(delay * 2, 200);
    }
  }

  async startWorker(processor: JobProcessor, concurrency: number): Promise<void> {
    this.workerPool = new BullmqWorkers({
      ...this.options,
      client: this.client,
      key: (...parts) => this.key(...parts),
      fairness: this.fairness,
      reportError: (error) => this.reportError(error),
      queueNames: async () => [...DEFAULT_QUEUES, ...(await this.options.listQueueNames())],
    });
    await this.workerPool.start(processor, concurrency);
  }

  async status(): Promise<QueueStatus> {
    return this.guard(async () => {
      const names = new Set([...DEFAULT_QUEUES, ...(await this.options.listQueueNames())]);
      const queues = [];
      for (const name of [...names].sort()) {
        const queue = this.queue(name);
        const counts = await queue.getJobCounts("waiting", "prioritized", "delayed");
        const active = await queue.getActive(0, 99);
        const started: JobState[] = [];
        for (const job of active) {
          const state = job.id ? await this.read(job.id) : null;
          if (state) started.push(state);
        }
        queues.push({
          name,
          queued: (counts.waiting ?? 0) + (counts.prioritized ?? 0) + (counts.delayed ?? 0),
          started,
        });
      }
      const workers: WorkerInfo[] = [];
      let cursor = "0";
      do {
        const [next, keys] = await this.client.scan(
          cursor,
          "MATCH",
          this.key("worker", "*"),
          "COUNT",
          100,
        );
        cursor = next;
        for (const key of keys) {
          const raw = await this.client.get(key);
          if (raw) workers.push(JSON.parse(raw) as WorkerInfo);
        }
      } while (cursor !== "0");
      workers.sort((a, b) => a.name.localeCompare(b.name));
      const memory = /used_memory:(\d+)/.exec(await this.client.info("memory"));
      return {
        queues,
        workers,
        dataSources: await this.fairness.loads(),
        redisUsedMemory: memory ? Number(memory[1]) : 0,
      };
    });
  }

  /**
   * Stops this process's workers (their running queries are aborted) and connections.
   * `simulateCrash` (tests) drops the workers without finishing their jobs, as a killed process would.
   */
  async close(options: { simulateCrash?: boolean } = {}): Promise<void> {
    await this.workerPool?.close(options.simulateCrash === true);
    await Promise.all([...this.queues.values()].map((q) => q.close().catch(() => undefined)));
    this.client.disconnect();
  }
}
