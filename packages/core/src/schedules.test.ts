import { describe, expect, it } from "vitest";
import {
  scheduleProblem,
  isDue,
  isOutdated,
  isScheduleActive,
  isScheduleExpired,
  isValidSchedule,
  nextRunAt,
  normalizeSchedule,
  type Schedule,
} from "./schedules";

const HOUR = 3_600_000;
const MIN = 60_000;
const DAY = 24 * HOUR;
const sched = (s: Partial<Schedule>): Schedule => ({
  interval: null,
  time: null,
  day_of_week: null,
  until: null,
  ...s,
});
const hhmm = (d: Date) =>
  `${String(d.getUTCHours()).padStart(2, "0")}:${String(d.getUTCMinutes()).padStart(2, "0")}`;
const ago = (now: Date, ms: number) => new Date(now.getTime() - ms);
// Wednesday 2024-05-15 14:30:00 UTC
const now = new Date(Date.UTC(2024, 4, 15, 14, 30, 0));
const due = (s: Schedule | null, previous: Date | null, failures = 0, at = now) =>
  isDue(s, { previous, failures, now: at });

describe("isDue (api-queries §7 test facts)", () => {
  it("interval without time", () => {
    const hourly = sched({ interval: 3600 });
    expect(due(hourly, ago(now, 2 * HOUR))).toBe(true);
    expect(due(hourly, ago(now, 30 * MIN))).toBe(false);
    expect(due(sched({ interval: "3600" }), ago(now, 2 * HOUR))).toBe(true);
  });

  it("daily at a time three hours ago, last run yesterday", () => {
    const s = sched({ interval: 86400, time: hhmm(ago(now, 3 * HOUR)) });
    expect(due(s, ago(now, DAY))).toBe(true);
  });

  it("daily at 23:00, ran 23:07 the day before, now 20:10 → not due", () => {
    const s = sched({ interval: 86400, time: "23:00" });
    const previous = new Date(Date.UTC(2015, 9, 15, 23, 7));
    expect(due(s, previous, 0, new Date(Date.UTC(2015, 9, 16, 20, 10)))).toBe(false);
    expect(due(s, previous, 0, new Date(Date.UTC(2015, 9, 16, 23, 1)))).toBe(true);
  });

  it("23:59 schedule checked at 00:01 after a run two days ago at 23:59 → due", () => {
    const s = sched({ interval: 86400, time: "23:59" });
    const at = new Date(Date.UTC(2024, 4, 15, 0, 1));
    expect(due(s, new Date(Date.UTC(2024, 4, 13, 23, 59)), 0, at)).toBe(true);
  });

  it("every three days", () => {
    const s = sched({ interval: 3 * 86400, time: hhmm(now) });
    expect(due(s, ago(now, 4 * DAY))).toBe(true);
    expect(due(s, ago(now, 2 * DAY))).toBe(false);
    const noTime = sched({ interval: 3 * 86400 });
    expect(due(noTime, ago(now, 4 * DAY))).toBe(true);
    expect(due(noTime, ago(now, 2 * DAY))).toBe(false);
  });

  it("every three weeks on a weekday", () => {
    const thisThursday = new Date(now.getTime() + DAY);
    const thisTuesday = ago(now, DAY);
    const time = hhmm(ago(now, HOUR));
    const onTuesday = sched({ interval: 3 * 604800, time, day_of_week: "Tuesday" });
    expect(due(onTuesday, ago(thisThursday, 21 * DAY))).toBe(true);
    const onThursday = sched({ interval: 3 * 604800, time, day_of_week: "Thursday" });
    expect(due(onThursday, ago(thisTuesday, 21 * DAY))).toBe(false);
  });

  it("backs off 2^failures minutes", () => {
    const hourly = sched({ interval: 3600 });
    expect(due(hourly, ago(now, 2 * HOUR), 5)).toBe(true);
    expect(due(hourly, ago(now, 2 * HOUR), 10)).toBe(false);
    expect(due(hourly, ago(now, 2 * HOUR), 32)).toBe(false);
    const minutely = sched({ interval: 60 });
    expect(due(minutely, ago(now, 16 * MIN), 4)).toBe(false);
    // Due strictly after 1 + 16 minutes.
    expect(due(minutely, ago(now, 17 * MIN + 1000), 4)).toBe(true);
  });

  it("a query that never ran is due", () => {
    expect(due(sched({ interval: 3600 }), null)).toBe(true);
  });

  it("skips disabled, empty, expired and invalid schedules", () => {
    expect(due(null, null)).toBe(false);
    expect(due(sched({ interval: 60, disabled: true }), null)).toBe(false);
    expect(due(sched({}), null)).toBe(false);
    expect(due(sched({ interval: 60, until: "2024-05-15" }), null)).toBe(false);
    expect(due(sched({ interval: 60, until: "2024-05-16" }), null)).toBe(true);
    expect(due(sched({ interval: 86400, time: "25:00" }), ago(now, 2 * DAY))).toBe(false);
    expect(due(sched({ interval: 604800, day_of_week: "Caturday" }), ago(now, 8 * DAY))).toBe(
      false,
    );
  });
});

