// CHOROPLETH: options (with legacy rewrites), matching rows to regions, and the colour classes.
import { asObject, mergeOptions } from "../lib/merge";
import { toNumber } from "../lib/numberFormat";
import { mixColors } from "../palette";
import type { Options, QueryResultData, Row } from "../types";

export interface ChoroplethOptions extends Options {
  mapType: string;
  keyColumn: string | null;
  targetField: string | null;
  valueColumn: string | null;
  clusteringMode: "q" | "e" | "k";
  steps: number;
  valueFormat: string;
  noValuePlaceholder: string;
  colors: { min: string; max: string; noValue: string; background: string; borders: string };
  legend: { visible: boolean; position: string; alignText: string };
  tooltip: { enabled: boolean; template: string };
  popup: { enabled: boolean; template: string };
  bounds?: [[number, number], [number, number]] | null;
}

export const choroplethDefaults = (): ChoroplethOptions => ({
  mapType: "countries",
  keyColumn: null,
  targetField: null,
  valueColumn: null,
  clusteringMode: "e",
  steps: 5,
  valueFormat: "0,0.00",
  noValuePlaceholder: "N/A",
  colors: {
    min: "#799CFF",
    max: "#002FB4",
    noValue: "#dddddd",
    background: "#ffffff",
    borders: "#ffffff",
  },
  legend: { visible: true, position: "bottom-left", alignText: "right" },
  tooltip: { enabled: true, template: "<b>{{ @@name }}</b>: {{ @@value }}" },
  popup: {
    enabled: true,
    template:
      "Country: <b>{{ @@name_long }} ({{ @@iso_a2 }})</b>\n<br>\nValue: <b>{{ @@value }}</b>",
  },
});

export function getChoroplethOptions(
  stored: Options | null | undefined,
  availableMaps: readonly string[],
): ChoroplethOptions {
  const src = { ...asObject(stored) };
  // Legacy names.
  if (src.countryCodeColumn !== undefined && src.keyColumn === undefined)
    src.keyColumn = src.countryCodeColumn;
  if (src.countryCodeType !== undefined && src.targetField === undefined)
    src.targetField = src.countryCodeType;
  const o = mergeOptions(choroplethDefaults(), src);
  if (!availableMaps.includes(o.mapType)) o.mapType = availableMaps[0] ?? "countries";
  return o;
}

/** Rows keyed by the key column's string form (empty keys skipped, later rows win). */
export function rowsByKey(data: QueryResultData, keyColumn: string | null): Map<string, Row> {
  const out = new Map<string, Row>();
  if (!keyColumn) return out;
  for (const row of data.rows) {
    const k = row[keyColumn];
    if (k === null || k === undefined || k === "") continue;
    out.set(String(k), row);
  }
  return out;
}

function quantiles(values: number[], n: number): number[] {
  const sorted = [...values].sort((a, b) => a - b);
  return Array.from(
    { length: n },
    (_, i) => sorted[Math.min(sorted.length - 1, Math.ceil(((i + 1) / n) * sorted.length) - 1)],
  );
}

function equidistant(values: number[], n: number): number[] {
  const min = Math.min(...values);
  const max = Math.max(...values);
  return Array.from({ length: n }, (_, i) => min + ((max - min) * (i + 1)) / n);
}

function kmeans(values: number[], n: number): number[] {
  const sorted = [...values].sort((a, b) => a - b);
  let centers = equidistant(sorted, n).map(
    (_, i) => sorted[Math.floor((i * (sorted.length - 1)) / Math.max(1, n - 1))],
  );
  let groups: number[][] = [];
  for (let iter = 0; iter < 30; iter++) {
    groups = centers.map(() => []);
    for (const v of sorted) {
      let best = 0;
      centers.forEach((c, i) => Math.abs(v - c) < Math.abs(v - centers[best]) && (best = i));
      groups[best].push(v);
    }
    const next = groups.map((g, i) =>
      g.length ? g.reduce((s, v) => s + v, 0) / g.length : centers[i],
    );
    if (next.every((c, i) => c === centers[i])) break;
    centers = next;
  }
  return groups
    .filter((g) => g.length)
    .map((g) => Math.max(...g))
    .sort((a, b) => a - b);
}

export interface ColorClass {
  limit: number;
  color: string;
}

/** Classes = min(steps, distinct values); a value takes the first limit it does not exceed. */
export function colorClasses(
  values: readonly number[],
  o: Pick<ChoroplethOptions, "steps" | "clusteringMode" | "colors">,
): ColorClass[] {
  const distinct = [...new Set(values)];
  if (distinct.length === 0) return [];
  if (distinct.length === 1) return [{ limit: distinct[0], color: o.colors.max }];
  const n = Math.max(1, Math.min(Math.floor(o.steps) || 5, distinct.length));
  const limits =
    o.clusteringMode === "q"
      ? quantiles(distinct, n)
      : o.clusteringMode === "k"
        ? kmeans(distinct, n)
        : equidistant(distinct, n);
  const unique = [...new Set(limits)];
  return unique.map((limit, i) => ({
    limit,
    color: mixColors(o.colors.min, o.colors.max, unique.length === 1 ? 1 : i / (unique.length - 1)),
  }));
}

export function colorFor(
  value: number | null,
  classes: readonly ColorClass[],
  noValue: string,
): string {
  if (value === null) return noValue;
  return (classes.find((c) => value <= c.limit) ?? classes[classes.length - 1])?.color ?? noValue;
}

export function regionValue(row: Row | undefined, valueColumn: string | null): number | null {
  return row && valueColumn ? toNumber(row[valueColumn]) : null;
}
