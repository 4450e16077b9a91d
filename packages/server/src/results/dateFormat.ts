import type { Cell } from "../runners/types";

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/;
const TOKENS = /YYYY|YY|MM|DD|HH|mm|ss|SSS/g;

type Groups = RegExpExecArray;
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
    const m = ISO.exec(value.trim());
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
