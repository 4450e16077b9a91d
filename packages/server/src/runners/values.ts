import type { Cell, ColumnType, ResultColumn } from "./types";

/** Redash's rule for duplicate names: the second `a` becomes `a1`, the third `a2`. */
export function uniqueColumnNames(names: string[]): string[] {
  const used = new Set<string>();
  return names.map((original) => {
    let name = original;
    let counter = 1;
    while (used.has(name)) {
      name = `${original}${counter}`;
      counter += 1;
    }
    used.add(name);
    return name;
  });
}

export function buildColumns(fields: { name: string; type: ColumnType }[]): ResultColumn[] {
  const names = uniqueColumnNames(fields.map((field) => field.name));
  return fields.map((field, i) => ({ name: names[i], friendly_name: names[i], type: field.type }));
}

export function numberCell(value: number): Cell {
  return Number.isFinite(value) ? value : null;
}

/** bigint → number while exactly representable, else its decimal string. */
export function bigintCell(value: bigint): Cell {
  const asNumber = Number(value);
  return Number.isSafeInteger(asNumber) ? asNumber : value.toString();
}

const PLAIN_DECIMAL = /^[+-]?(\d*)(?:\.(\d*))?$/;

/**
 * A decimal given as text → a number when a double holds it exactly and JSON writes it plainly:
 * at most 15 significant digits, and 0 or 1e-6 ≤ |value| < 1e21; otherwise its text (so wide
 * values such as sums of money keep every digit). NaN → null.
 */
export function decimalCell(text: string): Cell {
  const trimmed = text.trim();
  if (trimmed === "NaN") return null;
  const match = PLAIN_DECIMAL.exec(trimmed);
  if (!match || (match[1] === "" && !match[2])) return trimmed;
  const significant = `${match[1]}${match[2] ?? ""}`.replace(/^0+/, "").replace(/0+$/, "");
  const value = Number(trimmed);
  const size = Math.abs(value);
  const plain = size === 0 || (size >= 1e-6 && size < 1e21);
  return significant.length <= 15 && plain ? value : trimmed;
}

/** Binary values as lowercase hex, as Redash's JSON encoder writes them. */
export function bytesCell(value: Uint8Array): string {
  return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("hex");
}

/** Dates become ISO strings (Redash's form, see isoTimestamp); date-only columns keep "YYYY-MM-DD". */
export function dateCell(value: Date, type: ColumnType): Cell {
  if (Number.isNaN(value.getTime())) return null;
  const iso = value.toISOString();
  if (type === "date") return iso.slice(0, 10);
  return iso.endsWith(".000Z") ? `${iso.slice(0, -5)}Z` : iso;
}

/** Any driver value → a JSON-safe cell. Objects and arrays become JSON text. */
export function toCell(value: unknown, type: ColumnType = null): Cell {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      return numberCell(value);
    case "bigint":
      return bigintCell(value);
    default:
      break;
  }
  if (value instanceof Date) return dateCell(value, type);
  if (value instanceof Uint8Array) return bytesCell(value);
  try {
    return JSON.stringify(value, (_key, inner: unknown) =>
      typeof inner === "bigint" ? inner.toString() : inner,
    );
  } catch {
    return String(value);
  }
}

/*
 * Timestamps and times are written as Redash's JSON encoder writes Python's values (api-queries.md
 * §1.2, §1.4): ISO 8601 with a "T"; a fraction of a second, when there is one, cut to exactly
 * three digits (".120", even ".000" for 500 µs); a UTC offset of zero as "Z", others as "+HH:MM".
 */

/** The fraction digits after the point → "" when zero, else "." and the milliseconds. */
function millisText(digits: string): string {
  if (!/[1-9]/.test(digits)) return "";
  return `.${digits.length >= 3 ? digits.slice(0, 3) : digits.padEnd(3, "0")}`;
}

/** "+00", "+0000", "-00:00", "Z" → "Z"; other offsets → "+HH:MM". */
function zoneText(zone: string): string {
  if (zone === "Z") return zone;
  const normalized =
    zone.length === 3
      ? `${zone}:00`
      : zone.length === 5
        ? `${zone.slice(0, 3)}:${zone.slice(3)}`
        : zone;
  return normalized.slice(1) === "00:00" ? "Z" : normalized;
}

const NAIVE_TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:\.\d+)?$/;
const TIMESTAMP_TEXT =
  /^(\d{4,}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2})?)(?:\.(\d+))?(Z|[+-]\d{2}(?::?\d{2})?)?$/;

