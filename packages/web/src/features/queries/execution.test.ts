import type { Job, QueryResult } from "@sightline/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../../api/errors";
import {
  CACHED_RESULT_UNAVAILABLE,
  CONNECTION_FAILED_MESSAGE,
  UNKNOWN_EXECUTION_ERROR,
  pollDelay,
  retryDelay,
  runExecution,
  type ExecutionCalls,
  type ExecutionState,
} from "./execution";

const job = (status: Job["status"], extra: Partial<Job> = {}): Job => ({
  id: "j1",
  status,
  updated_at: 0,
  error: "",
  result: null,
  query_result_id: null,
  ...extra,
});

const result: QueryResult = {
  id: 7,
  query_hash: "h",
  query: "select 1",
  data: { columns: [{ name: "a", type: "integer" }], rows: [{ a: 1 }] },
  data_source_id: 1,
  runtime: 0.1,
  retrieved_at: "2024-01-01T00:00:00Z",
};

function setup(overrides: Partial<ExecutionCalls> = {}) {
  const states: ExecutionState[] = [];
  const calls: ExecutionCalls = {
    start: vi.fn(async () => ({ job: job(1) })),
    getJob: vi.fn(async () => job(1)),
    getResult: vi.fn(async () => result),
    cancelJob: vi.fn(async () => null),
    ...overrides,
  };
  const handle = runExecution(calls, (s) => states.push(s));
  const last = () => states[states.length - 1];
  return { calls, handle, states, last };
}

