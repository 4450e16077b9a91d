// Fair queues on both backends: a data source's limit of queries at once across workers, people's
// runs ahead of scheduled refreshes, and a per-user limit on runs waiting at once.
import crypto from "node:crypto";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { TEST_REDIS_URL, deleteRedisKeys, redisAvailable } from "../testing/services";
import { BullmqQueue } from "./bullmqQueue";
import { tooManyWaitingMessage, type FairnessLimits } from "./fairness";
import { MemoryQueue } from "./memoryQueue";
import { JobRefusalError } from "./pipeline";
import type { JobData, JobProcessor, QueueBackend } from "./types";

const PREFIX = `sltest_fair_${crypto.randomBytes(4).toString("hex")}`;
const opened: QueueBackend[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((q) => q.close()));
});
afterAll(async () => {
  if (await redisAvailable()) await deleteRedisKeys(PREFIX);
});

let counter = 0;
function job(fields: Partial<JobData> = {}): JobData {
  const text = `SELECT ${++counter}`;
  return {
    orgId: 1,
    dataSourceId: 1,
    queryText: text,
    queryHash: crypto.createHash("md5").update(`${PREFIX}${text}`).digest("hex"),
    queryId: null,
    userId: 5,
    scheduled: false,
    queueName: "queries",
    ...fields,
  };
}

/** A processor whose jobs run until the test releases them; it records starts and overlap. */
function heldJobs() {
  const release = new Map<string, () => void>();
  const started: string[] = [];
  const running = new Map<number, number>();
  const most = new Map<number, number>();
  const processor: JobProcessor = (data, id) =>
    new Promise<number>((resolve) => {
      started.push(data.queryText);
      const now = (running.get(data.dataSourceId) ?? 0) + 1;
      running.set(data.dataSourceId, now);
      most.set(data.dataSourceId, Math.max(most.get(data.dataSourceId) ?? 0, now));
      release.set(data.queryText, () => {
        running.set(data.dataSourceId, (running.get(data.dataSourceId) ?? 1) - 1);
        resolve(1);
      });
      void id;
    });
  return {
    processor,
    started,
    most,
    release: (text: string) => release.get(text)?.(),
    releaseAll: () => [...release.values()].forEach((done) => done()),
  };
}

type Make = (limits: FairnessLimits, prefix?: string, lockDurationMs?: number) => QueueBackend;
const BACKENDS: [string, Make][] = [
  [
    "in-process",
    (limits) => {
      const queue = new MemoryQueue(limits);
      opened.push(queue);
      return queue;
    },
  ],
];
if (process.env.CI === "true" || (await redisAvailable())) {
  BACKENDS.push([
    "BullMQ",
    (limits, prefix = PREFIX, lockDurationMs) => {
      const queue = new BullmqQueue({
        redisUrl: TEST_REDIS_URL,
        prefix,
        listQueueNames: async () => ["queries", "scheduled_queries"],
        fairness: limits,
        ...(lockDurationMs ? { lockDurationMs, stalledIntervalMs: 500 } : {}),
      });
      opened.push(queue);
      return queue;
    },
  ]);
}

