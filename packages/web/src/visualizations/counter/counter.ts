// COUNTER: defaults (shallow spread), the picked value and target, and Redash's formatting quirk:
// numbers use "0,0" plus `stringDecimal` decimals, so the defaults round to integers.
import { asObject } from "../lib/merge";
import { formatNumber, toNumber } from "../lib/numberFormat";
import type { Options, QueryResultData } from "../types";

export interface CounterOptions extends Options {
  counterLabel: string;
  counterColName: string;
  rowNumber: number;
  targetRowNumber: number;
  stringDecimal: number;
  stringDecChar: string;
  stringThouSep: string;
  tooltipFormat: string;
  targetColName?: string;
  countRow?: boolean;
  stringPrefix?: string;
  stringSuffix?: string;
  formatTargetValue?: boolean;
}

export const counterDefaults = (): CounterOptions => ({
  counterLabel: "",
  counterColName: "counter",
  rowNumber: 1,
  targetRowNumber: 1,
  stringDecimal: 0,
  stringDecChar: ".",
  stringThouSep: ",",
  tooltipFormat: "0,0.000",
});

export function getCounterOptions(stored: Options | null | undefined): CounterOptions {
  return { ...counterDefaults(), ...asObject(stored) } as CounterOptions;
}

/** Row N > 0 counts from the top (1 = first), −N from the bottom, 0 is the first; wraps. */
export function rowIndex(rowNumber: unknown, rowCount: number): number {
  const n = Math.trunc(toNumber(rowNumber) ?? 1);
  if (rowCount === 0) return -1;
  const index = n > 0 ? n - 1 : n < 0 ? rowCount + n : 0;
  return ((index % rowCount) + rowCount) % rowCount;
}

export function formatCounterNumber(value: number, options: CounterOptions): string {
  const decimals = toNumber(options.stringDecimal);
  const dec = options.stringDecChar ?? "";
  const thou = options.stringThouSep ?? "";
  if ((decimals === null || decimals < 0) && dec === "" && thou === "") {
    return formatNumber(value, options.tooltipFormat || "0,0.000");
  }
  const places = decimals !== null && decimals > 0 ? Math.min(20, Math.floor(decimals)) : 0;
  const format = places > 0 ? `0,0.${"0".repeat(places)}` : "0,0";
  return formatNumber(value, format, { thousandsSeparator: thou, decimalSeparator: dec });
}

export interface CounterView {
  value: unknown;
  valueText: string;
  tooltip: string;
  target: unknown;
  targetText: string | null;
  /** "positive" when value ≥ target, "negative" below; null without a numeric comparison. */
  trend: "positive" | "negative" | null;
  label: string;
  empty: boolean;
  notices: string[];
}

export function counterView(
  data: QueryResultData,
  options: CounterOptions,
  name: string,
): CounterView {
  const notices: string[] = [];
  const rows = data.rows;
  const label = options.counterLabel || name;
  let value: unknown = null;
  if (options.countRow) value = rows.length;
  else if (rows.length > 0) {
    if (!data.columns.some((c) => c.name === options.counterColName)) {
      notices.push(`Column "${options.counterColName}" is not in the result.`);
    } else value = rows[rowIndex(options.rowNumber, rows.length)][options.counterColName];
  }
  let target: unknown = null;
  if (options.targetColName && rows.length > 0) {
    if (!data.columns.some((c) => c.name === options.targetColName))
      notices.push(`Target column "${options.targetColName}" is not in the result.`);
    else target = rows[rowIndex(options.targetRowNumber, rows.length)][options.targetColName];
  }
  const numeric = toNumber(value);
  const numericTarget = toNumber(target);
  const wrap = (text: string) =>
    `${options.stringPrefix ?? ""}${text}${options.stringSuffix ?? ""}`;
  const valueText =
    value === null || value === undefined
      ? ""
      : numeric !== null
        ? wrap(formatCounterNumber(numeric, options))
        : String(value);
  let targetText: string | null = null;
  if (target !== null && target !== undefined) {
    targetText =
      numericTarget !== null
        ? options.formatTargetValue
          ? wrap(formatCounterNumber(numericTarget, options))
          : formatNumber(numericTarget, "0[.]00[0]")
        : String(target);
  }
  return {
    value,
    valueText,
    tooltip:
      numeric !== null ? formatNumber(numeric, options.tooltipFormat || "0,0.000") : valueText,
    target,
    targetText,
    trend:
      numeric !== null && numericTarget !== null
        ? numeric >= numericTarget
          ? "positive"
          : "negative"
        : null,
    label,
    empty: rows.length === 0 && !options.countRow,
    notices,
  };
}
