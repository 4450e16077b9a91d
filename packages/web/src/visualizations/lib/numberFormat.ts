// numeral.js formats as Redash stores them (catalogue 1.5): percents are on a 0–100 scale, and
// "," and "." in a pattern stand for the configured separators.
import numeral from "numeral";

export interface Separators {
  thousandsSeparator?: string;
  decimalSeparator?: string;
}

/** Parses numbers and numeric strings; anything else is null. */
export function toNumber(value: unknown): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "bigint") return Number(value);
  if (typeof value === "string" && value.trim() !== "") {
    const n = Number(value);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

function swapSeparators(text: string, seps: Separators): string {
  const thousands = seps.thousandsSeparator ?? ",";
  const decimal = seps.decimalSeparator ?? ".";
  if (thousands === "," && decimal === ".") return text;
  return text.replace(/[,.]/g, (c) => (c === "," ? thousands : decimal));
}

export function formatNumber(
  value: unknown,
  format: string | null | undefined,
  seps: Separators = {},
): string {
  if (value === null || value === undefined) return "";
  const n = toNumber(value);
  if (n === null) return String(value);
  if (!format) return String(n);
  // numeral multiplies by 100 for "%"; Redash turned that off, so undo it here.
  const input = format.includes("%") ? n / 100 : n;
  let text: string;
  try {
    text = numeral(input).format(format);
  } catch {
    return String(n);
  }
  if (text === "NaN" || text === "") return String(n);
  return swapSeparators(text, seps);
}
