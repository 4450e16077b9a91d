import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_REDIS_URL, redisAvailable, deleteRedisKeys } from "../testing/services";
import { BullmqQueue } from "./bullmqQueue";
import { createExecutionService } from "./service";
import { openTestStore, type TestStore } from "./testSupport";
import type { ExecuteRequest, JobProcessor } from "./types";

const PREFIX = `sltest_svc_${crypto.randomBytes(4).toString("hex")}`;
let store: TestStore;
const queues: BullmqQueue[] = [];

function queue(): BullmqQueue {
  const created = new BullmqQueue({
    redisUrl: TEST_REDIS_URL,
    prefix: PREFIX,
    listQueueNames: async () => ["queries"],
  });
  queues.push(created);
  return created;
}

/** Holds every job for a while (long enough for the second server to ask), then answers 1. */
const slow: JobProcessor = (_data, _id, signal) =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => resolve(1), 3000);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(new Error("cancelled"));
    });
  });

describe.runIf(await redisAvailable())("execution service on BullMQ", () => {
  beforeAll(async () => {
    store = await openTestStore();
  });

  afterAll(async () => {
    await Promise.all(queues.map((q) => q.close()));
    await deleteRedisKeys(PREFIX);
    await store?.close();
  });

  it("two servers on the same Redis share one job for the same text", async () => {
    const sourceId = await store.addDataSource("sqlite", { dbpath: "none.db" });
    // Two API servers (no worker of their own) and one worker process, all on one Redis.
    const first = createExecutionService({ db: store.database.db, backend: queue(), waitMs: 0 });
    const second = createExecutionService({ db: store.database.db, backend: queue(), waitMs: 0 });
    await queue().startWorker(slow, 1);

    const request = (text: string): ExecuteRequest => ({
      orgId: store.orgId,
      dataSourceId: sourceId,
      queryText: text,
      queryId: null,
      userId: store.admin.id,
      scheduled: false,
      maxAge: 0,
    });
    const a = await first.execute(request("SELECT count(*) FROM orders"));
    // The same text with other comments and spacing hashes the same (§6.1).
    const b = await second.execute(request("SELECT count(*)\n  FROM orders /* again */"));
    const other = await second.execute(request("SELECT count(*) FROM customers"));
    expect(a.kind).toBe("job");
    expect(b.kind).toBe("job");
    if (a.kind !== "job" || b.kind !== "job" || other.kind !== "job") return;
    expect(b.job.id).toBe(a.job.id);
    expect(other.job.id).not.toBe(a.job.id);
    // Either server can follow the shared job to its end.
    const done = await first.getJob(a.job.id);
    expect(done?.queryHash).toBe((await second.getJob(b.job.id))?.queryHash);
    await expect
      .poll(async () => (await second.getJob(a.job.id))?.status, { timeout: 15_000 })
      .toBe(3);
    await second.cancel(other.job.id);
  });
});
