// "{{ key }}" templates (catalogue 1.5). Unknown keys stay as written unless asked to remove them.

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

export function renderTemplate(
  template: string,
  lookup: (key: string) => string | undefined,
  options: { removeUnknown?: boolean } = {},
): string {
  return template.replace(PLACEHOLDER, (whole, key: string) => {
    const value = lookup(key);
    if (value !== undefined) return value;
    return options.removeUnknown ? "" : whole;
  });
}

/** A lookup over a row's columns; `@` is the current cell when given. */
export function rowLookup(row: Record<string, unknown>, cell?: unknown) {
  return (key: string): string | undefined => {
    if (key === "@" && cell !== undefined) return cell === null ? "" : valueText(cell);
    if (Object.prototype.hasOwnProperty.call(row, key)) return valueText(row[key]);
    return undefined;
  };
}

export function valueText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}
