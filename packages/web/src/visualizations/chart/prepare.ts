// Rows to series, the way Redash prepares chart data (catalogue 2.2–2.4): grouping, summing,
// sorting, unified x, missing values and percentages. Stacking itself is left to ECharts.
import { parseDate } from "../lib/dateFormat";
import { toNumber } from "../lib/numberFormat";
import { schemeColor } from "../palette";
import type { QueryResultData, Row } from "../types";
import { readMapping, type ChartOptions } from "./options";
import { percentValueFormat, valueFormat, type NumberFormats } from "./valueFormat";

export type SeriesKind =
  "line" | "column" | "area" | "scatter" | "bubble" | "box" | "pie" | "heatmap" | "custom";
export type XValue = string | number | null;
export type XAxisKind = "category" | "value" | "time" | "log";

export interface ChartPoint {
  x: XValue;
  y: number | string | null;
  yError?: number | null;
  size?: number | null;
  yPercent?: number;
  row: Row;
}

export interface ChartSeries {
  key: string;
  name: string;
  type: SeriesKind;
  yAxis: 0 | 1;
  color: string;
  points: ChartPoint[];
  /** The numeral format of its y values (and their errors) in labels and tooltips. */
  numberFormat?: string;
}

export interface PreparedChart {
  series: ChartSeries[];
  xKind: XAxisKind;
  notices: string[];
}

const DATE_TEXT = /^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}:\d{2})?$/;
const SUMMED: ReadonlySet<SeriesKind> = new Set(["column", "line", "area"]);

/** Dates become "YYYY-MM-DD HH:mm:ss"; on a datetime axis any parseable date is converted. */
export function normalizeX(value: unknown, datetimeAxis: boolean): XValue {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return parseDate(value)?.format("YYYY-MM-DD HH:mm:ss") ?? null;
  if (typeof value === "number") {
    return datetimeAxis ? (parseDate(value)?.format("YYYY-MM-DD HH:mm:ss") ?? value) : value;
  }
  const text = String(value);
  if (datetimeAxis) {
    const d = parseDate(text);
    if (d) return d.format("YYYY-MM-DD HH:mm:ss");
  }
  return text;
}

export function compareX(a: XValue, b: XValue): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "number") return -1;
  if (typeof b === "number") return 1;
  return a < b ? -1 : 1;
}

const xKey = (x: XValue) => (typeof x === "number" ? `n:${x}` : `s:${x}`);

export function detectXKind(options: ChartOptions, xs: readonly XValue[]): XAxisKind {
  const t = options.xAxis?.type;
  if (t === "category") return "category";
  if (t === "datetime") return "time";
  if (t === "linear") return "value";
  if (t === "logarithmic") return "log";
  const present = xs.filter((x) => x !== null);
  if (present.length === 0) return "category";
  if (present.every((x) => typeof x === "number")) return "value";
  if (present.every((x) => typeof x === "string" && DATE_TEXT.test(x))) return "time";
  return "category";
}

export function seriesKindOf(options: ChartOptions, key: string): SeriesKind {
  const own = options.seriesOptions?.[key]?.type;
  const t = (own || options.globalSeriesType) as SeriesKind;
  return [
    "line",
    "column",
    "area",
    "scatter",
    "bubble",
    "box",
    "pie",
    "heatmap",
    "custom",
  ].includes(t)
    ? t
    : "column";
}

function cleanY(value: unknown, kind: SeriesKind): number | string | null {
  const n = toNumber(value);
  if (n !== null) return n;
  if (
    (kind === "scatter" || kind === "bubble") &&
    value !== null &&
    value !== undefined &&
    value !== ""
  ) {
    return value instanceof Date
      ? (parseDate(value)?.format("YYYY-MM-DD HH:mm:ss") ?? null)
      : String(value);
  }
  return null;
}

/** Groups rows into raw series (before sorting and filling). */
function groupRows(data: QueryResultData, options: ChartOptions, notices: string[]) {
  const mapping = readMapping(options);
  const columnNames = new Set(data.columns.map((c) => c.name));
  const missing = [
    mapping.x,
    ...mapping.y,
    mapping.series,
    mapping.yError,
    mapping.size,
    mapping.zVal,
  ].filter((c): c is string => !!c && !columnNames.has(c));
  if (missing.length > 0)
    notices.push(
      `Column${missing.length > 1 ? "s" : ""} not in the result: ${missing.join(", ")}.`,
    );
  const yColumns = mapping.y.filter((c) => columnNames.has(c));
  const datetimeAxis = options.xAxis?.type === "datetime";
  const groups = new Map<string, ChartPoint[]>();
  const add = (key: string, p: ChartPoint) => {
    let list = groups.get(key);
    if (!list) groups.set(key, (list = []));
    list.push(p);
  };
  const seriesCol = mapping.series && columnNames.has(mapping.series) ? mapping.series : null;
  for (const row of data.rows) {
    const x =
      mapping.x && columnNames.has(mapping.x) ? normalizeX(row[mapping.x], datetimeAxis) : null;
    const base = {
      x,
      yError: mapping.yError ? toNumber(row[mapping.yError]) : undefined,
      size: mapping.size ? toNumber(row[mapping.size]) : undefined,
      row,
    };
    if (seriesCol) {
      if (yColumns.length === 0) continue;
      // Only the last mapped y column survives when grouping.
      const yCol = yColumns[yColumns.length - 1];
      const key = String(row[seriesCol] ?? "null");
      add(key, { ...base, y: cleanY(row[yCol], seriesKindOf(options, key)) });
    } else {
      for (const yCol of yColumns)
        add(yCol, { ...base, y: cleanY(row[yCol], seriesKindOf(options, yCol)) });
    }
  }
  return groups;
}

