// Cross-filters in the page address (issue 19): one `cf` parameter holding a JSON array, so a
// filtered dashboard is a link to share. Part of the rules in crossFilter.ts.
import type { ColumnType } from "./columns";
import type { CrossFilter, CrossFilterValue } from "./crossFilter";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// The address form: `cf=<JSON array>`, each filter as
// {"column": "...", "values": [...], "type": "...", "widget": 12} (type and widget optional).

/** The `cf` parameter's value, or null when there is no filter (and the key should be removed). */
export function encodeCrossFilters(filters: readonly CrossFilter[]): string | null {
  const kept = filters.filter((f) => f.values.length > 0);
  if (kept.length === 0) return null;
  return JSON.stringify(
    kept.map((f) => {
      const out: Record<string, unknown> = { column: f.column, values: f.values };
      if (f.type) out.type = f.type;
      if (typeof f.widget === "number") out.widget = f.widget;
      return out;
    }),
  );
}

const COLUMN_TYPE_NAMES = new Set<string>([
  "integer",
  "float",
  "boolean",
  "string",
  "datetime",
  "date",
]);

function isFilterValue(value: unknown): value is CrossFilterValue {
  return (
    value === null ||
    typeof value === "string" ||
    typeof value === "boolean" ||
    (typeof value === "number" && Number.isFinite(value))
  );
}

/**
 * Filters read back from the `cf` parameter. An address is user input: anything malformed is
 * dropped (an unreadable parameter gives no filters), never thrown.
 */
export function decodeCrossFilters(raw: string | null | undefined): CrossFilter[] {
  if (!raw) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  const filters: CrossFilter[] = [];
  for (const item of parsed) {
    if (!isRecord(item) || typeof item.column !== "string" || item.column === "") continue;
    if (!Array.isArray(item.values)) continue;
    const values = item.values.filter(isFilterValue);
    if (values.length === 0 || filters.some((f) => f.column === item.column)) continue;
    const filter: CrossFilter = { column: item.column, values };
    if (typeof item.type === "string" && COLUMN_TYPE_NAMES.has(item.type))
      filter.type = item.type as ColumnType;
    if (typeof item.widget === "number" && Number.isInteger(item.widget))
      filter.widget = item.widget;
    filters.push(filter);
  }
  return filters;
}