describe("execution", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("polls every 500 ms for 10 polls, then every 3 s", async () => {
    expect([0, 9, 10, 20].map(pollDelay)).toEqual([500, 500, 3000, 3000]);
    const { calls, handle } = setup();
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(500 * 10);
    expect(calls.getJob).toHaveBeenCalledTimes(10);
    await vi.advanceTimersByTimeAsync(2999);
    expect(calls.getJob).toHaveBeenCalledTimes(10);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls.getJob).toHaveBeenCalledTimes(11);
    handle.dispose();
  });

  it("goes waiting → processing → loading-result → done", async () => {
    const answers = [job(2), job(3, { query_result_id: 7 })];
    const { last, states } = setup({ getJob: vi.fn(async () => answers.shift()!) });
    await vi.advanceTimersByTimeAsync(0);
    expect(last().status).toBe("waiting");
    await vi.advanceTimersByTimeAsync(500);
    expect(last().status).toBe("processing");
    await vi.advanceTimersByTimeAsync(500);
    expect(states.map((s) => s.status)).toContain("loading-result");
    expect(last().status).toBe("done");
    expect(last().result?.id).toBe(7);
  });

  it("holds a result answered at once", async () => {
    const { last } = setup({ start: async () => ({ query_result: result }) });
    await vi.advanceTimersByTimeAsync(0);
    expect(last()).toMatchObject({ status: "done", result });
  });

  it("loads a stored result by id, retrying as for a job's result", async () => {
    let failures = 1;
    const getResult = vi.fn(async () => {
      if (failures-- > 0) throw new ApiError(0, undefined, undefined, "Failed to fetch");
      return result;
    });
    const { states, last } = setup({ start: async () => ({ query_result_id: 7 }), getResult });
    await vi.advanceTimersByTimeAsync(0);
    expect(getResult).toHaveBeenCalledWith(7);
    expect(last().status).toBe("loading-result");
    await vi.advanceTimersByTimeAsync(1000);
    expect(last()).toMatchObject({ status: "done", result });
    expect(states.map((s) => s.status)).not.toContain("processing");
  });

  it("keeps the id of a result read in the reduced form (API keys), for its downloads", async () => {
    const reduced = { data: result.data, retrieved_at: result.retrieved_at } as QueryResult;
    const polled = setup({
      getJob: vi.fn(async () => job(3, { query_result_id: 9 })),
      getResult: vi.fn(async () => reduced),
    });
    await vi.advanceTimersByTimeAsync(500);
    expect(polled.last()).toMatchObject({ status: "done", result: { id: 9, data: result.data } });
    const inline = setup({
      start: async () => ({ job: job(3, { query_result_id: 8 }), query_result: reduced }),
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(inline.last().result?.id).toBe(8);
  });

  it("keeps the job's error when it fails", async () => {
    const { last } = setup({ getJob: async () => job(4, { error: "no such table: x" }) });
    await vi.advanceTimersByTimeAsync(500);
    expect(last()).toMatchObject({ status: "failed", error: "no such table: x" });
  });

  it("retries a result load after 1, 2 and 4 s, then gives the connection message", async () => {
    expect([0, 1, 2, 3].map(retryDelay)).toEqual([1000, 2000, 4000, 8000]);
    const getResult = vi.fn(async () => {
      throw new ApiError(0, undefined, undefined, "Failed to fetch");
    });
    const { last } = setup({
      start: async () => ({ job: job(3, { query_result_id: 7 }) }),
      getResult,
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(getResult).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(getResult).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(2000);
    expect(getResult).toHaveBeenCalledTimes(3);
    expect(last().status).toBe("loading-result");
    await vi.advanceTimersByTimeAsync(4000);
    expect(getResult).toHaveBeenCalledTimes(4);
    expect(last()).toMatchObject({ status: "failed", error: CONNECTION_FAILED_MESSAGE });
  });

  it("fails with the connection message when a poll cannot reach the server", async () => {
    const { last } = setup({
      getJob: async () => {
        throw new ApiError(0, undefined, undefined, "Failed to fetch");
      },
    });
    await vi.advanceTimersByTimeAsync(500);
    expect(last()).toMatchObject({ status: "failed", error: CONNECTION_FAILED_MESSAGE });
  });

  it("cancels while waiting: Cancelling…, then the job's cancelled error", async () => {
    let cancelled = false;
    const { handle, calls, last } = setup({
      getJob: async () => (cancelled ? job(4, { error: "Query cancelled by user." }) : job(1)),
      cancelJob: vi.fn(async () => {
        cancelled = true;
        return null;
      }),
    });
    await vi.advanceTimersByTimeAsync(0);
    await handle.cancel();
    expect(calls.cancelJob).toHaveBeenCalledWith("j1");
    expect(last().status).toBe("cancelling");
    await vi.advanceTimersByTimeAsync(500);
    expect(last()).toMatchObject({ status: "failed", error: "Query cancelled by user." });
  });

  it("cancels a job whose start answer is still on its way", async () => {
    let answer!: (value: { job: Job }) => void;
    const { handle, calls, last } = setup({
      start: () => new Promise((resolve) => (answer = resolve)),
      getJob: async () => job(4, { error: "Query cancelled by user." }),
    });
    await handle.cancel();
    expect(last().status).toBe("cancelling");
    expect(calls.cancelJob).not.toHaveBeenCalled();
    answer({ job: job(2) });
    await vi.advanceTimersByTimeAsync(0);
    expect(calls.cancelJob).toHaveBeenCalledWith("j1");
    await vi.advanceTimersByTimeAsync(500);
    expect(last()).toMatchObject({ status: "failed", error: "Query cancelled by user." });
  });

  it("maps refused starts per the error catalogue", async () => {
    const cases: [unknown, string][] = [
      [new ApiError(404, "nope", { message: "nope" }), CACHED_RESULT_UNAVAILABLE],
      [new ApiError(500, "boom", { message: "boom" }), "boom"],
      [new ApiError(500, undefined, undefined), UNKNOWN_EXECUTION_ERROR],
      // Offline: the run never reached the server.
      [new ApiError(0, undefined, undefined, "Failed to fetch"), CONNECTION_FAILED_MESSAGE],
      [
        new ApiError(400, undefined, { job: job(4, { error: "Missing parameter value for: p" }) }),
        "Missing parameter value for: p",
      ],
      [
        new ApiError(403, undefined, { job: job(4, { error: "You do not have permission" }) }),
        "You do not have permission",
      ],
    ];
    for (const [error, message] of cases) {
      const { last } = setup({
        start: async () => {
          throw error;
        },
      });
      await vi.advanceTimersByTimeAsync(0);
      expect(last()).toMatchObject({ status: "failed", error: message });
    }
  });

  it("reports nothing after dispose", async () => {
    const { handle, states } = setup();
    await vi.advanceTimersByTimeAsync(0);
    const count = states.length;
    handle.dispose();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(states.length).toBe(count);
  });
});