function sumByX(points: ChartPoint[]): ChartPoint[] {
  const byX = new Map<string, ChartPoint>();
  for (const p of points) {
    const k = xKey(p.x);
    const seen = byX.get(k);
    if (!seen) {
      byX.set(k, { ...p });
      continue;
    }
    if (typeof p.y === "number") seen.y = (typeof seen.y === "number" ? seen.y : 0) + p.y;
    if (typeof p.yError === "number") seen.yError = (seen.yError ?? 0) + p.yError;
  }
  return [...byX.values()];
}

/** The column a series' y values are of: its own, or the last y column when rows are grouped. */
function yColumnOf(data: QueryResultData, options: ChartOptions, key: string) {
  const mapping = readMapping(options);
  const name = mapping.series ? mapping.y[mapping.y.length - 1] : key;
  return data.columns.find((c) => c.name === name);
}

export function prepareChart(
  data: QueryResultData,
  options: ChartOptions,
  numberFormats?: NumberFormats,
): PreparedChart {
  const notices: string[] = [];
  const groups = groupRows(data, options, notices);
  const percent = !!options.series?.percentValues;
  const stacked = options.series?.stacking === "stack";
  const swapped = !!options.swappedAxes;
  const asZero = options.missingValuesAsZero !== false;

  // Series order: by zIndex, stable.
  const keys = [...groups.keys()]
    .map((key, i) => ({ key, i, z: Number(options.seriesOptions?.[key]?.zIndex ?? 0) || 0 }))
    .sort((a, b) => a.z - b.z || a.i - b.i)
    .map((e) => e.key);

  let series: ChartSeries[] = keys.map((key, index) => {
    const type = seriesKindOf(options, key);
    const own = options.seriesOptions?.[key] ?? {};
    let points = groups.get(key) ?? [];
    if (SUMMED.has(type)) points = sumByX(points);
    if (asZero && type !== "bubble")
      points = points.map((p) => (p.y === null ? { ...p, y: 0 } : p));
    const onRight = own.yAxis === 1 && (!stacked || type === "line") && !swapped;
    return {
      key,
      name: own.name || key,
      type,
      yAxis: onRight ? 1 : 0,
      color: own.color || schemeColor(options.color_scheme, index, keys.length),
      points,
      numberFormat:
        percent && SUMMED.has(type)
          ? percentValueFormat(options, numberFormats)
          : valueFormat(options, yColumnOf(data, options, key), numberFormats),
    };
  });

  const allX = series.flatMap((s) => s.points.map((p) => p.x));
  const xKind = detectXKind(options, allX);
  // Categories keep the result's order (its ORDER BY) unless sortX; on a time or number axis the
  // order changes no position, only the path of a line, which is drawn in x order either way.
  const sorted = options.sortX !== false || xKind !== "category";
  if (sorted)
    series = series.map((s) => ({
      ...s,
      points: [...s.points].sort((a, b) => compareX(a.x, b.x)),
    }));

  // Stacked series must share their x values: ECharts stacks by position in the data, so a
  // series missing a month would shift its later values onto the wrong bars.
  const unify =
    (options.sortX !== false && xKind === "category" && series.every((s) => s.type !== "box")) ||
    (stacked && series.some((s) => SUMMED.has(s.type)));
  if (unify && series.length > 0) series = unifyX(series, sorted, asZero);

  if (percent) series = toPercentages(series);
  if (data.rows.length > 0 && series.length === 0)
    notices.push("Choose the X and Y columns in the editor to draw this chart.");
  return { series, xKind, notices };
}

/** Re-bases every series onto the union of x values; missing points are 0 or gaps. */
export function unifyX(series: ChartSeries[], sort: boolean, asZero: boolean): ChartSeries[] {
  const seen = new Map<string, XValue>();
  for (const s of series)
    for (const p of s.points) if (!seen.has(xKey(p.x))) seen.set(xKey(p.x), p.x);
  let xs = [...seen.values()];
  if (sort) xs = xs.sort(compareX);
  return series.map((s) => {
    const byX = new Map(s.points.map((p) => [xKey(p.x), p]));
    return {
      ...s,
      points: xs.map((x) => byX.get(xKey(x)) ?? { x, y: asZero ? 0 : null, row: {} }),
    };
  });
}

