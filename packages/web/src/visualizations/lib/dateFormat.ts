// moment-style date formats (dayjs understands the same tokens), always in UTC as Redash shows them.
import dayjs, { type Dayjs } from "dayjs";
import advancedFormat from "dayjs/plugin/advancedFormat";
import utc from "dayjs/plugin/utc";

dayjs.extend(utc);
dayjs.extend(advancedFormat);

const ISO_LIKE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** A UTC dayjs for a Date, epoch number, ISO string or RFC-2822 string; null when unparseable. */
export function parseDate(value: unknown): Dayjs | null {
  if (value === null || value === undefined || value === "") return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : dayjs.utc(value);
  if (typeof value === "number") return Number.isFinite(value) ? dayjs.utc(value) : null;
  if (typeof value === "string") {
    const s = value.trim();
    if (ISO_LIKE.test(s)) {
      const d = dayjs.utc(s.replace(" ", "T"));
      return d.isValid() ? d : null;
    }
    const ms = Date.parse(s);
    return Number.isNaN(ms) ? null : dayjs.utc(ms);
  }
  return null;
}

export function isIsoDateString(value: unknown): boolean {
  return typeof value === "string" && ISO_LIKE.test(value);
}

/** Formats a date-like value; unparseable values come back as their string form. */
export function formatDate(value: unknown, format: string | null | undefined): string {
  if (value === null || value === undefined) return "";
  const d = parseDate(value);
  if (!d) return String(value);
  if (!format) return value instanceof Date ? d.toISOString() : String(value);
  return d.format(format);
}

export { dayjs };
