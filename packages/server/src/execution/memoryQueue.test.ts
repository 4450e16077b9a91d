import { afterEach, describe, expect, it, vi } from "vitest";
import { MemoryQueue } from "./memoryQueue";
import { FAILED_JOB_TTL_MS, JOB_TTL_MS, type JobData } from "./types";

function job(text: string): JobData {
  return {
    orgId: 1,
    dataSourceId: 1,
    queryText: text,
    queryHash: text,
    queryId: null,
    userId: null,
    scheduled: false,
    queueName: "queries",
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("in-process queue", () => {
  it("forgets finished jobs after their TTL: 12 h for results, 7 days for failures", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const queue = new MemoryQueue();
    await queue.startWorker(async (data) => {
      if (data.queryText === "bad") throw new Error("boom");
      return 7;
    }, 2);
    const ok = await queue.enqueue(job("good"));
    const bad = await queue.enqueue(job("bad"));
    expect((await queue.waitFor(ok.id, 1000))?.status).toBe(3);
    expect((await queue.waitFor(bad.id, 1000))?.status).toBe(4);

    vi.setSystemTime(Date.now() + JOB_TTL_MS - 1000);
    expect((await queue.get(ok.id))?.resultId).toBe(7);
    vi.setSystemTime(Date.now() + 2000);
    expect(await queue.get(ok.id)).toBeNull();
    expect((await queue.get(bad.id))?.error).toBe("boom");

    const later = await queue.enqueue(job("bad"));
    await queue.waitFor(later.id, 1000);
    vi.setSystemTime(Date.now() + FAILED_JOB_TTL_MS - JOB_TTL_MS);
    expect(await queue.get(bad.id)).toBeNull();
    // Failed 12 h after the first failure: still within its own TTL.
    expect((await queue.get(later.id))?.status).toBe(4);
    await queue.close();
  });
});
