// Refresh Schedule dialog rules (spec 2 §4): what a change of interval does to the other fields.
import { WEEKDAYS, secondsToInterval, type Schedule } from "@sightline/core";

export const DEFAULT_DAILY_TIME = "00:15";

export type IntervalGroup = "minute" | "hour" | "day" | "week";

/** The refresh intervals offered: the app's list, grouped by unit for the picker. */
export function groupIntervals(intervals: readonly number[]): Record<IntervalGroup, number[]> {
  const groups: Record<IntervalGroup, number[]> = { minute: [], hour: [], day: [], week: [] };
  for (const seconds of intervals) {
    const unit = secondsToInterval(seconds)?.unit;
    if (unit === "minute" || unit === "hour" || unit === "day" || unit === "week") {
      groups[unit].push(seconds);
    }
  }
  return groups;
}

function unitOf(seconds: number | null): IntervalGroup | null {
  const unit = secondsToInterval(seconds)?.unit;
  return unit === "second" || !unit ? null : unit;
}

/** A new interval chosen: Never gives null; minutes and hours clear the time; only weeks keep a weekday. */
export function withInterval(schedule: Schedule | null, seconds: number | null): Schedule | null {
  if (!seconds) return null;
  const unit = unitOf(seconds);
  const daily = unit === "day" || unit === "week";
  return {
    interval: seconds,
    time: daily ? (schedule?.time ?? DEFAULT_DAILY_TIME) : null,
    day_of_week: unit === "week" ? (schedule?.day_of_week ?? WEEKDAYS[0]) : null,
    until: schedule?.until ?? null,
  };
}

/** Local "HH:mm" → UTC "HH:mm", and back, for a given offset in minutes (local − UTC). */
export function localToUtc(local: string, offsetMinutes: number): string {
  return shift(local, -offsetMinutes);
}

export function utcToLocal(utc: string, offsetMinutes: number): string {
  return shift(utc, offsetMinutes);
}

function shift(time: string, minutes: number): string {
  const [h, m] = time.split(":").map(Number);
  const total = (((h * 60 + m + minutes) % 1440) + 1440) % 1440;
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${pad(Math.floor(total / 60))}:${pad(total % 60)}`;
}

/** Minutes offered in the time picker: steps of 5. */
export const MINUTE_STEP = 5;
