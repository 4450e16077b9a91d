import { describe, expect, it } from "vitest";
import { refreshChoices, refreshInterval } from "./refreshInterval";

describe("dashboard auto-refresh interval", () => {
  const allowed = [10, 60, 300, 3600];
  it("is none without a numeric flag", () => {
    expect(refreshInterval(null, allowed)).toBeNull();
    expect(refreshInterval("", allowed)).toBeNull();
    expect(refreshInterval("soon", allowed)).toBeNull();
    expect(refreshInterval("-5", allowed)).toBeNull();
  });
  it("is clamped to at least 30 s and the smallest allowed interval", () => {
    expect(refreshInterval("5", allowed)).toBe(30);
    expect(refreshInterval("300", allowed)).toBe(300);
    expect(refreshInterval("40", [60, 300])).toBe(60);
  });
  it("offers the configured intervals, those under 30 s disabled", () => {
    expect(refreshChoices(allowed)).toEqual([
      { seconds: 10, disabled: true },
      { seconds: 60, disabled: false },
      { seconds: 300, disabled: false },
      { seconds: 3600, disabled: false },
    ]);
  });
});