describe("nextRunAt", () => {
  it("adds the interval or moves to the set time", () => {
    const prev = new Date(Date.UTC(2024, 4, 15, 10, 0, 5));
    expect(nextRunAt(sched({ interval: 600 }), prev)?.toISOString()).toBe(
      "2024-05-15T10:10:05.000Z",
    );
    expect(nextRunAt(sched({ interval: 86400, time: "09:30" }), prev)?.toISOString()).toBe(
      "2024-05-16T09:30:05.000Z",
    );
    // Clock later than the previous run: counts from the day before.
    expect(nextRunAt(sched({ interval: 86400, time: "11:00" }), prev)?.toISOString()).toBe(
      "2024-05-15T11:00:05.000Z",
    );
    // Weekly on Monday after a Wednesday run.
    expect(
      nextRunAt(
        sched({ interval: 604800, time: "08:00", day_of_week: "Monday" }),
        prev,
      )?.toISOString(),
    ).toBe("2024-05-20T08:00:05.000Z");
  });

  it("returns null when the back-off overflows", () => {
    expect(nextRunAt(sched({ interval: 60 }), now, 40)).toBeNull();
    expect(nextRunAt(sched({ interval: 60 }), now, 3)?.getTime()).toBe(now.getTime() + 9 * MIN);
  });
});

describe("outdated queries", () => {
  it("prefers the scheduler's own record over a stale result", () => {
    const q = {
      schedule: { interval: 3600 },
      latestResultAt: ago(now, 5 * HOUR),
      lastScheduledAt: ago(now, 10 * MIN),
    };
    expect(isOutdated(q, now)).toBe(false);
    expect(isOutdated({ ...q, lastScheduledAt: null }, now)).toBe(true);
  });

  it("treats missing keys as null and counts failures", () => {
    expect(isOutdated({ schedule: { interval: "3600" } }, now)).toBe(true);
    expect(
      isOutdated(
        { schedule: { interval: 3600 }, latestResultAt: ago(now, 2 * HOUR), schedule_failures: 10 },
        now,
      ),
    ).toBe(false);
    expect(isOutdated({ schedule: null }, now)).toBe(false);
  });
});

describe("schedule helpers", () => {
  it("normalizes stored schedules", () => {
    expect(normalizeSchedule({ interval: "3600" })).toEqual({
      interval: "3600",
      time: null,
      day_of_week: null,
      until: null,
    });
    expect(normalizeSchedule({ interval: 60, disabled: true })?.disabled).toBe(true);
    expect(normalizeSchedule(null)).toBeNull();
    expect(normalizeSchedule("x")).toBeNull();
  });

  it("stops at 00:00 UTC of the until date", () => {
    const s = sched({ interval: 60, until: "2024-05-16" });
    expect(isScheduleExpired(s, new Date(Date.UTC(2024, 4, 15, 23, 59)))).toBe(false);
    expect(isScheduleExpired(s, new Date(Date.UTC(2024, 4, 16, 0, 0)))).toBe(true);
    expect(isScheduleActive(s, new Date(Date.UTC(2024, 4, 16, 0, 0)))).toBe(false);
  });

  it("validates", () => {
    expect(isValidSchedule(sched({ interval: 60 }))).toBe(true);
    expect(isValidSchedule(sched({ interval: 0 }))).toBe(false);
    expect(isValidSchedule(sched({ interval: "abc" }))).toBe(false);
    expect(isValidSchedule(sched({ interval: 60, until: "tomorrow" }))).toBe(false);
  });

  it("accepts what Redash clients send", () => {
    for (const schedule of [
      null,
      undefined,
      { interval: 3600, time: null, day_of_week: null, until: null },
      { interval: "3600" },
      { interval: 86400, time: "23:59", day_of_week: null, until: "2030-12-31" },
      { interval: 604800, time: "00:00", day_of_week: "Sunday", until: null },
      { interval: null, time: null, day_of_week: null, until: null },
      { interval: 60, time: "", until: "" },
      { interval: 60, disabled: true },
    ]) {
      expect(scheduleProblem(schedule), JSON.stringify(schedule)).toBeNull();
    }
  });

  it.each([
    [{ interval: "abc" }, "schedule.interval"],
    [{ interval: -5 }, "schedule.interval"],
    [{ interval: 0 }, "schedule.interval"],
    [{ interval: 1e20 }, "schedule.interval"],
    [{ interval: 1.5 }, "schedule.interval"],
    [{ interval: true }, "schedule.interval"],
    [{ interval: 60, time: "25:99" }, "schedule.time"],
    [{ interval: 60, time: "12:60" }, "schedule.time"],
    [{ interval: 60, time: 1200 }, "schedule.time"],
    [{ interval: 60, day_of_week: "Funday" }, "schedule.day_of_week"],
    [{ interval: 60, day_of_week: 1 }, "schedule.day_of_week"],
    [{ interval: 60, until: "notadate" }, "schedule.until"],
    [{ interval: 60, until: "2024-02-30" }, "schedule.until"],
    [{ interval: 60, disabled: "yes" }, "schedule.disabled"],
    ["3600", "schedule must be an object"],
    [[3600], "schedule must be an object"],
  ])("refuses %j naming %s", (schedule, field) => {
    expect(scheduleProblem(schedule)).toContain(field);
  });
});
