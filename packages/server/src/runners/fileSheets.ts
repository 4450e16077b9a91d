import { randomBytes } from "node:crypto";
import { rename, rm, writeFile } from "node:fs/promises";

/**
 * XLSX sheets for the Excel runner: DuckDB's excel extension cannot be installed here, so the
 * sheet is read with exceljs (already a dependency, loaded on first use) and written as CSV
 * beside the cached file; DuckDB's read_csv then detects the column types as for any CSV.
 * Dates are written as ISO timestamps, formulas as their last computed value.
 */

function cellText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Date)
    return value
      .toISOString()
      .replace("T", " ")
      .replace(/\.000Z$|Z$/, "");
  if (typeof value === "object") {
    const v = value as Record<string, unknown>;
    if ("result" in v) return cellText(v.result);
    if ("richText" in v && Array.isArray(v.richText))
      return v.richText.map((r: { text?: string }) => r.text ?? "").join("");
    if ("text" in v) return cellText(v.text);
    if ("error" in v) return "";
    return JSON.stringify(v);
  }
  return String(value);
}

function csvField(text: string): string {
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Writes sheet `sheet` (name, or 0-based position; default the first) of `xlsxPath` as CSV. */
export async function sheetToCsv(
  xlsxPath: string,
  sheet: string | number | undefined,
  csvPath: string,
  skipRows: number,
): Promise<void> {
  const { default: ExcelJS } = await import("exceljs");
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.readFile(xlsxPath);
  } catch (error) {
    throw new Error(`The file is not a readable XLSX workbook: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const sheets = workbook.worksheets;
  const found =
    typeof sheet === "number"
      ? sheets[sheet]
      : sheet === undefined
        ? sheets[0]
        : sheets.find((s) => s.name === sheet);
  if (!found) {
    throw new Error(
      `Sheet ${typeof sheet === "number" ? `number ${sheet}` : `'${sheet}'`} not found. Sheets: ${sheets.map((s) => s.name).join(", ") || "none"}.`,
    );
  }
  const width = found.columnCount;
  const lines: string[] = [];
  found.eachRow({ includeEmpty: true }, (row, number) => {
    if (number <= skipRows) return;
    const cells: string[] = [];
    for (let c = 1; c <= width; c += 1) cells.push(csvField(cellText(row.getCell(c).value)));
    lines.push(cells.join(","));
  });
  if (lines.length === 0 || width === 0) throw new Error(`Sheet '${found.name}' is empty.`);
  const temp = `${csvPath}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    await writeFile(temp, lines.join("\n") + "\n");
    await rename(temp, csvPath);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
