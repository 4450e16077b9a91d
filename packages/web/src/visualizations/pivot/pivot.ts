// PIVOT: options and the aggregation itself (rows × columns of a chosen aggregator).
import { formatDate, parseDate } from "../lib/dateFormat";
import { asNumber, asObject, mergeOptions } from "../lib/merge";
import { formatNumber, toNumber } from "../lib/numberFormat";
import type { Options, QueryResultData, VisualizationFormats } from "../types";

export const AGGREGATORS = [
  "Count",
  "Count Unique Values",
  "List Unique Values",
  "Sum",
  "Integer Sum",
  "Average",
  "Median",
  "Sample Variance",
  "Sample Standard Deviation",
  "Minimum",
  "Maximum",
  "First",
  "Last",
  "Sum over Sum",
  "Sum as Fraction of Total",
  "Sum as Fraction of Rows",
  "Sum as Fraction of Columns",
  "Count as Fraction of Total",
  "Count as Fraction of Rows",
  "Count as Fraction of Columns",
] as const;

export const RENDERERS = [
  "Table",
  "Table Heatmap",
  "Table Col Heatmap",
  "Table Row Heatmap",
  "Exportable TSV",
  "Grouped Column Chart",
  "Stacked Column Chart",
  "Grouped Bar Chart",
  "Stacked Bar Chart",
  "Line Chart",
  "Dot Chart",
  "Area Chart",
  "Scatter Chart",
  "Multiple Pie Chart",
] as const;

export interface PivotOptions extends Options {
  rows: string[];
  cols: string[];
  vals: string[];
  aggregatorName: string;
  rendererName: string;
  valueFilter: Record<string, Record<string, boolean>>;
  rowOrder: string;
  colOrder: string;
  sorters: Record<string, unknown>;
  derivedAttributes: Record<string, unknown>;
  hiddenAttributes: string[];
  hiddenFromAggregators: string[];
  hiddenFromDragDrop: string[];
  menuLimit: number;
  unusedOrientationCutoff: number;
  controls: { enabled: boolean };
  rendererOptions: { table: { rowTotals: boolean; colTotals: boolean } };
}

export const pivotDefaults = (): PivotOptions => ({
  rows: [],
  cols: [],
  vals: [],
  aggregatorName: "Count",
  rendererName: "Table",
  valueFilter: {},
  rowOrder: "key_a_to_z",
  colOrder: "key_a_to_z",
  sorters: {},
  derivedAttributes: {},
  hiddenAttributes: [],
  hiddenFromAggregators: [],
  hiddenFromDragDrop: [],
  menuLimit: 500,
  unusedOrientationCutoff: 85,
  // Inverted, as in Redash: true HIDES the controls.
  controls: { enabled: false },
  rendererOptions: { table: { rowTotals: true, colTotals: true } },
});

export function getPivotOptions(stored: Options | null | undefined): PivotOptions {
  const o = mergeOptions(pivotDefaults(), asObject(stored));
  // Stored options may hold anything: keep the lists as lists of names, names as known ones.
  const names = (v: unknown) =>
    Array.isArray(v) ? v.filter((x) => x !== null && x !== undefined).map(String) : [];
  for (const k of [
    "rows",
    "cols",
    "vals",
    "hiddenAttributes",
    "hiddenFromAggregators",
    "hiddenFromDragDrop",
  ] as const)
    o[k] = names(o[k]);
  if (!(AGGREGATORS as readonly string[]).includes(o.aggregatorName)) o.aggregatorName = "Count";
  if (!(RENDERERS as readonly string[]).includes(o.rendererName)) o.rendererName = "Table";
  o.valueFilter = asObject(o.valueFilter) as PivotOptions["valueFilter"];
  o.menuLimit = asNumber(o.menuLimit, 500);
  return o;
}

