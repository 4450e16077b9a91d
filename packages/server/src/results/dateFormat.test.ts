import { describe, expect, it } from "vitest";
import type { Cell } from "../runners/types";
import { dateFormatter, datePlan, dateTextFormatter, formatDateCell } from "./dateFormat";

/** dateFormatter before its plan (a token table of match groups), verbatim. */
function previousFormatter(format: string): (value: Cell) => string | number | boolean {
  const ISO =
    /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/;
  const TOKENS = /YYYY|YY|MM|DD|HH|mm|ss|SSS/g;
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

const DIGITS = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18];

function plainIsoParts(value: string): readonly (string | undefined)[] | null {
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

/** Timestamps of every length to an 11-digit fraction, alone, altered and with suffixes. */
function values(): Cell[] {
  const full = "2024-01-02T03:04:05.12345678901";
  const out = new Set<string>();
  for (let n = 0; n <= full.length; n += 1) {
    const value = full.slice(0, n);
    out.add(value);
    out.add(` ${value}\t`);
    for (let p = 0; p < n; p += 1) {
      for (const c of [..."09/-:Tt .Za", "\u0663"])
        out.add(value.slice(0, p) + c + value.slice(p + 1));
    }
    for (const after of [
      "Z",
      "+02:00",
      "-0500",
      "+02",
      " Z",
      "T",
      " 03:04",
      "T03:04",
      " 03:04:05",
    ]) {
      out.add(value + after);
    }
  }
  return [...out, null, 0, 459, -1.5, true, false];
}

describe("dateFormatter", () => {
  it("formats as before its plan, for every token and the ISO forms around the plain ones", () => {
    const formats = [
      "DD/MM/YY HH:mm",
      "YYYY-MM-DD HH:mm:ss.SSS",
      "YYYYMMDDHHmmssSSS",
      "YYYYY MMM SSSSSS s",
      "",
      "plain text",
      "[day DD, month MM, year YYYY]",
    ];
    const cells = values();
    for (const format of formats) {
      const previous = previousFormatter(format);
      const current = dateFormatter(format);
      for (const value of cells) expect([value, current(value)]).toEqual([value, previous(value)]);
    }
  });

  it("compiles a format into literals and the tokens' spans in the plain shape", () => {
    expect(datePlan("DD/MM/YY HH:mm:ss.SSS")).toEqual([
      { start: 8, end: 10 },
      "/",
      { start: 5, end: 7 },
      "/",
      { start: 2, end: 4 },
      " ",
      { start: 11, end: 13 },
      ":",
      { start: 14, end: 16 },
      ":",
      { start: 17, end: 19 },
      ".",
      { start: 20, end: 23 },
    ]);
    expect(datePlan("YYYYY")).toEqual([{ start: 0, end: 4 }, "Y"]);
    expect(datePlan("")).toEqual([]);
    expect(dateTextFormatter("[YYYY]").plan).toEqual(["[", { start: 0, end: 4 }, "]"]);
  });

  it("reads missing time parts as zeros and cuts or pads the fraction", () => {
    const format = "YYYY-MM-DD HH:mm:ss.SSS";
    expect(formatDateCell("2024-02-03", format)).toBe("2024-02-03 00:00:00.000");
    expect(formatDateCell("2024-02-03T04:05:06", format)).toBe("2024-02-03 04:05:06.000");
    expect(formatDateCell("2024-02-03T04:05:06.7", format)).toBe("2024-02-03 04:05:06.700");
    expect(formatDateCell("2024-02-03T04:05:06.123456789", format)).toBe("2024-02-03 04:05:06.123");
    expect(formatDateCell("2024-02-03 04:05", format)).toBe("2024-02-03 04:05:00.000");
    expect(formatDateCell(" 2024-02-03T04:05:06.78+02:00 ", format)).toBe(
      "2024-02-03 04:05:06.780",
    );
  });
});
