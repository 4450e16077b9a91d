import { describe, expect, it } from "vitest";
import {
  durationHumanize,
  formatElapsed,
  formatRuntime,
  intervalToSeconds,
  prettySize,
  refreshIntervalLabel,
  relativeTime,
  schedulePhrase,
  secondsToInterval,
} from "./format";

describe("prettySize", () => {
  it("steps by 1024 from bytes to PB", () => {
    expect(prettySize(0)).toBe("0 bytes");
    expect(prettySize(512)).toBe("512 bytes");
    expect(prettySize(1024)).toBe("1 KB");
    expect(prettySize(1536)).toBe("1.500 KB");
    expect(prettySize(1024 ** 2)).toBe("1 MB");
    expect(prettySize(1024 ** 3 * 2)).toBe("2 GB");
    expect(prettySize(1024 ** 4)).toBe("1 TB");
    expect(prettySize(1024 ** 5)).toBe("1 PB");
    expect(prettySize(1024 ** 6)).toBe("1024 PB");
    expect(prettySize("2048")).toBe("2 KB");
    expect(prettySize("abc")).toBe("?");
    expect(prettySize(null)).toBe("?");
  });
});

describe("intervals", () => {
  it("picks the largest unit", () => {
    expect(secondsToInterval(30)).toEqual({ count: 30, unit: "second" });
    expect(secondsToInterval(300)).toEqual({ count: 5, unit: "minute" });
    expect(secondsToInterval(7200)).toEqual({ count: 2, unit: "hour" });
    expect(secondsToInterval(86400)).toEqual({ count: 1, unit: "day" });
    expect(secondsToInterval(604800)).toEqual({ count: 1, unit: "week" });
    expect(secondsToInterval(10 * 86400)).toEqual({ count: 10, unit: "day" });
    expect(secondsToInterval(0)).toBeNull();
    expect(intervalToSeconds(3, "week")).toBe(1814400);
  });

  it("humanizes", () => {
    expect(durationHumanize(300)).toBe("5 minutes");
    expect(durationHumanize(3600)).toBe("1 hour");
    expect(durationHumanize(3600, { omitSingleValueNumber: true })).toBe("hour");
    expect(durationHumanize(1209600)).toBe("2 weeks");
    expect(durationHumanize(null)).toBe("-");
    expect(refreshIntervalLabel(60)).toBe("Every minute");
    expect(refreshIntervalLabel(300)).toBe("Every 5 minutes");
    expect(refreshIntervalLabel(null)).toBe("Never");
  });

  it("phrases schedules", () => {
    expect(schedulePhrase(null)).toEqual({ short: "Never", full: "Never" });
    expect(schedulePhrase({ interval: 300 })).toEqual({
      short: "Every 5 minutes",
      full: "Refreshes every 5 minutes",
    });
    expect(schedulePhrase({ interval: "86400", time: "10:15" }, (t) => `${t} local`)).toEqual({
      short: "Every day",
      full: "Refreshes every day at 10:15 local",
    });
    expect(schedulePhrase({ interval: 1209600, time: "00:15", day_of_week: "Monday" }).full).toBe(
      "Refreshes every 2 weeks at 00:15 on Monday",
    );
  });
});

describe("durations", () => {
  it("formats runtimes", () => {
    expect(formatRuntime(0.3456)).toBe("0.35 seconds");
    expect(formatRuntime(1)).toBe("1 second");
    expect(formatRuntime(125)).toBe("2 minutes");
    expect(formatRuntime(null)).toBe("-");
    expect(formatElapsed(65)).toBe("00:01:05");
    expect(formatElapsed(3 * 3600 + 1.9)).toBe("03:00:01");
  });

  it("words relative times", () => {
    const now = new Date(Date.UTC(2024, 0, 10, 12));
    const ago = (s: number) => relativeTime(new Date(now.getTime() - s * 1000), now);
    expect(ago(10)).toBe("just now");
    expect(ago(60)).toBe("a minute ago");
    expect(ago(5 * 60)).toBe("5 minutes ago");
    expect(ago(3600)).toBe("an hour ago");
    expect(ago(5 * 3600)).toBe("5 hours ago");
    expect(ago(30 * 3600)).toBe("a day ago");
    expect(ago(3 * 86400)).toBe("3 days ago");
    expect(ago(40 * 86400)).toBe("a month ago");
    expect(ago(100 * 86400)).toBe("3 months ago");
    expect(ago(400 * 86400)).toBe("a year ago");
    expect(ago(3 * 365 * 86400)).toBe("3 years ago");
    expect(ago(-2 * 3600)).toBe("in 2 hours");
  });
});
