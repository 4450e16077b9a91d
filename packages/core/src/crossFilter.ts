// Cross-filters on dashboards (issue 19): a click on a value in one widget filters the rows the
// other widgets have already loaded. The rules live here, pure; the web app only wires them up.
//
// How it plugs into a dashboard:
// - Settings are extra keys in the stored `options` objects, which Redash ignores (so Redash
//   clients still read and write these dashboards unchanged):
//     dashboard.options.crossFilter = { enabled: boolean, mappings: { <filterColumn>: { <widgetId>: <column> } },
//                                       parameters: { <filterColumn>: { <widgetId>: <parameterName> } } }
//     widget.options.crossFilter    = { enabled: boolean }
//   Both default to enabled; `readDashboardCrossFilterOptions` / `readWidgetCrossFilterOptions`
//   read them defensively from whatever is stored.
// - State: the active filters, in click order, in the page address as one `cf` parameter holding
//   a JSON array (`encodeCrossFilters` / `decodeCrossFilters` in crossFilterUrl.ts), next to
//   (never clashing with) the `p_` parameters, so a filtered dashboard is a shareable link,
//   public dashboards included:
//     ?p_year=2024&cf=[{"column":"country","values":["FR","DE"],"type":"string","widget":12}]
//   (URL-encoded). In the web app: features/dashboards/crossFilter/ (`useCrossFilters` holds the
//   state in the address, `CrossFilterBar` shows it in the parameters bar, Escape removes the last).
// - A click in widget W on column C with value V: `crossFilterColumn` names the filter (C, or the
//   filter column C is mapped to for W), `crossFilterValue` types V as C's column type, and
//   `toggleCrossFilterValue` gives the next state.
// - Each widget, on each render: `filterWidgetRows(widget, rows, filters, mappings)` gives the rows
//   to draw (the same array when nothing applies, so memoised renderers skip work), and
//   `sourceCrossFilters(widget, filters)` the filters it is the source of, to highlight instead.
//   A widget applies a filter when its result has a column of the filter's name, or a column
//   mapped to it for that widget. Filters combine with AND, a filter's values with OR.
//   `crossFilterSelection` tells its renderer which clicked values to highlight.
//   Column types come from the result's columns (fill missing ones with `inferColumnTypes`).
// - A dashboard with cross-filtering off ignores clicks and any `cf` parameter; a widget with it
//   off neither starts filters nor is filtered (the page checks the options before calling here).
// - A widget may map a filter to one of its query's parameters instead (`parameters` above): the
//   parameter is set and the widget re-runs rather than filtering rows (crossFilterParameters.ts).
import type { ColumnType } from "./columns";

/** A clicked value, typed as its column: numbers, booleans, dates as ISO strings, or null. */
export type CrossFilterValue = string | number | boolean | null;

export interface CrossFilter {
  /** The filter's column name (the dashboard-wide name, after mappings). */
  column: string;
  /** The column type of the clicked values, when known; decides how values compare. */
  type?: ColumnType | null;
  /** Selected values, OR-ed; never empty. */
  values: CrossFilterValue[];
  /** The widget the values were clicked in: it highlights them instead of being filtered. */
  widget?: number | null;
}

/** Per dashboard: filter column → widget id → that widget's column. */
export type CrossFilterMappings = Readonly<Record<string, Readonly<Record<string, string>>>>;

export interface DashboardCrossFilterOptions {
  enabled: boolean;
  mappings: CrossFilterMappings;
  /** Filter column → widget id → the widget's query parameter the filter sets. */
  parameters: CrossFilterMappings;
}

export interface WidgetCrossFilterOptions {
  enabled: boolean;
}

/** What a widget's result is, as far as cross-filtering cares. */
export interface CrossFilterWidget {
  id: number;
  columns: readonly { name: string; type?: ColumnType | null }[];
}

/** The address parameter holding the filters. */
export const CROSS_FILTER_URL_KEY = "cf";