/** How many value attributes an aggregator takes. */
export function aggregatorArity(name: string): number {
  if (name.startsWith("Count") && !name.startsWith("Count Unique")) return 0;
  if (name === "Sum over Sum") return 2;
  return 1;
}

/** Records as the pivot sees them: dates formatted, booleans as "true"/"false", null as "null". */
export function pivotRecords(
  data: QueryResultData,
  formats: Pick<VisualizationFormats, "dateFormat" | "dateTimeFormat">,
): Record<string, string>[] {
  return pivotInput(data, formats).records;
}

/** How one attribute's shown values compare, where text order would be wrong (dates). */
export type AttributeOrder = Record<string, (a: string, b: string) => number>;

/**
 * The records, and the order of the date attributes' shown values by their time: "02/01/2024"
 * comes after "31/12/2023" whatever the date format. Each distinct value is parsed once.
 */
export function pivotInput(
  data: QueryResultData,
  formats: Pick<VisualizationFormats, "dateFormat" | "dateTimeFormat">,
): { records: Record<string, string>[]; order: AttributeOrder } {
  const types = new Map(data.columns.map((c) => [c.name, c.type]));
  const times = new Map<string, Map<string, number | null>>();
  const records = data.rows.map((row) => {
    const out: Record<string, string> = {};
    for (const c of data.columns) {
      const v = row[c.name];
      const t = types.get(c.name);
      if (v === null || v === undefined) out[c.name] = "null";
      else if (v instanceof Date || t === "date" || t === "datetime") {
        const text = formatDate(v, t === "date" ? formats.dateFormat : formats.dateTimeFormat);
        out[c.name] = text;
        const seen = times.get(c.name) ?? times.set(c.name, new Map()).get(c.name)!;
        if (!seen.has(text)) seen.set(text, parseDate(v)?.valueOf() ?? null);
      } else out[c.name] = String(v);
    }
    return out;
  });
  const order: AttributeOrder = {};
  for (const [name, seen] of times) {
    // Values with a time first, by time; the rest ("null", unparsable text) after, as text.
    order[name] = (a, b) => {
      const ta = seen.get(a) ?? null;
      const tb = seen.get(b) ?? null;
      if (ta !== null && tb !== null) return ta - tb;
      if (ta !== null) return -1;
      if (tb !== null) return 1;
      return collator.compare(a, b);
    };
  }
  return { records, order };
}

interface Accumulator {
  push(record: Record<string, string>): void;
  value(): number | string | null;
}

function makeAccumulator(name: string, vals: string[]): () => Accumulator {
  const [a, b] = vals;
  const num = (r: Record<string, string>, k: string | undefined) =>
    k === undefined ? null : toNumber(r[k]);
  const numbers = () => {
    const list: number[] = [];
    return {
      list,
      push(r: Record<string, string>) {
        const n = num(r, a);
        if (n !== null) list.push(n);
      },
    };
  };
  switch (name) {
    case "Count Unique Values":
    case "List Unique Values":
      return () => {
        const seen = new Set<string>();
        return {
          push: (r) => a !== undefined && seen.add(r[a]),
          value: () => (name === "List Unique Values" ? [...seen].join(", ") : seen.size),
        };
      };
    case "Sum":
    case "Integer Sum":
      return () => {
        let sum = 0;
        return {
          push: (r) => {
            const n = num(r, a);
            if (n !== null) sum += name === "Integer Sum" ? Math.trunc(n) : n;
          },
          value: () => sum,
        };
      };
    case "Average":
    case "Median":
    case "Sample Variance":
    case "Sample Standard Deviation":
    case "Minimum":
    case "Maximum":
      return () => {
        const acc = numbers();
        return {
          push: acc.push,
          value: () => {
            const l = acc.list;
            if (l.length === 0) return null;
            if (name === "Minimum") return Math.min(...l);
            if (name === "Maximum") return Math.max(...l);
            const mean = l.reduce((s, v) => s + v, 0) / l.length;
            if (name === "Average") return mean;
            if (name === "Median") {
              const s = [...l].sort((x, y) => x - y);
              const m = Math.floor(s.length / 2);
              return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
            }
            if (l.length < 2) return null;
            const variance = l.reduce((s, v) => s + (v - mean) ** 2, 0) / (l.length - 1);
            return name === "Sample Variance" ? variance : Math.sqrt(variance);
          },
        };
      };
    case "First":
    case "Last":
      return () => {
        let picked: string | null = null;
        return {
          push: (r) => {
            if (a === undefined) return;
            if (name === "Last" || picked === null) picked = r[a];
          },
          value: () => (picked === null ? null : (toNumber(picked) ?? picked)),
        };
      };
    case "Sum over Sum":
      return () => {
        let top = 0;
        let bottom = 0;
        return {
          push: (r) => {
            top += num(r, a) ?? 0;
            bottom += num(r, b) ?? 0;
          },
          value: () => (bottom === 0 ? null : top / bottom),
        };
      };
    default:
      if (name.startsWith("Sum as Fraction")) {
        return () => {
          let sum = 0;
          return { push: (r) => (sum += num(r, a) ?? 0), value: () => sum };
        };
      }
      // Count and Count as Fraction of ...
      return () => {
        let count = 0;
        return { push: () => (count += 1), value: () => count };
      };
  }
}

