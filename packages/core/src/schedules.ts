// Refresh schedules of saved queries (api-queries §7): when the next run is due.

export const WEEKDAYS = [
  "Monday",
  "Tuesday",
  "Wednesday",
  "Thursday",
  "Friday",
  "Saturday",
  "Sunday",
] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export interface Schedule {
  /** Seconds; stored as a number or a numeric string. */
  interval: number | string | null;
  /** "HH:MM" in UTC. */
  time: string | null;
  day_of_week: string | null;
  /** "YYYY-MM-DD": the schedule stops at 00:00 UTC of that date. */
  until: string | null;
  /** Set by the server when evaluating the schedule failed. */
  disabled?: boolean;
}

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
// Python's datetime cannot go past year 9999: Redash treats that overflow as "never due".
const MAX_TIME_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
const TIME_RE = /^(\d{1,2}):(\d{2})$/;
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Reads a stored schedule, treating missing keys as null. Null when there is no schedule. */
export function normalizeSchedule(raw: unknown): Schedule | null {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return null;
  const r = raw as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === "string" && v !== "" ? v : null);
  const interval =
    typeof r.interval === "number" || (typeof r.interval === "string" && r.interval !== "")
      ? r.interval
      : null;
  const schedule: Schedule = {
    interval,
    time: str(r.time),
    day_of_week: str(r.day_of_week),
    until: str(r.until),
  };
  if (r.disabled === true) schedule.disabled = true;
  return schedule;
}

export function intervalSeconds(schedule: Pick<Schedule, "interval"> | null): number | null {
  if (!schedule || schedule.interval === null || schedule.interval === undefined) return null;
  const n = Number(schedule.interval);
  return Number.isFinite(n) && n > 0 ? n : null;
}

function parseTime(time: string): { hour: number; minute: number } | null {
  const m = TIME_RE.exec(time);
  if (!m) return null;
  const hour = Number(m[1]);
  const minute = Number(m[2]);
  return hour < 24 && minute < 60 ? { hour, minute } : null;
}

/** 00:00 UTC of the `until` date, or null. */
export function untilTime(schedule: Pick<Schedule, "until"> | null): Date | null {
  const m = schedule?.until ? DATE_RE.exec(schedule.until) : null;
  return m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
}

/** True once `until` has been reached (the until date itself no longer runs). */
export function isScheduleExpired(schedule: Pick<Schedule, "until"> | null, now: Date): boolean {
  const until = untilTime(schedule);
  return until !== null && until.getTime() <= now.getTime();
}

/** True when the schedule can be evaluated: positive interval, valid time, weekday and until. */
export function isValidSchedule(schedule: Schedule): boolean {
  if (intervalSeconds(schedule) === null) return false;
  if (schedule.time !== null && parseTime(schedule.time) === null) return false;
  if (
    schedule.day_of_week !== null &&
    !(WEEKDAYS as readonly string[]).includes(schedule.day_of_week)
  ) {
    return false;
  }
  if (schedule.until !== null && untilTime(schedule) === null) return false;
  return true;
}

/** The longest refresh interval a client may set: a year (Redash offers up to 30 days). */
export const MAX_INTERVAL_SECONDS = 365 * 86_400;

/** True when `until` is a real calendar date ("2024-02-30" is not). */
function isCalendarDate(until: string): boolean {
  const date = untilTime({ until });
  return date !== null && date.toISOString().slice(0, 10) === until;
}

/**
 * Why a schedule sent by a client cannot be stored, or null when it can. Redash clients send
 * `null` or `{interval, time, day_of_week, until}`, any of them null; the interval may be a
 * number or a numeric string, and an empty string counts as null (as normalizeSchedule reads it).
 */
