// What cross-filtering means for one widget (issue 19), as pure functions the widget hook
// memoises: its column types, the rows it shows, the selection it highlights.
import {
  applicableCrossFilters,
  compileCrossFilters,
  crossFilterSelection,
  inferColumnType,
  sourceCrossFilters,
  type ColumnType,
  type CrossFilter,
  type CrossFilterMappings,
} from "@sightline/core";
import type { DatumSelection, QueryResultColumn, QueryResultData } from "../../../visualizations";

/** The dashboard's cross-filtering as each widget receives it; undefined when it is off. */
export interface DashboardCrossFilter {
  filters: readonly CrossFilter[];
  /** Filter column → widget id → the widget's column. */
  mappings: CrossFilterMappings;
  /** Filter column → widget id → the widget's query parameter. */
  parameters: CrossFilterMappings;
  /** Widgets report their result's columns (the settings dialog suggests them). */
  onColumns?: (widgetId: number, columns: readonly string[]) => void;
}

const KNOWN_TYPES = new Set<string>(["integer", "float", "boolean", "string", "datetime", "date"]);

/**
 * Column types as the visualizations see them (lib/normalize): missing ones inferred from the
 * first rows, and text columns holding dates read as dates. Clicked values are typed with these.
 */
export function resultColumnTypes(data: QueryResultData): Map<string, ColumnType | null> {
  const sample = data.rows.slice(0, 1000);
  const types = new Map<string, ColumnType | null>();
  for (const c of data.columns as QueryResultColumn[]) {
    let type = c.type && KNOWN_TYPES.has(c.type) ? (c.type as ColumnType) : null;
    if (type === null || type === "string") {
      const inferred = inferColumnType(sample.map((r) => r[c.name]));
      if (inferred && (type === null || inferred === "datetime" || inferred === "date"))
        type = inferred;
    }
    types.set(c.name, type);
  }
  return types;
}

/**
 * The filters that narrow this widget's rows and a key that changes only when they do, so the
 * widget filters (and its chart redraws) only when a filter that concerns it changes.
 */
export function appliedFilters(
  widgetId: number,
  types: ReadonlyMap<string, ColumnType | null>,
  rowFilters: readonly CrossFilter[],
  mappings: CrossFilterMappings,
) {
  const columns = [...types].map(([name, type]) => ({ name, type }));
  const applied = applicableCrossFilters({ id: widgetId, columns }, rowFilters, mappings);
  const key = JSON.stringify(applied.map((a) => [a.column, a.filter.type, a.filter.values]));
  return { applied, key };
}

/** The result with only the rows that pass the applied filters (the same object when none). */
export function filteredResult(
  data: QueryResultData,
  applied: ReturnType<typeof appliedFilters>["applied"],
): QueryResultData {
  const test = compileCrossFilters(applied);
  return test ? { ...data, rows: data.rows.filter(test) } : data;
}

/** What the widget highlights: the values clicked in it (under its own column names). */
export function widgetSelection(
  widgetId: number,
  filters: readonly CrossFilter[],
  mappings: CrossFilterMappings,
): DatumSelection | undefined {
  const own = sourceCrossFilters(widgetId, filters);
  if (own.length === 0) return undefined;
  return {
    columns: own.map((f) => mappings[f.column]?.[String(widgetId)] ?? f.column),
    has: crossFilterSelection(widgetId, filters, mappings),
  };
}

/** A key for the widget's selection, so its highlight is rebuilt only when the selection changes. */
export function selectionKey(widgetId: number, filters: readonly CrossFilter[]): string {
  return JSON.stringify(sourceCrossFilters(widgetId, filters));
}
