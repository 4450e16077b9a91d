// Dynamic date values ("d_now") and ranges ("d_last_7_days"), resolved against a given `now`.
import dayjs, { type Dayjs } from "dayjs";
import utc from "dayjs/plugin/utc";
import type { DateParameterType, DateRangeParameterType, DateRangeValue } from "./types";

dayjs.extend(utc);

export const DYNAMIC_PREFIX = "d_";

/** How each date type is written into query text and URLs. */
export const DATE_FORMATS: Record<DateParameterType | DateRangeParameterType, string> = {
  date: "YYYY-MM-DD",
  "datetime-local": "YYYY-MM-DD HH:mm",
  "datetime-with-seconds": "YYYY-MM-DD HH:mm:ss",
  "date-range": "YYYY-MM-DD",
  "datetime-range": "YYYY-MM-DD HH:mm",
  "datetime-range-with-seconds": "YYYY-MM-DD HH:mm:ss",
};

export interface ResolveOptions {
  /** Resolve in UTC instead of the local time zone (the browser resolves in local time). */
  utc?: boolean;
}

type DateFn = (now: Dayjs) => Dayjs;
type RangeFn = (now: Dayjs) => [Dayjs, Dayjs];

interface DynamicDate {
  name: string;
  resolve: DateFn;
}
interface DynamicDateRange {
  name: string;
  resolve: RangeFn;
}

export const DYNAMIC_DATES: Readonly<Record<string, DynamicDate>> = {
  now: { name: "Today/Now", resolve: (now) => now },
  yesterday: { name: "Yesterday", resolve: (now) => now.subtract(1, "day") },
};

// Ranges of whole calendar units end at the end of that unit; "last N hours" ends now;
// "last N days/months" run from the start of the first day to the end of today.
const wholeUnit =
  (unit: "day" | "week" | "month" | "year", back: number): RangeFn =>
  (now) => {
    const base = now.subtract(back, unit);
    return [base.startOf(unit), base.endOf(unit)];
  };
const lastHours =
  (hours: number): RangeFn =>
  (now) => [now.subtract(hours, "hour"), now];
const lastDays =
  (amount: number, unit: "day" | "month"): RangeFn =>
  (now) => [now.subtract(amount, unit).startOf("day"), now.endOf("day")];

export const DYNAMIC_DATE_RANGES: Readonly<Record<string, DynamicDateRange>> = {
  today: { name: "Today", resolve: wholeUnit("day", 0) },
  yesterday: { name: "Yesterday", resolve: wholeUnit("day", 1) },
  this_week: { name: "This week", resolve: wholeUnit("week", 0) },
  this_month: { name: "This month", resolve: wholeUnit("month", 0) },
  this_year: { name: "This year", resolve: wholeUnit("year", 0) },
  last_week: { name: "Last week", resolve: wholeUnit("week", 1) },
  last_month: { name: "Last month", resolve: wholeUnit("month", 1) },
  last_year: { name: "Last year", resolve: wholeUnit("year", 1) },
  last_hour: { name: "Last hour", resolve: lastHours(1) },
  last_8_hours: { name: "Last 8 hours", resolve: lastHours(8) },
  last_24_hours: { name: "Last 24 hours", resolve: lastHours(24) },
  last_7_days: { name: "Last 7 days", resolve: lastDays(7, "day") },
  last_14_days: { name: "Last 14 days", resolve: lastDays(14, "day") },
  last_30_days: { name: "Last 30 days", resolve: lastDays(30, "day") },
  last_60_days: { name: "Last 60 days", resolve: lastDays(60, "day") },
  last_90_days: { name: "Last 90 days", resolve: lastDays(90, "day") },
  last_12_months: { name: "Last 12 months", resolve: lastDays(12, "month") },
};

function dynamicKey(value: unknown, table: Readonly<Record<string, unknown>>): string | null {
  if (typeof value !== "string" || !value.startsWith(DYNAMIC_PREFIX)) return null;
  const key = value.slice(DYNAMIC_PREFIX.length);
  return Object.prototype.hasOwnProperty.call(table, key) ? key : null;
}

export function isDynamicDate(value: unknown): value is string {
  return dynamicKey(value, DYNAMIC_DATES) !== null;
}

export function isDynamicDateRange(value: unknown): value is string {
  return dynamicKey(value, DYNAMIC_DATE_RANGES) !== null;
}

/** Display name of a dynamic value ("Last 7 days"), or null. */
export function dynamicDateName(value: unknown): string | null {
  const key = dynamicKey(value, DYNAMIC_DATES);
  return key === null ? null : DYNAMIC_DATES[key].name;
}

export function dynamicDateRangeName(value: unknown): string | null {
  const key = dynamicKey(value, DYNAMIC_DATE_RANGES);
  return key === null ? null : DYNAMIC_DATE_RANGES[key].name;
}

/** Options offered in the UI, in display order: `{ value: "d_now", name: "Today/Now" }`. */
export const dynamicDateOptions = (): { value: string; name: string }[] =>
  Object.entries(DYNAMIC_DATES).map(([k, d]) => ({ value: DYNAMIC_PREFIX + k, name: d.name }));

export const dynamicDateRangeOptions = (): { value: string; name: string }[] =>
  Object.entries(DYNAMIC_DATE_RANGES).map(([k, d]) => ({
    value: DYNAMIC_PREFIX + k,
    name: d.name,
  }));

export function toDayjs(now: Date | Dayjs, options: ResolveOptions = {}): Dayjs {
  const d = dayjs(now);
  return options.utc ? d.utc() : d;
}

/** "d_now" as a `date` → "2024-05-01". Null when the value is not a dynamic date. */
export function resolveDynamicDate(
  value: unknown,
  type: DateParameterType,
  now: Date | Dayjs,
  options: ResolveOptions = {},
): string | null {
  const key = dynamicKey(value, DYNAMIC_DATES);
  if (key === null) return null;
  return DYNAMIC_DATES[key].resolve(toDayjs(now, options)).format(DATE_FORMATS[type]);
}

/** "d_last_7_days" as a `date-range` → { start, end }. Null when not a dynamic range. */
export function resolveDynamicDateRange(
  value: unknown,
  type: DateRangeParameterType,
  now: Date | Dayjs,
  options: ResolveOptions = {},
): DateRangeValue | null {
  const key = dynamicKey(value, DYNAMIC_DATE_RANGES);
  if (key === null) return null;
  const [start, end] = DYNAMIC_DATE_RANGES[key].resolve(toDayjs(now, options));
  const format = DATE_FORMATS[type];
  return { start: start.format(format), end: end.format(format) };
}
