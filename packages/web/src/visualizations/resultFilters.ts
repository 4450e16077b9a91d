// Result filters above a visualization (catalogue 1.6), built on core's rules.
import { getResultFilters, parseColumnName, type ResultFilter } from "@sightline/core";
import type { QueryResultData } from "./types";

export type { ResultFilter };

/** The filter label: the name without its suffix, each word capitalised. */
export function filterLabel(name: string): string {
  return parseColumnName(name)
    .displayName.replace(/^::/, "")
    .replace(/(^|\s)(\S)/g, (_, sep: string, c: string) => sep + c.toUpperCase());
}

function sameInstant(a: unknown, b: unknown) {
  return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
}

/** Filters for a result; multi-select filters start with every value selected. */
export function buildFilters(data: QueryResultData): ResultFilter[] {
  return getResultFilters(data.columns, data.rows).map((f) => {
    // Dates are de-duplicated by timestamp.
    const values: unknown[] = [];
    for (const v of f.values) if (!values.some((u) => u === v || sameInstant(u, v))) values.push(v);
    return {
      ...f,
      friendlyName: filterLabel(f.name),
      values,
      current: f.multiple ? [...values] : (values[0] ?? null),
    };
  });
}

/** Keeps rows whose value equals a selected value of every filter (dates as instants, others
 * strictly or by string form, so `true` matches "true"). */
export function filterData(
  data: QueryResultData,
  filters: readonly ResultFilter[],
): QueryResultData {
  if (filters.length === 0) return data;
  const rows = data.rows.filter((row) =>
    filters.every((f) => {
      const selected = f.multiple
        ? Array.isArray(f.current)
          ? f.current
          : [f.current]
        : [f.current];
      return selected.some((s) => valuesMatch(s, row[f.name]));
    }),
  );
  return { ...data, rows };
}

export function valuesMatch(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || a === undefined || b === null || b === undefined) return a == b;
  if (a instanceof Date || b instanceof Date) {
    const ta = a instanceof Date ? a.getTime() : Date.parse(String(a));
    const tb = b instanceof Date ? b.getTime() : Date.parse(String(b));
    return !Number.isNaN(ta) && ta === tb;
  }
  return String(a) === String(b);
}