// ---------------------------------------------------------------------------------------------
// Settings

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The dashboard's settings from its stored options; anything malformed is left out. */
export function readDashboardCrossFilterOptions(options: unknown): DashboardCrossFilterOptions {
  const raw = isRecord(options) && isRecord(options.crossFilter) ? options.crossFilter : {};
  return {
    enabled: raw.enabled !== false,
    mappings: readMappings(raw.mappings),
    parameters: readMappings(raw.parameters),
  };
}

/** filter column → widget id → name, keeping only non-empty names. */
function readMappings(raw: unknown): CrossFilterMappings {
  const mappings: Record<string, Record<string, string>> = {};
  if (!isRecord(raw)) return mappings;
  for (const [filterColumn, byWidget] of Object.entries(raw)) {
    if (!isRecord(byWidget)) continue;
    const clean: Record<string, string> = {};
    for (const [widgetId, name] of Object.entries(byWidget))
      if (typeof name === "string" && name !== "") clean[widgetId] = name;
    if (Object.keys(clean).length > 0) mappings[filterColumn] = clean;
  }
  return mappings;
}

/** The widget's settings from its stored options. */
export function readWidgetCrossFilterOptions(options: unknown): WidgetCrossFilterOptions {
  const raw = isRecord(options) && isRecord(options.crossFilter) ? options.crossFilter : {};
  return { enabled: raw.enabled !== false };
}

// ---------------------------------------------------------------------------------------------
// Values and comparison

const NUMBER_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
/** An ISO date, optionally with a time (T or space), fraction and zone. */
const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?(Z|([+-])(\d{2}):?(\d{2})?)?$/i;

/**
 * The instant a date value stands for, in ms, or NaN. Date-only and zone-less strings are read as
 * UTC (results carry no zone), so '2024-01-05', '2024-01-05T00:00:00Z', '2024-01-05 00:00' and a
 * Date of that instant are one value. Parsed by hand: this runs for every row of a date column.
 */
export function dateInstant(value: unknown): number {
  if (value instanceof Date) return value.getTime();
  if (typeof value === "number") return value;
  if (typeof value !== "string") return NaN;
  const m = ISO_DATE_TIME.exec(value.trim());
  if (!m) return NaN;
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = m[4] === undefined ? 0 : Number(m[4]);
  const minute = m[5] === undefined ? 0 : Number(m[5]);
  const second = m[6] === undefined ? 0 : Number(m[6]);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59)
    return NaN;
  const millis = m[7] === undefined ? 0 : Number(m[7].slice(0, 3).padEnd(3, "0"));
  const utc = Date.UTC(Number(m[1]), month - 1, day, hour, minute, second, millis);
  if (m[9] === undefined) return utc;
  const offset = (Number(m[10]) * 60 + (m[11] === undefined ? 0 : Number(m[11]))) * 60_000;
  return m[9] === "-" ? utc + offset : utc - offset;
}

function isDateType(type: ColumnType | null | undefined): boolean {
  return type === "date" || type === "datetime";
}

function isNumberType(type: ColumnType | null | undefined): boolean {
  return type === "integer" || type === "float";
}

/** A clicked value typed as its column, ready to store in a filter and in the address. */
export function crossFilterValue(
  value: unknown,
  type: ColumnType | null | undefined,
): CrossFilterValue {
  if (value === null || value === undefined) return null;
  if (isDateType(type) || value instanceof Date) {
    const t = dateInstant(value);
    if (Number.isNaN(t)) return String(value);
    const iso = new Date(t).toISOString();
    // A date column keeps its day; a datetime its instant.
    return type === "date" && iso.endsWith("T00:00:00.000Z") ? iso.slice(0, 10) : iso;
  }
  if (isNumberType(type)) {
    if (typeof value === "number") return value;
    const s = String(value).trim();
    return NUMBER_TEXT.test(s) ? Number(s) : s;
  }
  if (type === "boolean") {
    if (typeof value === "boolean") return value;
    const s = String(value).trim().toLowerCase();
    if (s === "true") return true;
    if (s === "false") return false;
    return String(value);
  }
  if (typeof value === "number" || typeof value === "boolean") return value;
  return typeof value === "string" ? value : JSON.stringify(value);
}

type Comparison = "instant" | "number" | "boolean" | "text";