export interface PivotResult {
  rowKeys: string[][];
  colKeys: string[][];
  value(rowKey: string[], colKey: string[]): number | string | null;
  rowTotal(rowKey: string[]): number | string | null;
  colTotal(colKey: string[]): number | string | null;
  grandTotal(): number | string | null;
  format(value: number | string | null): string;
}

const SEP = "\u0000";
const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });

export function compareKeys(
  a: string[],
  b: string[],
  attributes: readonly string[] = [],
  order: AttributeOrder = {},
): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const compare = order[attributes[i]] ?? collator.compare;
    const c = compare(a[i] ?? "", b[i] ?? "");
    if (c !== 0) return c;
  }
  return 0;
}

/** Aggregators whose value is one of the inputs or their sum: whole inputs, whole values. */
const KEEPS_WHOLE = new Set(["Sum", "Minimum", "Maximum", "First", "Last"]);

export function pivot(
  records: readonly Record<string, string>[],
  options: Pick<
    PivotOptions,
    "rows" | "cols" | "vals" | "aggregatorName" | "valueFilter" | "rowOrder" | "colOrder"
  >,
  order: AttributeOrder = {},
): PivotResult {
  const name = AGGREGATORS.includes(options.aggregatorName as (typeof AGGREGATORS)[number])
    ? options.aggregatorName
    : "Count";
  const factory = makeAccumulator(name, options.vals);
  const cells = new Map<string, Accumulator>();
  const rowTotals = new Map<string, Accumulator>();
  const colTotals = new Map<string, Accumulator>();
  const all = factory();
  const rowKeys = new Map<string, string[]>();
  const colKeys = new Map<string, string[]>();
  const get = (m: Map<string, Accumulator>, k: string) => m.get(k) ?? m.set(k, factory()).get(k)!;
  const excluded = options.valueFilter ?? {};
  for (const r of records) {
    // valueFilter lists the values that are EXCLUDED.
    if (Object.entries(excluded).some(([attr, vals]) => vals && vals[r[attr] ?? "null"] === true))
      continue;
    const rk = options.rows.map((a) => r[a] ?? "null");
    const ck = options.cols.map((a) => r[a] ?? "null");
    const rks = rk.join(SEP);
    const cks = ck.join(SEP);
    rowKeys.set(rks, rk);
    colKeys.set(cks, ck);
    all.push(r);
    get(rowTotals, rks).push(r);
    get(colTotals, cks).push(r);
    get(cells, `${rks}${SEP}${SEP}${cks}`).push(r);
  }
  const raw = (m: Map<string, Accumulator>, k: string) => m.get(k)?.value() ?? null;
  const fraction = name.includes("Fraction of");
  const denominator = (rks: string, cks: string) => {
    const total = name.endsWith("Rows")
      ? raw(rowTotals, rks)
      : name.endsWith("Columns")
        ? raw(colTotals, cks)
        : all.value();
    return typeof total === "number" && total !== 0 ? total : null;
  };
  const frac = (v: number | string | null, rks: string, cks: string) => {
    if (!fraction || typeof v !== "number") return v;
    const d = denominator(rks, cks);
    return d === null ? null : v / d;
  };
  const sortKeys = (
    keys: string[][],
    attributes: string[],
    sort: string,
    total: (k: string[]) => number | string | null,
  ) => {
    const byKey = (a: string[], b: string[]) => compareKeys(a, b, attributes, order);
    if (sort === "value_a_to_z" || sort === "value_z_to_a") {
      const dir = sort === "value_a_to_z" ? 1 : -1;
      return keys.sort(
        (a, b) => dir * ((toNumber(total(a)) ?? 0) - (toNumber(total(b)) ?? 0)) || byKey(a, b),
      );
    }
    return keys.sort(byKey);
  };
  // Sums of whole numbers (counts, quantities) read without ".00".
  const wholeInputs =
    KEEPS_WHOLE.has(name) &&
    options.vals[0] !== undefined &&
    records.every((r) => Number.isInteger(toNumber(r[options.vals[0]]) ?? 0));
  const result: PivotResult = {
    rowKeys: [],
    colKeys: [],
    value: (rk, ck) =>
      frac(raw(cells, `${rk.join(SEP)}${SEP}${SEP}${ck.join(SEP)}`), rk.join(SEP), ck.join(SEP)),
    rowTotal: (rk) => frac(raw(rowTotals, rk.join(SEP)), rk.join(SEP), ""),
    colTotal: (ck) => frac(raw(colTotals, ck.join(SEP)), "", ck.join(SEP)),
    grandTotal: () => (fraction ? (typeof all.value() === "number" ? 1 : null) : all.value()),
    format: (v) => {
      if (v === null) return "";
      if (typeof v === "string") return v;
      if (fraction) return formatNumber(v * 100, "0.0%");
      if (name === "Count" || name === "Count Unique Values" || name === "Integer Sum")
        return formatNumber(v, "0,0");
      if (wholeInputs && Number.isInteger(v)) return formatNumber(v, "0,0");
      return formatNumber(v, "0,0.00");
    },
  };
  result.rowKeys = sortKeys([...rowKeys.values()], options.rows, options.rowOrder, result.rowTotal);
  result.colKeys = sortKeys([...colKeys.values()], options.cols, options.colOrder, result.colTotal);
  // Fix the fraction of rows/columns totals: a row's share of itself is 1.
  if (fraction && name.endsWith("Rows"))
    result.rowTotal = (rk) => (raw(rowTotals, rk.join(SEP)) === null ? null : 1);
  if (fraction && name.endsWith("Columns"))
    result.colTotal = (ck) => (raw(colTotals, ck.join(SEP)) === null ? null : 1);
  return result;
}

/** The pivot as tab-separated text (the "Exportable TSV" renderer). */
export function pivotToTsv(p: PivotResult, options: Pick<PivotOptions, "rows" | "cols">): string {
  const header = [
    ...options.rows,
    ...(p.colKeys.length && options.cols.length ? p.colKeys.map((k) => k.join("-")) : ["Value"]),
  ];
  const lines = [header.join("\t")];
  for (const rk of p.rowKeys) {
    const values = options.cols.length ? p.colKeys.map((ck) => p.value(rk, ck)) : [p.rowTotal(rk)];
    lines.push([...rk, ...values.map((v) => (v === null ? "" : String(v)))].join("\t"));
  }
  return lines.join("\n");
}
