import type { Cell } from "../runners/types";

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/;
const TOKENS = /YYYY|YY|MM|DD|HH|mm|ss|SSS/g;

/**
 * The characters [start, end) of a value in the plain shape `YYYY-MM-DDTHH:mm:ss.fff…`, "0" for
 * those past the value's end.
 */
export interface DateSpan {
  readonly start: number;
  readonly end: number;
}

/**
 * Each token's span. Reading past the end as "0" makes a date-only value midnight and pads a
 * short fraction (or none) to SSS's 3 digits; a longer fraction is cut.
 */
const TOKEN_SPANS: Record<string, DateSpan> = {
  YYYY: { start: 0, end: 4 },
  YY: { start: 2, end: 4 },
  MM: { start: 5, end: 7 },
  DD: { start: 8, end: 10 },
  HH: { start: 11, end: 13 },
  mm: { start: 14, end: 16 },
  ss: { start: 17, end: 19 },
  SSS: { start: 20, end: 23 },
};

/** A compiled format: its literal texts and its tokens (as spans), in order. */
export type DatePlan = readonly (string | DateSpan)[];

/** Compiles a moment-style format (tokens DD MM YYYY YY HH mm ss SSS). */
export function datePlan(format: string): DatePlan {
  const plan: (string | DateSpan)[] = [];
  let last = 0;
  for (const token of format.matchAll(TOKENS)) {
    if (token.index > last) plan.push(format.slice(last, token.index));
    plan.push(TOKEN_SPANS[token[0]]!);
    last = token.index + token[0].length;
  }
  if (last < format.length) plan.push(format.slice(last));
  return plan;
}

/** A date format for string values, carrying its plan (for rowTextScanner's byte path). */
export interface DateTextFormatter {
  (value: string): string;
  readonly plan: DatePlan;
}

/**
 * Compiles `format` once, for exports that format a whole column. ISO date/time values are
 * re-formatted keeping the wall-clock time as written (no time zone shift); other text comes
 * back unchanged.
 */
export function dateTextFormatter(format: string): DateTextFormatter {
  const plan = datePlan(format);
  const parts = plan.map(compiledPart);
  const formatted = (value: string): string => {
    let text = "";
    if (isPlainIso(value)) {
      for (const part of parts) text += part.plain(value);
      return text;
    }
    const m = ISO.exec(value.trim());
    if (!m) return value;
    for (const part of parts) text += part.match(m);
    return text;
  };
  return Object.assign(formatted, { plan });
}

/** A plan's part, read from a value in a plain shape or from the ISO pattern's match. */
interface CompiledPart {
  plain(value: string): string;
  match(m: RegExpExecArray): string;
}

/** The plain shape's fields: where each starts, and the ISO pattern's group that holds it. */
const FIELDS = [
  { start: 0, group: 1 }, // year
  { start: 5, group: 2 }, // month
  { start: 8, group: 3 }, // day
  { start: 11, group: 4 }, // hours
  { start: 14, group: 5 }, // minutes
  { start: 17, group: 6 }, // seconds
  { start: 20, group: 7 }, // fraction
];

function compiledPart(part: string | DateSpan): CompiledPart {
  if (typeof part === "string") return { plain: () => part, match: () => part };
  const { start, end } = part;
  // A token lies in one field; matched groups can be missing (time) or of any length (fraction).
  const field = FIELDS.findLast((f) => f.start <= start)!;
  const from = start - field.start;
  const to = end - field.start;
  return {
    plain: (value) =>
      end <= value.length
        ? value.slice(start, end)
        : value.slice(start, end).padEnd(end - start, "0"),
    match: (m) => (m[field.group] ?? "").slice(from, to).padEnd(to - from, "0"),
  };
}

export type DateFormatter = (value: Cell) => string | number | boolean;

/** dateTextFormatter for any cell: values that are not strings come back unchanged; null is "". */
export function dateFormatter(format: string): DateFormatter {
  const formatted = dateTextFormatter(format);
  return (value) => {
    if (value === null) return "";
    return typeof value === "string" ? formatted(value) : value;
  };
}

/** One value formatted with `format` (see dateFormatter). */
export function formatDateCell(value: Cell, format: string): string | number | boolean {
  return dateFormatter(format)(value);
}

const DIGIT = -1;
const DOT = 46;
/** The plain shapes by position, up to the fraction: `YYYY-MM-DD`, then `THH:mm:ss`. */
const SHAPE = Array.from("dddd-dd-ddTdd:dd:dd", (c) => (c === "d" ? DIGIT : c.charCodeAt(0)));

/**
 * Whether a value has one of the shapes the runners write, `YYYY-MM-DD` and
 * `YYYY-MM-DDTHH:mm:ss[.fff…]`: its tokens are then read by position (TOKEN_SPANS), which
 * formats a million timestamps ~3× faster than through the regular expression. Anything else
 * (zones, spaces, short forms) goes through the expression.
 */
function isPlainIso(value: string): boolean {
  const n = value.length;
  if (n !== 10 && n !== 19 && !(n > 20 && value.charCodeAt(19) === DOT)) return false;
  for (let p = 0; p < n; p += 1) {
    if (p === 19) continue; // the dot, checked above
    const expected = p < 19 ? SHAPE[p] : DIGIT;
    const code = value.charCodeAt(p);
    if (expected === DIGIT ? code < 48 || code > 57 : code !== expected) return false;
  }
  return true;
}

/** isPlainIso for the UTF-8 bytes [start, end) of `bytes`, without making a string. */
export function isPlainIsoBytes(bytes: Uint8Array, start: number, end: number): boolean {
  const n = end - start;
  if (n !== 10 && n !== 19 && !(n > 20 && bytes[start + 19] === DOT)) return false;
  for (let p = 0; p < n; p += 1) {
    if (p === 19) continue;
    const expected = p < 19 ? SHAPE[p] : DIGIT;
    const code = bytes[start + p];
    if (expected === DIGIT ? code < 48 || code > 57 : code !== expected) return false;
  }
  return true;
}