/** How a filter's values compare with a column's: by the more specific of the two types. */
function comparisonFor(
  filterType: ColumnType | null | undefined,
  columnType: ColumnType | null | undefined,
): Comparison {
  if (isDateType(filterType) || isDateType(columnType)) return "instant";
  if (isNumberType(filterType) || isNumberType(columnType)) return "number";
  if (filterType === "boolean" || columnType === "boolean") return "boolean";
  return "text";
}

/**
 * A non-null value's comparison key: a primitive, so a Set looks it up without allocating. Values
 * that do not read as the comparison's kind fall back to their text.
 */
function comparisonKey(value: unknown, comparison: Comparison): string | number | boolean {
  if (comparison === "instant") {
    const t = dateInstant(value);
    if (!Number.isNaN(t)) return t;
  } else if (comparison === "number") {
    if (typeof value === "number") return value;
    if (typeof value === "string") {
      const s = value.trim();
      if (NUMBER_TEXT.test(s)) return Number(s);
    }
  } else if (comparison === "boolean") {
    if (typeof value === "boolean") return value;
    if (typeof value === "string") {
      const s = value.trim().toLowerCase();
      if (s === "true") return true;
      if (s === "false") return false;
    }
  }
  if (value instanceof Date) return value.getTime();
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value) ?? String(value);
}

/** Whether two values are the same selection under a filter's type. */
export function sameCrossFilterValue(a: unknown, b: unknown, type?: ColumnType | null): boolean {
  const aNull = a === null || a === undefined;
  const bNull = b === null || b === undefined;
  if (aNull || bNull) return aNull && bNull;
  const comparison = comparisonFor(type, null);
  return comparisonKey(a, comparison) === comparisonKey(b, comparison);
}

// ---------------------------------------------------------------------------------------------
// Which filters apply where, and filtering rows

/** The filter name for a click on `column` in a widget: the filter column it is mapped to, if any. */
export function crossFilterColumn(
  widgetId: number,
  column: string,
  mappings: CrossFilterMappings,
): string {
  for (const [filterColumn, byWidget] of Object.entries(mappings))
    if (byWidget[String(widgetId)] === column) return filterColumn;
  return column;
}

export interface AppliedCrossFilter {
  filter: CrossFilter;
  /** The widget's column the filter tests. */
  column: string;
  columnType: ColumnType | null;
}

/**
 * The filters that narrow a widget's rows: those it is not the source of, whose column (or the
 * column mapped to it for this widget) is in its result.
 */
export function applicableCrossFilters(
  widget: CrossFilterWidget,
  filters: readonly CrossFilter[],
  mappings: CrossFilterMappings = {},
): AppliedCrossFilter[] {
  const applied: AppliedCrossFilter[] = [];
  for (const filter of filters) {
    if (filter.widget !== undefined && filter.widget !== null && filter.widget === widget.id)
      continue;
    const mapped = mappings[filter.column]?.[String(widget.id)];
    const target =
      (mapped !== undefined && widget.columns.find((c) => c.name === mapped)) ||
      widget.columns.find((c) => c.name === filter.column);
    if (target) applied.push({ filter, column: target.name, columnType: target.type ?? null });
  }
  return applied;
}

/** The filters a widget is the source of: its selection, to highlight. */
export function sourceCrossFilters(
  widgetId: number,
  filters: readonly CrossFilter[],
): CrossFilter[] {
  return filters.filter((f) => f.widget === widgetId);
}

/**
 * For a widget's renderer: whether a value of one of its columns is part of its own selection
 * (to highlight a bar, slice or cell). Columns are the widget's names, mapped ones included.
 */
export function crossFilterSelection(
  widgetId: number,
  filters: readonly CrossFilter[],
  mappings: CrossFilterMappings = {},
): (column: string, value: unknown) => boolean {
  const own = sourceCrossFilters(widgetId, filters).map((filter) => ({
    filter,
    column: mappings[filter.column]?.[String(widgetId)] ?? filter.column,
  }));
  if (own.length === 0) return () => false;
  return (column, value) =>
    own.some(
      ({ filter, column: c }) =>
        c === column && filter.values.some((v) => sameCrossFilterValue(v, value, filter.type)),
    );
}

