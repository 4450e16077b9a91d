// The worker side of the BullMQ queue (execution/bullmqQueue.ts): one BullMQ worker per queue
// name in this process, each job started only when its data source has a free slot
// (execution/redisFairness.ts), cancels heard over Redis pub/sub, and a heartbeat that the admin
// pages read.
import crypto from "node:crypto";
import os from "node:os";
import { DelayedError, Worker, type Job } from "bullmq";
import { Redis } from "ioredis";
import type { RedisFairness } from "./redisFairness";
import { CANCELLED_MESSAGE, type JobData, type JobProcessor, type WorkerInfo } from "./types";

export const HEARTBEAT_MS = 10_000;
export const DEFAULT_LOCK_MS = 20_000;

export interface BullmqWorkersOptions {
  redisUrl: string;
  prefix: string;
  /** The queue's own connection, for its keys. */
  client: Redis;
  key: (...parts: (string | number)[]) => string;
  fairness: RedisFairness;
  reportError: (error: Error) => void;
  /** Every queue name to listen on; asked again every 30 s for new data sources' queues. */
  queueNames: () => Promise<string[]>;
  lockDurationMs?: number;
  stalledIntervalMs?: number;
}

interface LocalWorkerStats {
  name: string;
  birthDate: string;
  running: Map<string, AbortController>;
  successful: number;
  failed: number;
  workingMs: number;
}

export class BullmqWorkers {
  private readonly workers = new Map<string, Worker>();
  private readonly connections: Redis[] = [];
  private subscriber: Redis | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private discovery: NodeJS.Timeout | null = null;
  private readonly stats: LocalWorkerStats = {
    name: `${os.hostname()}:${process.pid}:${crypto.randomBytes(3).toString("hex")}`,
    birthDate: new Date().toISOString(),
    running: new Map(),
    successful: 0,
    failed: 0,
    workingMs: 0,
  };

  constructor(private readonly options: BullmqWorkersOptions) {}

  async start(processor: JobProcessor, concurrency: number): Promise<void> {
    const { stats } = this;
    this.subscriber = new Redis(this.options.redisUrl, { maxRetriesPerRequest: null });
    this.subscriber.on("error", (error: Error) => this.options.reportError(error));
    this.subscriber.on("message", (_channel: string, jobId: string) =>
      stats.running.get(jobId)?.abort(),
    );
    await this.subscriber.subscribe(this.options.key("cancel"));
    const discover = async () => {
      for (const name of new Set(await this.options.queueNames())) {
        this.listen(name, processor, concurrency);
      }
      await this.beat();
    };
    await discover();
    this.discovery = setInterval(() => void discover().catch(() => undefined), 30_000);
    this.heartbeat = setInterval(() => void this.beat(), HEARTBEAT_MS);
  }

  private listen(name: string, processor: JobProcessor, concurrency: number): void {
    if (this.workers.has(name)) return;
    const connection = new Redis(this.options.redisUrl, { maxRetriesPerRequest: null });
    connection.on("error", (error: Error) => this.options.reportError(error));
    this.connections.push(connection);
    const worker = new Worker<JobData, number>(
      name,
      (job, token) => this.process(job, token, processor),
      {
        connection,
        prefix: this.options.prefix,
        concurrency,
        lockDuration: this.options.lockDurationMs ?? DEFAULT_LOCK_MS,
        stalledInterval: this.options.stalledIntervalMs ?? 30_000,
        // A job whose worker died is failed, never re-run behind the user's back.
        maxStalledCount: 0,
      },
    );
    worker.on("error", (error: Error) => this.options.reportError(error));
    this.workers.set(name, worker);
  }

  private async process(
    job: Job<JobData, number>,
    token: string | undefined,
    processor: JobProcessor,
  ): Promise<number> {
    const { client, fairness, key } = this.options;
    const { stats } = this;
    const jobId = job.id!;
    if (await client.get(key("cancelled", jobId))) {
      await fairness.forget(jobId, job.data);
      throw new Error(CANCELLED_MESSAGE);
    }
    if (!(await fairness.take(jobId, job.data))) {
      // Its data source is busy: the job waits again, briefly, and other jobs go ahead.
      await job.moveToDelayed(Date.now() + 150 + Math.random() * 350, token);
      throw new DelayedError();
    }
    const renewal = setInterval(
      () => void fairness.renew(jobId, job.data).catch(() => undefined),
      fairness.leaseMs / 3,
    );
    const controller = new AbortController();
    stats.running.set(jobId, controller);
    void this.beat();
    const started = Date.now();
    try {
      const resultId = await processor(job.data, jobId, controller.signal);
      stats.successful += 1;
      return resultId;
    } catch (error) {
      stats.failed += 1;
      throw error;
    } finally {
      clearInterval(renewal);
      await fairness.forget(jobId, job.data).catch(() => undefined);
      stats.running.delete(jobId);
      stats.workingMs += Date.now() - started;
      const lock = key("lock", job.data.dataSourceId, job.data.queryHash);
      if ((await client.get(lock).catch(() => null)) === jobId) {
        await client.del(lock).catch(() => undefined);
      }
      void this.beat();
    }
  }

  /** Publishes this worker's state for the admin pages (expires if the process dies). */
  private async beat(): Promise<void> {
    const { stats } = this;
    const [current] = stats.running.keys();
    const info: WorkerInfo = {
      name: stats.name,
      hostname: os.hostname(),
      pid: process.pid,
      queues: [...this.workers.keys()].sort(),
      state: stats.running.size > 0 ? "busy" : "idle",
      lastHeartbeat: new Date().toISOString(),
      birthDate: stats.birthDate,
      currentJob: current ? `${current} (execute_query)` : null,
      successfulJobs: stats.successful,
      failedJobs: stats.failed,
      totalWorkingTime: stats.workingMs / 1000,
    };
    await this.options.client
      .set(this.options.key("worker", stats.name), JSON.stringify(info), "PX", HEARTBEAT_MS * 3)
      .catch(() => undefined);
  }

  /**
   * Stops the workers (their running queries are aborted). `simulateCrash` (tests) drops them
   * without finishing their jobs, as a killed process would.
   */
  async close(simulateCrash: boolean): Promise<void> {
    if (this.discovery) clearInterval(this.discovery);
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (!simulateCrash) for (const c of this.stats.running.values()) c.abort();
    if (simulateCrash) for (const c of this.connections) c.disconnect();
    await Promise.all(
      [...this.workers.values()].map((w) => w.close(simulateCrash).catch(() => undefined)),
    );
    for (const c of this.connections) c.disconnect();
    await this.options.client
      .del(this.options.key("worker", this.stats.name))
      .catch(() => undefined);
    this.subscriber?.disconnect();
  }
}
