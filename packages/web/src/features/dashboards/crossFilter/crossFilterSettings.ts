// The Cross-filtering dialog's rows and what a save stores (issue 19): each row maps a filter
// column, for one widget, to a column of that widget's result or to one of its query's
// parameters. Stored in dashboard.options.crossFilter next to keys this version does not know.
import type { DashboardCrossFilterOptions } from "@sightline/core";

export type MappingTarget = "column" | "parameter";

export interface MappingRow {
  /** The filter's column name (as clicked in some widget). */
  filterColumn: string;
  widgetId: number | null;
  target: MappingTarget;
  /** The widget's column or parameter name. */
  name: string;
}

export function mappingRows(settings: DashboardCrossFilterOptions): MappingRow[] {
  const rows: MappingRow[] = [];
  for (const [target, mappings] of [
    ["column", settings.mappings],
    ["parameter", settings.parameters],
  ] as const)
    for (const [filterColumn, byWidget] of Object.entries(mappings))
      for (const [widgetId, name] of Object.entries(byWidget))
        rows.push({ filterColumn, widgetId: Number(widgetId), target, name });
  return rows;
}

/** Why the rows cannot be saved, or null. */
export function mappingRowsProblem(rows: readonly MappingRow[]): string | null {
  const seen = new Set<string>();
  for (const row of rows) {
    if (!row.filterColumn.trim() || row.widgetId === null || !row.name.trim())
      return "Each mapping needs a filter column, a widget and a column or parameter.";
    const key = `${row.filterColumn.trim()}\u0000${row.widgetId}`;
    if (seen.has(key))
      return `The filter column "${row.filterColumn.trim()}" is mapped twice for one widget.`;
    seen.add(key);
  }
  return null;
}

/** The stored `crossFilter` object: other keys of the stored one kept, mappings replaced. */
export function crossFilterOptionsToStore(
  stored: unknown,
  enabled: boolean,
  rows: readonly MappingRow[],
): Record<string, unknown> {
  const previous =
    typeof stored === "object" && stored !== null && !Array.isArray(stored)
      ? (stored as Record<string, unknown>)
      : {};
  const mappings: Record<string, Record<string, string>> = {};
  const parameters: Record<string, Record<string, string>> = {};
  for (const row of rows) {
    if (row.widgetId === null) continue;
    const into = row.target === "column" ? mappings : parameters;
    const filterColumn = row.filterColumn.trim();
    (into[filterColumn] ??= {})[String(row.widgetId)] = row.name.trim();
  }
  return { ...previous, enabled, mappings, parameters };
}
