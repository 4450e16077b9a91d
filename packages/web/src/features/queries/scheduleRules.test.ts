import { describe, expect, it } from "vitest";
import { groupIntervals, localToUtc, utcToLocal, withInterval } from "./scheduleRules";

describe("schedule rules", () => {
  const weekly = { interval: 604800, time: "10:00", day_of_week: "Friday", until: "2030-01-01" };

  it("Never clears everything", () => {
    expect(withInterval(weekly, null)).toBeNull();
  });

  it("minutes and hours clear the time and the weekday, keep until", () => {
    expect(withInterval(weekly, 3600)).toEqual({
      interval: 3600,
      time: null,
      day_of_week: null,
      until: "2030-01-01",
    });
  });

  it("days default the time to 00:15 UTC and drop the weekday", () => {
    expect(withInterval(null, 86400)).toEqual({
      interval: 86400,
      time: "00:15",
      day_of_week: null,
      until: null,
    });
    expect(withInterval(weekly, 86400)?.day_of_week).toBeNull();
  });

  it("weeks default the weekday to Monday", () => {
    expect(withInterval(null, 604800)).toMatchObject({ time: "00:15", day_of_week: "Monday" });
  });

  it("groups the configured intervals by unit", () => {
    expect(groupIntervals([60, 300, 3600, 86400, 604800, 1209600])).toEqual({
      minute: [60, 300],
      hour: [3600],
      day: [86400],
      week: [604800, 1209600],
    });
  });

  it("converts local time to UTC and back", () => {
    expect(localToUtc("01:30", 120)).toBe("23:30");
    expect(utcToLocal("23:30", 120)).toBe("01:30");
  });
});