/** Each y as y / Σ|y| × 100 over the series at that x (line, area, column). */
export function toPercentages(series: ChartSeries[]): ChartSeries[] {
  const totals = new Map<string, number>();
  for (const s of series) {
    if (!SUMMED.has(s.type)) continue;
    for (const p of s.points) {
      if (typeof p.y === "number")
        totals.set(xKey(p.x), (totals.get(xKey(p.x)) ?? 0) + Math.abs(p.y));
    }
  }
  return series.map((s) =>
    SUMMED.has(s.type)
      ? {
          ...s,
          points: s.points.map((p) => {
            if (typeof p.y !== "number") return p;
            const total = totals.get(xKey(p.x)) ?? 0;
            const pct = total === 0 ? 0 : (p.y / total) * 100;
            return { ...p, y: pct, yPercent: pct };
          }),
        }
      : s,
  );
}

// --- pie ---------------------------------------------------------------------------------

export interface PieSlice {
  label: string;
  value: number;
  percent: number;
  color: string;
  row: Row;
}

export interface PreparedPie {
  name: string;
  key: string;
  slices: PieSlice[];
  /** The numeral format of its values. */
  numberFormat: string;
}

export function preparePies(
  data: QueryResultData,
  options: ChartOptions,
  numberFormats?: NumberFormats,
): { pies: PreparedPie[]; notices: string[] } {
  const notices: string[] = [];
  const groups = groupRows(data, { ...options, sortX: false }, notices);
  const hasX = !!readMapping(options).x;
  const colorOf = new Map<string, string>();
  const firstKeys = [...(groups.values().next().value ?? [])].map((p) => String(p.x));
  const distinctFirst = [...new Set(firstKeys)];
  const pies = [...groups.entries()].map(([key, points], seriesIndex) => {
    const byLabel = new Map<string, PieSlice>();
    for (const p of points) {
      const label = hasX ? String(p.x ?? "null") : `Slice ${seriesIndex}`;
      const value = typeof p.y === "number" ? p.y : 0;
      const seen = byLabel.get(label);
      if (seen) seen.value += value;
      else byLabel.set(label, { label, value, percent: 0, color: "", row: p.row });
    }
    let slices = [...byLabel.values()];
    const total = slices.reduce((t, s) => t + Math.abs(s.value), 0);
    for (const s of slices) {
      s.percent = total === 0 ? 0 : (Math.abs(s.value) / total) * 100;
      if (!colorOf.has(s.label)) {
        const own = options.valuesOptions?.[s.label]?.color;
        const idx = distinctFirst.indexOf(s.label);
        colorOf.set(
          s.label,
          own ||
            schemeColor(
              options.color_scheme,
              idx >= 0 ? idx : colorOf.size,
              Math.max(distinctFirst.length, 1),
            ),
        );
      }
      s.color = colorOf.get(s.label) as string;
    }
    if (options.piesort !== false) slices = slices.sort((a, b) => b.value - a.value);
    return {
      key,
      name: options.seriesOptions?.[key]?.name || key,
      slices,
      numberFormat: valueFormat(options, yColumnOf(data, options, key), numberFormats),
    };
  });
  return { pies, notices };
}

// --- heatmap -----------------------------------------------------------------------------

export interface PreparedHeatmap {
  /** The numeral format of the colour column's values. */
  numberFormat: string;
  xs: string[];
  ys: string[];
  /** [xIndex, yIndex, z] */
  cells: [number, number, number][];
  min: number;
  max: number;
}

function orderCategories(
  values: string[],
  sort: boolean | undefined,
  reverse: boolean | undefined,
): string[] {
  let out = [...values];
  if (sort) out = out.sort((a, b) => compareX(toNumber(a) ?? a, toNumber(b) ?? b));
  if (reverse) out = out.reverse();
  return out;
}

export function prepareHeatmap(
  data: QueryResultData,
  options: ChartOptions,
  numberFormats?: NumberFormats,
): PreparedHeatmap {
  const m = readMapping(options);
  const yCol = m.y[m.y.length - 1];
  const xsSeen: string[] = [];
  const ysSeen: string[] = [];
  const values = new Map<string, number>();
  for (const row of data.rows) {
    const x = String(normalizeX(m.x ? row[m.x] : null, false) ?? "null");
    const y = String(normalizeX(yCol ? row[yCol] : null, false) ?? "null");
    if (!xsSeen.includes(x)) xsSeen.push(x);
    if (!ysSeen.includes(y)) ysSeen.push(y);
    values.set(`${x}\u0000${y}`, toNumber(m.zVal ? row[m.zVal] : null) ?? 0);
  }
  const xs = orderCategories(xsSeen, options.sortX, options.reverseX);
  const ys = orderCategories(ysSeen, options.sortY, options.reverseY);
  const cells: [number, number, number][] = [];
  let min = Infinity;
  let max = -Infinity;
  xs.forEach((x, xi) =>
    ys.forEach((y, yi) => {
      const z = values.get(`${x}\u0000${y}`) ?? 0;
      min = Math.min(min, z);
      max = Math.max(max, z);
      cells.push([xi, yi, z]);
    }),
  );
  return {
    numberFormat: valueFormat(
      options,
      data.columns.find((c) => c.name === m.zVal),
      numberFormats,
    ),
    xs,
    ys,
    cells,
    min: Number.isFinite(min) ? min : 0,
    max: Number.isFinite(max) ? max : 0,
  };
}
