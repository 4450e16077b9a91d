import { describe, expect, it } from "vitest";
import {
  dynamicDateName,
  dynamicDateOptions,
  dynamicDateRangeName,
  dynamicDateRangeOptions,
  isDynamicDate,
  isDynamicDateRange,
  resolveDynamicDate,
  resolveDynamicDateRange,
} from "./dynamicDates";

// Wednesday 2024-05-15 10:20:30 UTC
const now = new Date(Date.UTC(2024, 4, 15, 10, 20, 30));
const utc = { utc: true };
const range = (
  v: string,
  type: "date-range" | "datetime-range" | "datetime-range-with-seconds" = "date-range",
) => resolveDynamicDateRange(v, type, now, utc);

describe("dynamic dates", () => {
  it("recognises values", () => {
    expect(isDynamicDate("d_now")).toBe(true);
    expect(isDynamicDate("d_yesterday")).toBe(true);
    expect(isDynamicDate("d_last_week")).toBe(false);
    expect(isDynamicDate("now")).toBe(false);
    expect(isDynamicDate("d_constructor")).toBe(false);
    expect(isDynamicDate(5)).toBe(false);
    expect(dynamicDateName("d_now")).toBe("Today/Now");
    expect(dynamicDateOptions().map((o) => o.value)).toEqual(["d_now", "d_yesterday"]);
  });

  it("resolves Today/Now and Yesterday by type", () => {
    expect(resolveDynamicDate("d_now", "date", now, utc)).toBe("2024-05-15");
    expect(resolveDynamicDate("d_now", "datetime-local", now, utc)).toBe("2024-05-15 10:20");
    expect(resolveDynamicDate("d_now", "datetime-with-seconds", now, utc)).toBe(
      "2024-05-15 10:20:30",
    );
    expect(resolveDynamicDate("d_yesterday", "date", now, utc)).toBe("2024-05-14");
    expect(resolveDynamicDate("2024-01-01", "date", now, utc)).toBeNull();
  });
});

describe("dynamic date ranges", () => {
  it("recognises values", () => {
    expect(isDynamicDateRange("d_last_7_days")).toBe(true);
    expect(isDynamicDateRange("d_now")).toBe(false);
    expect(dynamicDateRangeName("d_last_12_months")).toBe("Last 12 months");
    expect(dynamicDateRangeOptions()).toHaveLength(17);
  });

  it("resolves calendar ranges", () => {
    expect(range("d_today")).toEqual({ start: "2024-05-15", end: "2024-05-15" });
    expect(range("d_yesterday")).toEqual({ start: "2024-05-14", end: "2024-05-14" });
    // Weeks start on Sunday.
    expect(range("d_this_week")).toEqual({ start: "2024-05-12", end: "2024-05-18" });
    expect(range("d_last_week")).toEqual({ start: "2024-05-05", end: "2024-05-11" });
    expect(range("d_this_month")).toEqual({ start: "2024-05-01", end: "2024-05-31" });
    expect(range("d_last_month")).toEqual({ start: "2024-04-01", end: "2024-04-30" });
    expect(range("d_this_year")).toEqual({ start: "2024-01-01", end: "2024-12-31" });
    expect(range("d_last_year")).toEqual({ start: "2023-01-01", end: "2023-12-31" });
  });

  it("resolves ranges ending now or today", () => {
    expect(range("d_last_hour", "datetime-range-with-seconds")).toEqual({
      start: "2024-05-15 09:20:30",
      end: "2024-05-15 10:20:30",
    });
    expect(range("d_last_8_hours", "datetime-range")).toEqual({
      start: "2024-05-15 02:20",
      end: "2024-05-15 10:20",
    });
    expect(range("d_last_24_hours", "datetime-range")).toEqual({
      start: "2024-05-14 10:20",
      end: "2024-05-15 10:20",
    });
    expect(range("d_last_7_days", "datetime-range-with-seconds")).toEqual({
      start: "2024-05-08 00:00:00",
      end: "2024-05-15 23:59:59",
    });
    expect(range("d_last_14_days")).toEqual({ start: "2024-05-01", end: "2024-05-15" });
    expect(range("d_last_30_days")).toEqual({ start: "2024-04-15", end: "2024-05-15" });
    expect(range("d_last_60_days")).toEqual({ start: "2024-03-16", end: "2024-05-15" });
    expect(range("d_last_90_days")).toEqual({ start: "2024-02-15", end: "2024-05-15" });
    expect(range("d_last_12_months")).toEqual({ start: "2023-05-15", end: "2024-05-15" });
  });

  it("ignores other values", () => {
    expect(range("d_last_3_days")).toBeNull();
    expect(range("2024-01-01--2024-02-01")).toBeNull();
  });
});
