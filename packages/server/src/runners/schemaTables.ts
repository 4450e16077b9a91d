import type { SchemaTable } from "./types";

/** One column of a catalog listing: the table's name as the schema browser shows it. */
export type CatalogColumn = [table: string, column: unknown, type: unknown];

/**
 * A catalog's columns grouped by table, columns in the listing's order, tables sorted by name; a
 * null type stays null.
 */
export function schemaTables(columns: Iterable<CatalogColumn>): SchemaTable[] {
  const tables = new Map<string, SchemaTable["columns"]>();
  for (const [table, column, type] of columns) {
    const list = tables.get(table) ?? [];
    list.push({ name: String(column), type: type === null ? null : String(type) });
    tables.set(table, list);
  }
  return [...tables]
    .map(([name, list]) => ({ name, columns: list }))
    .sort((a, b) => a.name.localeCompare(b.name));
}
