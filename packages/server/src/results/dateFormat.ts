import type { Cell } from "../runners/types";

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/;
const TOKENS = /YYYY|YY|MM|DD|HH|mm|ss|SSS/g;

/** Match groups: 1 year, 2 month, 3 day, 4 hours, 5 minutes, 6 seconds, 7 fraction. */
type Groups = readonly (string | undefined)[];
const TOKEN_TEXT: Record<string, (m: Groups) => string> = {
  YYYY: (m) => m[1]!,
  YY: (m) => m[1]!.slice(-2),
  MM: (m) => m[2]!,
  DD: (m) => m[3]!,
  HH: (m) => m[4] ?? "00",
  mm: (m) => m[5] ?? "00",
  ss: (m) => m[6] ?? "00",
  SSS: (m) => (m[7] ?? "").padEnd(3, "0").slice(0, 3),
};

export type DateFormatter = (value: Cell) => string | number | boolean;

/**
 * Compiles a moment-style format (tokens DD MM YYYY YY HH mm ss SSS) once, for exports that
 * format a whole column. The formatter re-formats ISO date/time values keeping the wall-clock
 * time as written (no time zone shift); values that are not ISO dates (numbers, free text) come
 * back unchanged; null becomes "".
 */
export function dateFormatter(format: string): DateFormatter {
  const parts: ((m: Groups) => string)[] = [];
  let last = 0;
  for (const token of format.matchAll(TOKENS)) {
    const literal = format.slice(last, token.index);
    if (literal) parts.push(() => literal);
    parts.push(TOKEN_TEXT[token[0]]!);
    last = token.index + token[0].length;
  }
  const tail = format.slice(last);
  if (tail) parts.push(() => tail);
  return (value) => {
    if (value === null) return "";
    if (typeof value !== "string") return value;
    const m = plainIsoParts(value) ?? ISO.exec(value.trim());
    if (!m) return value;
    let text = "";
    for (const part of parts) text += part(m);
    return text;
  };
}

/** One value formatted with `format` (see dateFormatter). */
export function formatDateCell(value: Cell, format: string): string | number | boolean {
  return dateFormatter(format)(value);
}

const DIGITS = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18];

/**
 * The parts of the shapes the runners write, `YYYY-MM-DD` and `YYYY-MM-DDTHH:mm:ss[.fff]`,
 * read by position: a million timestamps format ~3× faster than through the regular expression.
 * Anything else (zones, spaces, short forms) returns null and goes through the expression.
 */
function plainIsoParts(value: string): Groups | null {
  const n = value.length;
  if (n !== 10 && n !== 19 && !(n > 20 && value[19] === ".")) return null;
  if (value[4] !== "-" || value[7] !== "-") return null;
  const checked = n === 10 ? 8 : DIGITS.length;
  for (let d = 0; d < checked; d += 1) {
    const code = value.charCodeAt(DIGITS[d]!);
    if (code < 48 || code > 57) return null;
  }
  if (n === 10) return [value, value.slice(0, 4), value.slice(5, 7), value.slice(8, 10)];
  if (value[10] !== "T" || value[13] !== ":" || value[16] !== ":") return null;
  for (let i = 20; i < n; i += 1) {
    const code = value.charCodeAt(i);
    if (code < 48 || code > 57) return null;
  }
  return [
    value,
    value.slice(0, 4),
    value.slice(5, 7),
    value.slice(8, 10),
    value.slice(11, 13),
    value.slice(14, 16),
    value.slice(17, 19),
    n > 20 ? value.slice(20) : undefined,
  ];
}
