// What a new visualization starts with beyond its type's defaults: columns picked from the
// result so it draws at once, and a name that tells it from the query's others.
import { normalizeData } from "./lib/normalize";
import type { Options, QueryResultColumn, QueryResultData } from "./types";

const isNumeric = (c: QueryResultColumn) => c.type === "integer" || c.type === "float";
const isDate = (c: QueryResultColumn) => c.type === "date" || c.type === "datetime";

/**
 * The type's default options with columns of this result filled in: a counter counts the first
 * numeric column; a chart draws the first numeric column (Y) over the first date or, failing
 * that, text column (X). Without a fitting column the defaults stay as they are.
 */
export function optionsForData(type: string, defaults: Options, raw: QueryResultData): Options {
  const { columns } = normalizeData(raw);
  if (type === "COUNTER") {
    const value = columns.find(isNumeric);
    return value ? { ...defaults, counterColName: value.name } : defaults;
  }
  if (type === "CHART") {
    const x =
      columns.find(isDate) ??
      columns.find((c) => c.type === "string") ??
      (columns.filter(isNumeric).length > 1 ? columns[0] : undefined);
    const y = columns.find((c) => isNumeric(c) && c !== x);
    if (!x || !y) return defaults;
    return { ...defaults, columnMapping: { [x.name]: "x", [y.name]: "y" } };
  }
  return defaults;
}

/** "Chart", or "Chart 2", "Chart 3", … when the query already has one of that name. */
export function numberedName(name: string, taken: readonly string[]): string {
  const names = new Set(taken);
  if (!names.has(name)) return name;
  let n = 2;
  while (names.has(`${name} ${n}`)) n += 1;
  return `${name} ${n}`;
}
