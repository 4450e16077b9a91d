// Display formatting of sizes, intervals, durations and relative times.

const SIZE_UNITS = ["bytes", "KB", "MB", "GB", "TB", "PB"] as const;

/** An integer as is, otherwise with a fixed number of decimals. */
export function formatNumber(value: number, fractionDigits = 3): string {
  return Math.round(value) !== value ? value.toFixed(fractionDigits) : String(value);
}

/** "512 bytes", "1.500 KB", …, stepping by 1024 up to PB; "?" for a non-number. */
export function prettySize(bytes: unknown, fractionDigits = 3): string {
  const n = typeof bytes === "string" && bytes.trim() !== "" ? Number(bytes) : bytes;
  if (typeof n !== "number" || !Number.isFinite(n)) return "?";
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < SIZE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${formatNumber(value, fractionDigits)} ${SIZE_UNITS[unit]}`;
}

export type IntervalUnit = "second" | "minute" | "hour" | "day" | "week";

export const INTERVAL_UNIT_SECONDS: Readonly<Record<IntervalUnit, number>> = {
  second: 1,
  minute: 60,
  hour: 3600,
  day: 86400,
  week: 604800,
};

/** The largest fitting unit: 300 → 5 minutes; weeks only for whole weeks. Null for 0/none. */
export function secondsToInterval(seconds: number | null | undefined): {
  count: number;
  unit: IntervalUnit;
} | null {
  if (!seconds) return null;
  let count = seconds;
  let unit: IntervalUnit = "second";
  if (count >= 60) {
    count /= 60;
    unit = "minute";
  }
  if (count >= 60) {
    count /= 60;
    unit = "hour";
  }
  if (unit === "hour" && count >= 24) {
    count /= 24;
    unit = "day";
  }
  if (unit === "day" && count >= 7 && count % 7 === 0) {
    count /= 7;
    unit = "week";
  }
  return { count, unit };
}

export function intervalToSeconds(count: number, unit: IntervalUnit): number {
  return count * INTERVAL_UNIT_SECONDS[unit];
}

export const pluralize = (word: string, count: number): string => (count === 1 ? word : `${word}s`);

/**
 * "5 minutes", "1 hour", "2 weeks"; with `omitSingleValueNumber`, "hour" instead of "1 hour"
 * (as in "Every hour"). "-" for none.
 */
export function durationHumanize(
  seconds: number | null | undefined,
  options: { omitSingleValueNumber?: boolean } = {},
): string {
  const interval = secondsToInterval(seconds);
  if (!interval) return "-";
  const rounded = Math.round(interval.count);
  const word = pluralize(interval.unit, rounded);
  return rounded === 1 && options.omitSingleValueNumber ? word : `${rounded} ${word}`;
}

/** "Every 5 minutes", "Every hour"; "Never" without an interval. */
export function refreshIntervalLabel(seconds: number | null | undefined): string {
  return seconds ? `Every ${durationHumanize(seconds, { omitSingleValueNumber: true })}` : "Never";
}

export interface SchedulePhrase {
  /** "Every day" */
  short: string;
  /** "Refreshes every day at 10:00 on Monday" */
  full: string;
}

/**
 * The schedule as text. `formatTime` turns the stored UTC "HH:mm" into what the reader sees
 * (the web app passes a local-time converter); by default the UTC time is shown.
 */
export function schedulePhrase(
  schedule: {
    interval?: number | string | null;
    time?: string | null;
    day_of_week?: string | null;
  } | null,
  formatTime: (utcTime: string) => string = (t) => t,
): SchedulePhrase {
  const seconds = Number(schedule?.interval ?? 0);
  if (!schedule || !Number.isFinite(seconds) || seconds <= 0)
    return { short: "Never", full: "Never" };
  const humanized = durationHumanize(seconds, { omitSingleValueNumber: true });
  let full = `Refreshes every ${humanized}`;
  if (schedule.time) full += ` at ${formatTime(schedule.time)}`;
  if (schedule.day_of_week) full += ` on ${schedule.day_of_week}`;
  return { short: `Every ${humanized}`, full };
}

/** A query runtime: "0.35 seconds", "1 second", "2 minutes"; "-" when unknown. */
export function formatRuntime(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0)
    return "-";
  if (seconds < 60) {
    const n = Math.round(seconds * 100) / 100;
    return `${n} ${pluralize("second", n)}`;
  }
  return durationHumanize(seconds);
}

/** Elapsed time of a running execution: "00:01:05". */
export function formatElapsed(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

/** "just now", "a minute ago", "5 minutes ago", "in 2 hours", … (moment-style thresholds). */
export function relativeTime(date: Date, now: Date): string {
  const diff = (now.getTime() - date.getTime()) / 1000;
  const s = Math.abs(diff);
  const min = s / 60;
  const hours = min / 60;
  const days = hours / 24;
  let phrase: string;
  if (s < 45) return "just now";
  if (s < 90) phrase = "a minute";
  else if (min < 45) phrase = `${Math.round(min)} minutes`;
  else if (min < 90) phrase = "an hour";
  else if (hours < 22) phrase = `${Math.round(hours)} hours`;
  else if (hours < 36) phrase = "a day";
  else if (days < 26) phrase = `${Math.round(days)} days`;
  else if (days < 45) phrase = "a month";
  else if (days < 320) phrase = `${Math.round(days / 30.4375)} months`;
  else if (days < 548) phrase = "a year";
  else phrase = `${Math.round(days / 365.25)} years`;
  return diff >= 0 ? `${phrase} ago` : `in ${phrase}`;
}
