// Column types of query results and result filters by column name suffix (spec 1 §5).

export const COLUMN_TYPES = ["integer", "float", "boolean", "string", "datetime", "date"] as const;
export type ColumnType = (typeof COLUMN_TYPES)[number];

export interface ResultColumn {
  name: string;
  friendly_name?: string;
  type: ColumnType | null;
}

export type ResultRow = Readonly<Record<string, unknown>>;

const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Client-side inference for one value: number → float, ISO datetime/date strings, else string. */
export function inferValueType(value: unknown): ColumnType | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "number") return "float";
  if (typeof value === "string") {
    if (ISO_DATETIME.test(value)) return "datetime";
    if (ISO_DATE.test(value)) return "date";
  }
  return "string";
}

/** One column's type from its values; nulls are skipped, mixed types give string. */
export function inferColumnType(values: Iterable<unknown>): ColumnType | null {
  let type: ColumnType | null = null;
  for (const value of values) {
    const t = inferValueType(value);
    if (t === null) continue;
    if (type !== null && type !== t) return "string";
    type = t;
  }
  return type;
}

/** Fills in missing column types from the rows (columns that already have a type are kept). */
export function inferColumnTypes(
  columns: readonly { name: string; type?: ColumnType | null }[],
  rows: readonly ResultRow[],
): ResultColumn[] {
  return columns.map((c) => ({
    ...c,
    type: c.type ?? inferColumnType(rows.map((r) => r[c.name])),
  }));
}

const INTEGER_TEXT = /^[+-]?\d+$/;
const FLOAT_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/**
 * Server-side guess for values from text-based drivers (api-queries §11.11): booleans, integers,
 * floats, and strings that parse as numbers, true/false or dates.
 */
export function guessValueType(value: unknown): ColumnType | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "boolean") return "boolean";
  if (typeof value === "bigint") return "integer";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "float";
  if (value instanceof Date) return "datetime";
  if (typeof value !== "string") return "string";
  const s = value.trim();
  if (s === "") return "string";
  if (INTEGER_TEXT.test(s)) return "integer";
  if (FLOAT_TEXT.test(s)) return "float";
  if (/^(true|false)$/i.test(s)) return "boolean";
  if (
    ISO_DATE.test(s) ||
    ISO_DATETIME.test(s) ||
    /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(s)
  ) {
    return "datetime";
  }
  return "string";
}

// ---------------------------------------------------------------------------------------------
// Result filters: "country::filter", "tags__multiFilter", …

const FILTER_SUFFIXES: Readonly<Record<string, boolean>> = {
  filter: false,
  "multi-filter": true,
  multifilter: true,
};

export interface ColumnFilterInfo {
  /** The name shown to users, without the suffix. */
  displayName: string;
  /** null when the column is not a filter. */
  filter: { multiple: boolean } | null;
}

/** Splits a column name into its display name and filter kind. */
export function parseColumnName(name: string): ColumnFilterInfo {
  for (const sep of ["::", "__"]) {
    const at = name.lastIndexOf(sep);
    if (at <= 0) continue;
    const suffix = name.slice(at + sep.length).toLowerCase();
    if (Object.prototype.hasOwnProperty.call(FILTER_SUFFIXES, suffix)) {
      return { displayName: name.slice(0, at), filter: { multiple: FILTER_SUFFIXES[suffix] } };
    }
  }
  return { displayName: name, filter: null };
}

export const columnDisplayName = (name: string): string => parseColumnName(name).displayName;

export interface ResultFilter {
  /** The full column name (with suffix). */
  name: string;
  friendlyName: string;
  multiple: boolean;
  /** Distinct values in row order. */
  values: unknown[];
  /** Selected value(s): the first value, as a list for multi filters. */
  current: unknown;
}

/** Filters for every filter column of a result. */
export function getResultFilters(
  columns: readonly { name: string }[],
  rows: readonly ResultRow[],
): ResultFilter[] {
  const filters: ResultFilter[] = [];
  for (const column of columns) {
    const info = parseColumnName(column.name);
    if (!info.filter) continue;
    const seen = new Set<string>();
    const values: unknown[] = [];
    for (const row of rows) {
      const v = row[column.name];
      const key = JSON.stringify(v ?? null);
      if (seen.has(key)) continue;
      seen.add(key);
      values.push(v ?? null);
    }
    const first = values.length > 0 ? values[0] : null;
    filters.push({
      name: column.name,
      friendlyName: info.displayName,
      multiple: info.filter.multiple,
      values,
      current: info.filter.multiple ? (values.length > 0 ? [first] : []) : first,
    });
  }
  return filters;
}

const sameValue = (a: unknown, b: unknown) =>
  JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Rows that match every filter's current selection. */
export function applyResultFilters(
  rows: readonly ResultRow[],
  filters: readonly ResultFilter[],
): ResultRow[] {
  if (filters.length === 0) return [...rows];
  return rows.filter((row) =>
    filters.every((f) => {
      const v = row[f.name];
      if (f.multiple) {
        const selected = Array.isArray(f.current) ? f.current : [f.current];
        return selected.some((s) => sameValue(s, v));
      }
      return sameValue(f.current, v);
    }),
  );
}