type RowTest = (row: Readonly<Record<string, unknown>>) => boolean;

/** One applied filter as a row test, its values' keys computed once. */
function compileOne({ filter, column, columnType }: AppliedCrossFilter): RowTest {
  const comparison = comparisonFor(filter.type, columnType);
  let matchesNull = false;
  const keys = new Set<string | number | boolean>();
  // A Date in the result is an instant whatever the column's declared type.
  const instants = new Set<number>();
  for (const v of filter.values) {
    if (v === null || v === undefined) {
      matchesNull = true;
      continue;
    }
    keys.add(comparisonKey(v, comparison));
    const t = dateInstant(v);
    if (!Number.isNaN(t)) instants.add(t);
  }
  if (comparison === "text") {
    // The common case, kept free of the generic key function.
    return (row) => {
      const v = row[column];
      if (v === null || v === undefined) return matchesNull;
      if (typeof v === "string") return keys.has(v);
      if (v instanceof Date) return instants.has(v.getTime());
      return keys.has(comparisonKey(v, comparison));
    };
  }
  // Text that has to be read as a date, number or boolean is read once per distinct value:
  // results repeat their values, and reading a date is the costly part.
  const seen = new Map<string, boolean>();
  return (row) => {
    const v = row[column];
    if (v === null || v === undefined) return matchesNull;
    if (typeof v === "string") {
      let matched = seen.get(v);
      if (matched === undefined) {
        matched = keys.has(comparisonKey(v, comparison));
        seen.set(v, matched);
      }
      return matched;
    }
    if (v instanceof Date) return instants.has(v.getTime());
    return keys.has(comparisonKey(v, comparison));
  };
}

/** A test that a row passes every applied filter, or null when none applies. */
export function compileCrossFilters(applied: readonly AppliedCrossFilter[]): RowTest | null {
  if (applied.length === 0) return null;
  const tests = applied.map(compileOne);
  if (tests.length === 1) return tests[0]!;
  return (row) => {
    for (const test of tests) if (!test(row)) return false;
    return true;
  };
}

/** The rows a widget shows under the filters: the same array when no filter applies to it. */
export function filterWidgetRows<Row extends Readonly<Record<string, unknown>>>(
  widget: CrossFilterWidget,
  rows: readonly Row[],
  filters: readonly CrossFilter[],
  mappings: CrossFilterMappings = {},
): readonly Row[] {
  const test = compileCrossFilters(applicableCrossFilters(widget, filters, mappings));
  return test ? rows.filter(test) : rows;
}

// ---------------------------------------------------------------------------------------------
// Changing the state

export interface CrossFilterClick {
  widget: number;
  /** The filter column (after `crossFilterColumn`). */
  column: string;
  type?: ColumnType | null;
  value: CrossFilterValue;
}

/**
 * The filters after a click. Clicking a selected value removes it (and the filter with its last
 * value); another value replaces the selection, or joins it when `add` (e.g. a Ctrl/⌘-click).
 * The changed filter moves to the end, so "remove the last" undoes the latest click.
 */
export function toggleCrossFilterValue(
  filters: readonly CrossFilter[],
  click: CrossFilterClick,
  options: { add?: boolean } = {},
): CrossFilter[] {
  const existing = filters.find((f) => f.column === click.column);
  const others = filters.filter((f) => f !== existing);
  const type = click.type ?? existing?.type ?? null;
  let values: CrossFilterValue[];
  if (existing && existing.values.some((v) => sameCrossFilterValue(v, click.value, type))) {
    values = existing.values.filter((v) => !sameCrossFilterValue(v, click.value, type));
  } else if (existing && options.add) {
    values = [...existing.values, click.value];
  } else {
    values = [click.value];
  }
  if (values.length === 0) return others;
  const next: CrossFilter = { column: click.column, values, widget: click.widget };
  if (type) next.type = type;
  return [...others, next];
}

export function removeCrossFilter(filters: readonly CrossFilter[], column: string): CrossFilter[] {
  return filters.filter((f) => f.column !== column);
}
