// FUNNEL: options and steps with % of max and % of previous (catalogue 10).
import { formatDate } from "../lib/dateFormat";
import { asObject, mergeOptions } from "../lib/merge";
import type { Options, QueryResultData } from "../types";

export interface FunnelOptions extends Options {
  stepCol: { colName: string | null; displayAs: string };
  valueCol: { colName: string | null; displayAs: string };
  autoSort: boolean;
  sortKeyCol: { colName: string | null; reverse: boolean };
  itemsLimit: number;
  percentValuesRange: { min: number; max: number };
  numberFormat: string;
  percentFormat: string;
}

export const funnelDefaults = (): FunnelOptions => ({
  stepCol: { colName: null, displayAs: "Steps" },
  valueCol: { colName: null, displayAs: "Value" },
  autoSort: true,
  sortKeyCol: { colName: null, reverse: false },
  itemsLimit: 100,
  percentValuesRange: { min: 0.01, max: 1000 },
  numberFormat: "0,0[.]00",
  percentFormat: "0[.]00%",
});

/** Defaults filled in; column names missing from the result are cleared. */
export function getFunnelOptions(
  stored: Options | null | undefined,
  data: QueryResultData,
): FunnelOptions {
  const o = mergeOptions(funnelDefaults(), asObject(stored));
  const names = new Set(data.columns.map((c) => c.name));
  const valid = (c: string | null) => (c && names.has(c) ? c : null);
  o.stepCol = { ...o.stepCol, colName: valid(o.stepCol.colName) };
  o.valueCol = { ...o.valueCol, colName: valid(o.valueCol.colName) };
  o.sortKeyCol = { ...o.sortKeyCol, colName: valid(o.sortKeyCol.colName) };
  o.itemsLimit = Math.max(2, Math.floor(Number(o.itemsLimit) || 100));
  return o;
}

export interface FunnelStep {
  step: string;
  /** The step column's value as in the result (for clicks). */
  stepValue: unknown;
  value: number;
  pctMax: number;
  pctPrevious: number;
}

export function buildFunnel(
  data: QueryResultData,
  o: FunnelOptions,
  dateTimeFormat: string,
): FunnelStep[] {
  const stepCol = o.stepCol.colName;
  const valueCol = o.valueCol.colName;
  if (!stepCol || !valueCol) return [];
  let rows = data.rows.map((r) => {
    const raw = r[stepCol];
    const value = parseFloat(String(r[valueCol]));
    return {
      step: raw instanceof Date ? formatDate(raw, dateTimeFormat) : String(raw ?? ""),
      stepValue: raw,
      value: Number.isFinite(value) ? value : 0,
      sortKey: o.sortKeyCol.colName ? r[o.sortKeyCol.colName] : undefined,
    };
  });
  if (o.autoSort) rows = [...rows].sort((a, b) => b.value - a.value);
  else if (o.sortKeyCol.colName) {
    rows = [...rows].sort((a, b) => {
      const x = a.sortKey as number | string;
      const y = b.sortKey as number | string;
      const c = x < y ? -1 : x > y ? 1 : 0;
      return o.sortKeyCol.reverse ? -c : c;
    });
  }
  const max = Math.max(0, ...rows.map((r) => r.value));
  const steps = rows.map((r, i) => {
    const prev = i === 0 ? r.value : rows[i - 1].value;
    return {
      step: r.step,
      stepValue: r.stepValue,
      value: r.value,
      pctMax: max === 0 ? 0 : (r.value / max) * 100,
      pctPrevious: i === 0 || prev === r.value ? 100 : prev === 0 ? 0 : (r.value / prev) * 100,
    };
  });
  // Percentages are computed before the limit applies.
  return steps.slice(0, o.itemsLimit);
}

/** A percentage, or "<min" / ">max" outside the configured range. */
export function formatFunnelPercent(
  value: number,
  o: FunnelOptions,
  format: (v: number) => string,
): string {
  const { min, max } = o.percentValuesRange;
  if (value !== 0 && value < min) return `<${format(min)}`;
  if (value > max) return `>${format(max)}`;
  return format(value);
}
