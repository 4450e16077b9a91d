import crypto from "node:crypto";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { TEST_REDIS_URL, redisAvailable, deleteRedisKeys } from "../testing/services";
import { BullmqQueue, type BullmqQueueOptions } from "./bullmqQueue";
import { MemoryQueue, WORKER_STOPPED_MESSAGE } from "./memoryQueue";
import {
  CANCELLED_MESSAGE,
  QueueUnavailableError,
  WORKER_LOST_MESSAGE,
  type JobData,
  type JobProcessor,
  type QueueBackend,
} from "./types";

const PREFIX = `sltest_${crypto.randomBytes(4).toString("hex")}`;
const opened: QueueBackend[] = [];

/**
 * A BullMQ queue with the production timings unless a test needs others. Short job locks are
 * only for the worker-loss test: with a 1 s lock, any pause of this process of a second or more
 * while a job is active (a loaded machine, a GC pause) makes BullMQ's stalled-job check fail
 * that job as lost, which made "runs a job to its result" flaky when every test used them.
 */
function bullmq(
  prefix = PREFIX,
  url = TEST_REDIS_URL,
  timings: Pick<
    BullmqQueueOptions,
    "lockDurationMs" | "stalledIntervalMs" | "commandTimeoutMs"
  > = {},
): BullmqQueue {
  const queue = new BullmqQueue({
    redisUrl: url,
    prefix,
    listQueueNames: async () => ["queries"],
    ...timings,
  });
  opened.push(queue);
  return queue;
}

function memory(): MemoryQueue {
  const queue = new MemoryQueue();
  opened.push(queue);
  return queue;
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((q) => q.close()));
});

// Leave nothing behind in the shared Redis.
afterAll(async () => {
  if (BACKENDS.length === 1) return;
  await deleteRedisKeys(PREFIX);
});

let counter = 0;
function job(text = `SELECT ${++counter}`): JobData {
  return {
    orgId: 1,
    dataSourceId: 1,
    queryText: text,
    queryHash: crypto.createHash("md5").update(`${PREFIX}${text}`).digest("hex"),
    queryId: null,
    userId: 5,
    scheduled: false,
    queueName: "queries",
  };
}

/** Resolves with `result` after `ms`, or rejects as soon as the job is cancelled. */
const sleeper =
  (ms: number, result = 42): JobProcessor =>
  (_data, _id, signal) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => resolve(result), ms);
      signal.addEventListener("abort", () => {
        clearTimeout(timer);
        reject(new Error(CANCELLED_MESSAGE));
      });
    });

async function until(queue: QueueBackend, id: string, status: number, ms = 10_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const state = await queue.get(id);
    if (state?.status === status || Date.now() > deadline) return state;
    await new Promise((r) => setTimeout(r, 50));
  }
}

let queues = 0;
const BACKENDS: [string, () => QueueBackend][] = [["in-process", memory]];
// Each test's queue has keys of its own: jobs a test leaves waiting are never run by the next
// test's worker (where they would hold their data source's slots, execution/fairness.ts).
if (await redisAvailable()) BACKENDS.push(["BullMQ", () => bullmq(`${PREFIX}_${++queues}`)]);

