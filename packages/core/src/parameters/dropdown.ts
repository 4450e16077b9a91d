// Dropdown values of a query-based parameter, taken from the source query's result (§8.5).

export interface DropdownValue {
  /** Label, with the original type of the cell. */
  name: unknown;
  /** Always a string. */
  value: string;
}

export interface DropdownSource {
  columns: readonly { name: string }[];
  rows: readonly Readonly<Record<string, unknown>>[];
}

function cellToString(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/**
 * One entry per row: `name` from a column called "name" (any case) else the first column,
 * `value` from a column called "value" (any case) else the first column.
 */
export function dropdownValuesFromResult(data: DropdownSource): DropdownValue[] {
  if (data.columns.length === 0) return [];
  const find = (wanted: string) =>
    data.columns.find((c) => c.name.toLowerCase() === wanted)?.name ?? data.columns[0].name;
  const nameColumn = find("name");
  const valueColumn = find("value");
  return data.rows.map((row) => ({
    name: row[nameColumn],
    value: cellToString(row[valueColumn]),
  }));
}

/** The allowed values of a query parameter: the `value`s of its dropdown entries. */
export function dropdownOptionValues(data: DropdownSource): string[] {
  return dropdownValuesFromResult(data).map((d) => d.value);
}
