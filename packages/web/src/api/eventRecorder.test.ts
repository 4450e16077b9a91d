import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createEventRecorder } from "./eventRecorder";
import type { UsageEvent } from "./types";

describe("event recorder", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("sends events in one batch 1 s after the last one", () => {
    const batches: UsageEvent[][] = [];
    let clock = 100;
    const record = createEventRecorder({
      send: async (events) => batches.push(events),
      screenResolution: () => "1280x800",
      now: () => clock++,
    });
    record("view", "dashboard", 3);
    vi.advanceTimersByTime(900);
    record("create", "query");
    vi.advanceTimersByTime(999);
    expect(batches).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(batches).toEqual([
      [
        {
          action: "view",
          object_type: "dashboard",
          object_id: 3,
          timestamp: 100,
          screen_resolution: "1280x800",
        },
        {
          action: "create",
          object_type: "query",
          object_id: null,
          timestamp: 101,
          screen_resolution: "1280x800",
        },
      ],
    ]);
    record("view", "page", "home");
    vi.advanceTimersByTime(1000);
    expect(batches).toHaveLength(2);
    expect(batches[1]).toHaveLength(1);
  });

  it("swallows send failures", async () => {
    const record = createEventRecorder({
      send: () => Promise.reject(new Error("offline")),
      screenResolution: () => "1x1",
    });
    record("view", "page");
    vi.advanceTimersByTime(1000);
    await vi.runAllTimersAsync();
  });
});