describe.each(BACKENDS)("fair queues: %s", (name, make) => {
  it("runs at most the data source's limit at once, and other data sources go ahead", async () => {
    const prefix = `${PREFIX}_limit_${name}`;
    const held = heldJobs();
    const queue = make({ perDataSource: 2, waitingPerUser: 0 }, prefix);
    await queue.startWorker(held.processor, 4);
    if (name === "BullMQ") {
      // A second worker process on the same Redis: the limit holds across both.
      await make({ perDataSource: 2, waitingPerUser: 0 }, prefix).startWorker(held.processor, 4);
    }
    const slow = [];
    for (let i = 0; i < 5; i++) slow.push(await queue.enqueue(job({ dataSourceId: 11 })));
    const other = await queue.enqueue(job({ dataSourceId: 12 }));
    await expect.poll(() => held.started.length, { timeout: 10_000 }).toBe(3);
    expect(held.started).toContain(other.data.queryText);
    // The first two run; the rest wait, and say so.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(held.most.get(11)).toBe(2);
    const status = await queue.status();
    expect(status.dataSources.find((d) => d.dataSourceId === 11)).toMatchObject({
      running: 2,
      waiting: 3,
      limit: 2,
    });
    expect((await queue.get(slow[4]!.id))?.status).toBe(1);
    // Finishing one lets the next one in.
    held.release(held.started[0]!);
    await expect.poll(() => held.started.length, { timeout: 10_000 }).toBe(4);
    held.releaseAll();
    await expect.poll(() => held.started.length, { timeout: 15_000 }).toBe(6);
    held.releaseAll();
    expect(held.most.get(11)).toBe(2);
  });

  it("starts people's runs before scheduled refreshes of the same data source", async () => {
    const held = heldJobs();
    const queue = make({ perDataSource: 1, waitingPerUser: 0 }, `${PREFIX}_order_${name}`);
    await queue.startWorker(held.processor, 4);
    const first = job({ dataSourceId: 21 });
    await queue.enqueue(first);
    await expect.poll(() => held.started.length, { timeout: 10_000 }).toBe(1);
    const scheduled = job({ dataSourceId: 21, scheduled: true, userId: null });
    scheduled.queueName = "scheduled_queries";
    await queue.enqueue(scheduled);
    const person = job({ dataSourceId: 21 });
    await queue.enqueue(person);
    held.release(first.queryText);
    await expect.poll(() => held.started.length, { timeout: 10_000 }).toBe(2);
    expect(held.started[1]).toBe(person.queryText);
    held.release(person.queryText);
    await expect.poll(() => held.started.length, { timeout: 10_000 }).toBe(3);
    expect(held.started[2]).toBe(scheduled.queryText);
    held.releaseAll();
  });

  it("refuses a user's run beyond their waiting limit, clearly, and counts nobody else's", async () => {
    const held = heldJobs();
    const queue = make({ perDataSource: 1, waitingPerUser: 2 }, `${PREFIX}_user_${name}`);
    await queue.startWorker(held.processor, 1);
    await queue.enqueue(job({ dataSourceId: 31 }));
    await expect.poll(() => held.started.length, { timeout: 10_000 }).toBe(1);
    const waiting = [
      await queue.enqueue(job({ dataSourceId: 31 })),
      await queue.enqueue(job({ dataSourceId: 31 })),
    ];
    const refused = await queue.enqueue(job({ dataSourceId: 31 })).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(JobRefusalError);
    expect(refused).toMatchObject({ statusCode: 429, error: tooManyWaitingMessage(2) });
    // An identical run joins the waiting job instead of being refused.
    expect((await queue.enqueue(waiting[0]!.data)).id).toBe(waiting[0]!.id);
    // Another user and the scheduler are not counted against this one.
    await queue.enqueue(job({ dataSourceId: 31, userId: 6 }));
    await queue.enqueue(job({ dataSourceId: 31, userId: null, scheduled: true }));
    // Cancelling a waiting run makes room again.
    await queue.cancel(waiting[1]!.id);
    await queue.enqueue(job({ dataSourceId: 31 }));
    held.releaseAll();
  });

  it.runIf(name === "BullMQ")(
    "frees a dead worker's slot: the waiting job runs on the other worker",
    async () => {
      const prefix = `${PREFIX}_dead`;
      const limits = { perDataSource: 1, waitingPerUser: 0 };
      const doomed = make(limits, prefix, 1000) as BullmqQueue;
      await doomed.startWorker(() => new Promise<number>(() => {}), 1);
      const lost = await doomed.enqueue(job({ dataSourceId: 41 }));
      await expect.poll(async () => (await doomed.get(lost.id))?.status).toBe(2);
      await doomed.close({ simulateCrash: true });
      const held = heldJobs();
      const survivor = make(limits, prefix, 1000);
      await survivor.startWorker(held.processor, 1);
      const next = job({ dataSourceId: 41 });
      await survivor.enqueue(next);
      await expect.poll(() => held.started, { timeout: 15_000 }).toEqual([next.queryText]);
      held.releaseAll();
    },
  );
});