export function scheduleProblem(raw: unknown): string | null {
  if (raw === null || raw === undefined) return null;
  if (typeof raw !== "object" || Array.isArray(raw)) return "schedule must be an object.";
  const r = raw as Record<string, unknown>;
  const given = (v: unknown) => v !== null && v !== undefined && v !== "";
  if (given(r.interval)) {
    const n = typeof r.interval === "string" ? Number(r.interval.trim()) : r.interval;
    if (typeof n !== "number" || !Number.isInteger(n) || n <= 0 || n > MAX_INTERVAL_SECONDS) {
      return `schedule.interval must be a whole number of seconds from 1 to ${MAX_INTERVAL_SECONDS} (a year).`;
    }
  }
  if (given(r.time) && (typeof r.time !== "string" || parseTime(r.time) === null)) {
    return 'schedule.time must be a time of day "HH:MM" (UTC), from 00:00 to 23:59.';
  }
  if (given(r.day_of_week) && !(WEEKDAYS as readonly unknown[]).includes(r.day_of_week)) {
    return `schedule.day_of_week must be one of ${WEEKDAYS.join(", ")}.`;
  }
  if (given(r.until) && (typeof r.until !== "string" || !isCalendarDate(r.until))) {
    return 'schedule.until must be a date "YYYY-MM-DD".';
  }
  if (r.disabled !== undefined && typeof r.disabled !== "boolean") {
    return "schedule.disabled must be true or false.";
  }
  return null;
}

/** Monday = 0 … Sunday = 6, as Python's weekday(). */
const weekdayOf = (ms: number) => (new Date(ms).getUTCDay() + 6) % 7;

function withClock(ms: number, hour: number, minute: number): number {
  const d = new Date(ms);
  // Only hour and minute change; seconds stay, as in Redash.
  d.setUTCHours(hour, minute);
  return d.getTime();
}

/**
 * When the next run is due after a run at `previous` (UTC), with a back-off of 2^failures
 * minutes after failures. Null means never (invalid schedule, or the back-off overflows).
 */
export function nextRunAt(schedule: Schedule, previous: Date, failures = 0): Date | null {
  if (!isValidSchedule(schedule)) return null;
  const interval = intervalSeconds(schedule) as number;
  const prev = previous.getTime();
  let next: number;
  if (schedule.time === null) {
    next = prev + interval * 1000;
  } else {
    const { hour, minute } = parseTime(schedule.time) as { hour: number; minute: number };
    // A run due at 23:59 and checked at 00:01 must not be skipped: anchor on the previous day.
    const anchor = withClock(prev, hour, minute);
    const base = anchor > prev ? anchor - DAY_MS : prev;
    let days = interval / 86_400;
    if (schedule.day_of_week !== null) {
      days += (WEEKDAYS as readonly string[]).indexOf(schedule.day_of_week) - weekdayOf(anchor);
    }
    next = withClock(base + days * DAY_MS, hour, minute);
  }
  if (failures > 0) {
    next += 2 ** failures * MINUTE_MS;
  }
  if (!Number.isFinite(next) || next > MAX_TIME_MS) return null;
  return new Date(next);
}

/** A schedule that never runs: none, disabled, nothing set, or past its `until`. */
export function isScheduleActive(schedule: Schedule | null, now: Date): schedule is Schedule {
  if (!schedule || schedule.disabled) return false;
  const { interval, time, day_of_week, until } = schedule;
  if (interval === null && time === null && day_of_week === null && until === null) return false;
  return !isScheduleExpired(schedule, now);
}

export interface DueInput {
  /** Start of the last run, or null when the query never ran. */
  previous: Date | null;
  failures?: number;
  now: Date;
}

/** Due when active and `now` is past the next run; a query that never ran is due at once. */
export function isDue(
  schedule: Schedule | null,
  { previous, failures = 0, now }: DueInput,
): boolean {
  if (!isScheduleActive(schedule, now)) return false;
  if (intervalSeconds(schedule) === null) return false;
  if (previous === null) return true;
  const next = nextRunAt(schedule, previous, failures);
  return next !== null && now.getTime() > next.getTime();
}

export interface ScheduledQueryState {
  /** The stored `schedule` value (any shape; missing keys count as null). */
  schedule: unknown;
  schedule_failures?: number | null;
  /** Start of the last scheduled execution recorded by the scheduler. */
  lastScheduledAt?: Date | null;
  /** `retrieved_at` of the latest result. */
  latestResultAt?: Date | null;
}

/** Whether the scheduler should refresh this query now (api-queries §7 steps 1–4). */
export function isOutdated(query: ScheduledQueryState, now: Date): boolean {
  const previous = query.lastScheduledAt ?? query.latestResultAt ?? null;
  return isDue(normalizeSchedule(query.schedule), {
    previous,
    failures: query.schedule_failures ?? 0,
    now,
  });
}
