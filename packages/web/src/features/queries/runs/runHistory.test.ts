import { describe, expect, it } from "vitest";
import type { QueryRun } from "../../../api/queryRuns";
import { durationText, runnerText } from "./RunHistoryDrawer";

const run = (over: Partial<QueryRun>): QueryRun => ({
  id: 1,
  query_id: 1,
  user_id: null,
  user: null,
  scheduled: false,
  status: "success",
  error: null,
  rows: 1,
  query_result_id: 1,
  started_at: "2026-01-01T00:00:00Z",
  runtime: 0.1,
  ...over,
});

describe("run history texts", () => {
  it("says who ran it: the scheduler, a user, or the API", () => {
    expect(runnerText(run({ scheduled: true }))).toBe("Scheduler");
    expect(runnerText(run({ user_id: 3, user: { id: 3, name: "Ada" } }))).toBe("Ada");
    expect(runnerText(run({}))).toBe("API");
  });

  it("reads durations in seconds and minutes", () => {
    expect(durationText(0.123)).toBe("0.12 s");
    expect(durationText(42.4)).toBe("42 s");
    expect(durationText(185)).toBe("3 min 5 s");
  });
});