/**
 * A database's timestamp text ("2024-01-02 10:00:00.123456", "... 08:00:00+00") → Redash's ISO
 * form ("2024-01-02T10:00:00.123", "...T08:00:00Z"). Wall-clock time is kept as written, so naive
 * timestamps are not shifted by the server's time zone. Other text is returned unchanged.
 */
export function isoTimestamp(text: string): string {
  // The usual shape, "YYYY-MM-DD HH:MM:SS[.ffffff]", needs no capture groups.
  if (NAIVE_TIMESTAMP.test(text))
    return `${text.slice(0, 10)}T${text.slice(11, 19)}${millisText(text.slice(20))}`;
  const match = TIMESTAMP_TEXT.exec(text);
  if (!match) return text;
  const [, date, time, fraction, zone] = match;
  return `${date}T${time}${millisText(fraction ?? "")}${zone ? zoneText(zone) : ""}`;
}

const TIME_TEXT = /^(\d{2}:\d{2}:\d{2})\.(\d+)$/;

/** A time of day's text → with its fraction as milliseconds ("10:20:30.123456" → "10:20:30.123"). */
export function isoTime(text: string): string {
  const match = TIME_TEXT.exec(text);
  return match ? `${match[1]}${millisText(match[2])}` : text;
}

const TWO_DIGITS = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, "0"));
const MS_PER_DAY = 86_400_000;
const MICROS_PER_DAY = 86_400_000_000;
/** Days since 1970-01-01 of 0001-01-01 and of 10000-01-01: the range of 4-digit years. */
const FIRST_DAY = -719_162;
const END_DAY = 2_932_897;

/** Days since 1970-01-01 → "YYYY-MM-DD" for the years 1–9999, else null. */
export function isoDateFromDays(days: number): string | null {
  if (!(days >= FIRST_DAY && days < END_DAY)) return null;
  return new Date(days * MS_PER_DAY).toISOString().slice(0, 10);
}

/**
 * A formatter of microseconds since the epoch → Redash's ISO wall-clock text (see isoTimestamp:
 * "2024-01-02T10:00:00.123", milliseconds only when the fraction is not zero), shifted by and
 * suffixed with `offsetMinutes` when given ("…+02:00", "…Z" for zero). Returns null for values it cannot write exactly
 * (beyond ±2^53 µs, i.e. before 1685 or after 2255), which the caller formats another way.
 * The formatter remembers the last day's text: a column's timestamps often share days.
 */
export function microsTimestampFormatter(
  offsetMinutes?: number,
): (micros: bigint) => string | null {
  let lastDay = Number.NaN;
  let lastDate: string | null = null;
  const shift = (offsetMinutes ?? 0) * 60_000_000;
  const suffix =
    offsetMinutes === undefined ? "" : offsetMinutes === 0 ? "Z" : offsetText(offsetMinutes);
  return (micros) => {
    if (micros > MAX_SAFE_MICROS || micros < -MAX_SAFE_MICROS) return null;
    const value = Number(micros) + shift;
    let day = Math.floor(value / MICROS_PER_DAY);
    let rest = value - day * MICROS_PER_DAY;
    // Guards against a rounded quotient at a day's edge.
    const carry = rest < 0 ? -1 : rest >= MICROS_PER_DAY ? 1 : 0;
    day += carry;
    rest -= carry * MICROS_PER_DAY;
    if (day !== lastDay) {
      lastDay = day;
      lastDate = isoDateFromDays(day);
    }
    if (lastDate === null) return null;
    const seconds = Math.floor(rest / 1_000_000);
    const fraction = rest - seconds * 1_000_000;
    const time = `${TWO_DIGITS[Math.floor(seconds / 3600)]}:${TWO_DIGITS[Math.floor(seconds / 60) % 60]}:${TWO_DIGITS[seconds % 60]}`;
    const text = `${lastDate}T${time}`;
    return fraction === 0 ? text + suffix : `${text}.${millisDigits(fraction)}${suffix}`;
  };
}

/** Exact as a double even after an offset is added (a day's worth of margin). */
const MAX_SAFE_MICROS = BigInt(Number.MAX_SAFE_INTEGER - MICROS_PER_DAY);

/** 123456 µs → "123", 500 µs → "000": the milliseconds, cut (not rounded), as three digits. */
function millisDigits(micros: number): string {
  const millis = Math.floor(micros / 1000);
  return millis < 10 ? `00${millis}` : millis < 100 ? `0${millis}` : String(millis);
}

function offsetText(minutes: number): string {
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? "-" : "+"}${TWO_DIGITS[Math.floor(abs / 60)]}:${TWO_DIGITS[abs % 60]}`;
}