describe.each(BACKENDS)("queue backend: %s", (_name, create) => {
  it("runs a job to its result", async () => {
    const queue = create();
    await queue.startWorker(sleeper(10, 7), 2);
    const state = await queue.enqueue(job());
    expect(state.status).toBe(1);
    const done = await queue.waitFor(state.id, 5000);
    expect(done).toMatchObject({ status: 3, resultId: 7, error: "" });
  });

  it("shares one job between identical runs and separates different texts", async () => {
    const queue = create();
    await queue.startWorker(sleeper(2000), 2);
    const data = job();
    const [a, b, c] = await Promise.all([
      queue.enqueue(data),
      queue.enqueue(data),
      queue.enqueue(data),
    ]);
    expect(new Set([a.id, b.id, c.id]).size).toBe(1);
    const other = await queue.enqueue(job());
    expect(other.id).not.toBe(a.id);
    // A cancelled job is not shared: the next identical run gets a new job.
    await queue.cancel(a.id);
    const again = await queue.enqueue(data);
    expect(again.id).not.toBe(a.id);
  });

  it("cancels a running job: the processor's signal aborts and the job reports it", async () => {
    const queue = create();
    let aborted = false;
    await queue.startWorker(
      (_d, _id, signal) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener("abort", () => {
            aborted = true;
            reject(new Error(CANCELLED_MESSAGE));
          });
        }),
      1,
    );
    const state = await queue.enqueue(job());
    expect((await until(queue, state.id, 2))?.status).toBe(2);
    expect((await queue.get(state.id))?.startedAt).toBeGreaterThan(0);
    await queue.cancel(state.id);
    const after = await queue.get(state.id);
    expect(after).toMatchObject({ status: 4, error: CANCELLED_MESSAGE });
    await expect.poll(() => aborted, { timeout: 5000 }).toBe(true);
  });

  it("cancels a waiting job", async () => {
    const queue = create();
    await queue.startWorker(sleeper(3000), 1);
    const first = await queue.enqueue(job());
    await until(queue, first.id, 2);
    const second = await queue.enqueue(job());
    expect((await queue.get(second.id))?.status).toBe(1);
    await queue.cancel(second.id);
    expect(await queue.get(second.id)).toMatchObject({ status: 4, error: CANCELLED_MESSAGE });
    await queue.cancel(first.id);
  });

  it("reports the processor's error as a failed job", async () => {
    const queue = create();
    await queue.startWorker(async () => {
      throw new Error("no such table: nope");
    }, 1);
    const state = await queue.enqueue(job());
    expect(await queue.waitFor(state.id, 5000)).toMatchObject({
      status: 4,
      error: "no such table: nope",
    });
  });

  it("lists queued and started jobs for the admin pages", async () => {
    const queue = create();
    await queue.startWorker(sleeper(3000), 1);
    const first = await queue.enqueue(job());
    await until(queue, first.id, 2);
    await queue.enqueue(job());
    const status = await queue.status();
    const queries = status.queues.find((q) => q.name === "queries");
    expect(queries?.queued).toBe(1);
    expect(queries?.started.map((s) => s.id)).toEqual([first.id]);
    expect(status.workers.length).toBeGreaterThan(0);
    expect(status.workers[0]?.state).toBe("busy");
  });

  it("unknown job ids are null", async () => {
    const queue = create();
    expect(await queue.get("00000000-0000-0000-0000-000000000000_cXVlcmllcw")).toBeNull();
    expect(await queue.get("nope")).toBeNull();
  });
});

describe("worker loss", () => {
  it("in-process: stopping the queue fails its running jobs", async () => {
    const queue = memory();
    await queue.startWorker(() => new Promise<number>(() => {}), 1);
    const state = await queue.enqueue(job());
    await until(queue, state.id, 2);
    await queue.close();
    expect(await queue.get(state.id)).toMatchObject({ status: 4, error: WORKER_STOPPED_MESSAGE });
  });

  it.runIf(BACKENDS.length > 1)("BullMQ: a job whose worker died ends failed", async () => {
    const prefix = `${PREFIX}_crash`;
    // Short locks so the loss is noticed within a second, not after the 30 s default.
    const fast = { lockDurationMs: 1000, stalledIntervalMs: 500 };
    const doomed = bullmq(prefix, TEST_REDIS_URL, fast);
    await doomed.startWorker(() => new Promise<number>(() => {}), 1);
    const state = await doomed.enqueue(job());
    expect((await until(doomed, state.id, 2))?.status).toBe(2);
    await doomed.close({ simulateCrash: true });
    // Another worker's stalled-job check notices the lost lock.
    const survivor = bullmq(prefix, TEST_REDIS_URL, fast);
    await survivor.startWorker(sleeper(10), 1);
    const after = await until(survivor, state.id, 4, 15_000);
    expect(after).toMatchObject({ status: 4, error: WORKER_LOST_MESSAGE });
  });

  it.runIf(BACKENDS.length > 1)(
    "BullMQ: a job whose worker died ends failed with no other worker alive",
    async () => {
      const prefix = `${PREFIX}_alone`;
      const doomed = bullmq(prefix, TEST_REDIS_URL, { lockDurationMs: 1000 });
      await doomed.startWorker(() => new Promise<number>(() => {}), 1);
      const state = await doomed.enqueue(job());
      expect((await until(doomed, state.id, 2))?.status).toBe(2);
      await doomed.close({ simulateCrash: true });
      // Only a reader is left: it notices the lock the dead worker no longer renews.
      const reader = bullmq(prefix);
      const after = await until(reader, state.id, 4, 15_000);
      expect(after).toMatchObject({ status: 4, error: WORKER_LOST_MESSAGE });
    },
  );

  it.runIf(BACKENDS.length > 1)(
    "BullMQ: Redis out of reach fails fast with a clear error",
    async () => {
      const queue = bullmq(PREFIX, "redis://127.0.0.1:1", { commandTimeoutMs: 1500 });
      const started = Date.now();
      const error = await queue.enqueue(job()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(QueueUnavailableError);
      expect((error as Error).message).toMatch(/^The query queue is unavailable: /);
      expect(Date.now() - started).toBeLessThan(5000);
    },
  );
});
