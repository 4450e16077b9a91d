import { createHash, randomBytes } from "node:crypto";
import { once } from "node:events";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, readdir, rename, rm, stat, utimes } from "node:fs/promises";
import path from "node:path";
import { finished, pipeline } from "node:stream/promises";

/**
 * XLSX sheets for the Excel runner: DuckDB's excel extension cannot be installed here, so the
 * sheet is read with exceljs's streaming reader (already a dependency, loaded on first use) and
 * written as CSV; DuckDB's read_csv then detects the column types as for any CSV. Dates are
 * written as ISO timestamps, formulas as their last computed value. The CSV is kept per version
 * of the workbook, so an unchanged workbook is converted once, not on every run.
 */

/** A cell's text: the common kinds first, as a sheet holds hundreds of thousands of cells. */
function cellText(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (value === null || value === undefined) return "";
  if (value instanceof Date) {
    // "2024-01-01 12:00:00", with milliseconds only when there are some.
    const iso = value.toISOString();
    if (iso.length !== 24) return iso.replace("T", " ").replace(/\.000Z$|Z$/, ""); // years past 9999
    const millis = iso.slice(19, 23);
    return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${millis === ".000" ? "" : millis}`;
  }
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

const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

/** A CSV field: quoted when it holds a quote, comma or line break, or starts or ends with space. */
function csvField(text: string): string {
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Which sheet a query reads: its name, or its 0-based position; the first by default. */
export type SheetChoice = string | number | undefined;

/** The rows of a worksheet as the streaming reader gives them. */
interface StreamedRow {
  number: number;
  values: unknown[];
}
interface StreamedSheet extends AsyncIterable<StreamedRow> {
  name?: string;
  /** The sheet's XML bytes, read by the row iterator. */
  iterator?: AsyncIterable<unknown>;
}

/**
 * Reads a sheet the query does not want to its end, unparsed. exceljs keeps a sheet that comes
 * before the shared strings in a temporary file and deletes it once the next sheet is asked for:
 * a sheet left unread would open that deleted file, an error no one listens to.
 */
async function skipSheet(worksheet: StreamedSheet): Promise<void> {
  if (!worksheet.iterator) return;
  for await (const chunk of worksheet.iterator) void chunk;
}

/** The names of the workbook's sheets, in the workbook's order, once its index has been read. */
function sheetNames(reader: { model?: { sheets?: { name: string }[] } }): string[] {
  return (reader.model?.sheets ?? []).map((sheet) => sheet.name);
}

function notFound(sheet: SheetChoice, names: string[]): Error {
  return new Error(
    `Sheet ${typeof sheet === "number" ? `number ${sheet}` : `'${sheet}'`} not found. Sheets: ${names.join(", ") || "none"}.`,
  );
}

/** A sheet's rows as CSV lines, and the widest row's width, which pads the others when written. */
interface SheetLines {
  name: string;
  rows: { text: string; width: number }[];
  width: number;
}

/** Adds row `number` (1-based `values`, as exceljs gives them) after the rows already added. */
function addRow(lines: SheetLines, number: number, values: unknown[], skipRows: number): void {
  if (number <= skipRows) return;
  // Rows the sheet leaves out (empty ones) are written as empty lines of fields.
  while (skipRows + lines.rows.length + 1 < number) lines.rows.push({ text: "", width: 0 });
  const cells = values.slice(1).map((value) => csvField(cellText(value)));
  lines.width = Math.max(lines.width, cells.length);
  lines.rows.push({ text: cells.join(","), width: cells.length });
}

/**
 * The sheet through exceljs's streaming reader, row by row. That reader can lose entries of the
 * archive (exceljs issues 2790 and 3064: workbook.xml, stored last, sometimes never arrives), so
 * any failure here is answered by `loadedSheet`, which reads the whole workbook.
 */
async function streamedSheet(
  xlsxPath: string,
  sheet: SheetChoice,
  skipRows: number,
): Promise<SheetLines | null> {
  const { default: ExcelJS } = await import("exceljs");
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(xlsxPath, {
    worksheets: "emit",
    sharedStrings: "cache",
    // Styles say which numbers are dates.
    styles: "cache",
    hyperlinks: "ignore",
    entries: "ignore",
  });
  const wanted = (found: StreamedSheet, position: number) => {
    const names = sheetNames(reader);
    if (sheet === undefined) return position === 0;
    if (typeof sheet === "number") {
      return names.length > 0 ? found.name === names[sheet] : position === sheet;
    }
    return found.name === sheet;
  };
  let lines: SheetLines | null = null;
  let position = 0;
  for await (const worksheet of reader as unknown as AsyncIterable<StreamedSheet>) {
    const take = !lines && wanted(worksheet, position);
    position += 1;
    if (!take) {
      await skipSheet(worksheet);
      continue;
    }
    const found: SheetLines = { name: worksheet.name ?? "", rows: [], width: 0 };
    for await (const row of worksheet) addRow(found, row.number, row.values, skipRows);
    lines = found;
  }
  return lines;
}

/** The sheet from the whole workbook read at once: slower, but it reads every entry. */
async function loadedSheet(
  xlsxPath: string,
  sheet: SheetChoice,
  skipRows: number,
): Promise<SheetLines> {
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
  if (!found)
    throw notFound(
      sheet,
      sheets.map((s) => s.name),
    );
  const lines: SheetLines = { name: found.name, rows: [], width: 0 };
  found.eachRow((row, number) => addRow(lines, number, row.values as unknown[], skipRows));
  return lines;
}

/**
 * Writes sheet `sheet` of `xlsxPath` as CSV at `csvPath` (through a temporary file, so a
 * concurrent reader never sees half of it). Rows are padded to the widest row.
 */
export async function sheetToCsv(
  xlsxPath: string,
  sheet: SheetChoice,
  csvPath: string,
  skipRows: number,
): Promise<void> {
  const streamed = await streamedSheet(xlsxPath, sheet, skipRows).catch(() => null);
  const { name, rows, width } = streamed ?? (await loadedSheet(xlsxPath, sheet, skipRows));
  if (rows.length === 0 || width === 0) throw new Error(`Sheet '${name}' is empty.`);
  const temp = `${csvPath}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    const out = createWriteStream(temp);
    for (const row of rows) {
      const line = `${row.text}${",".repeat(Math.max(width - Math.max(row.width, 1), 0))}\n`;
      if (!out.write(line)) await once(out, "drain");
    }
    out.end();
    await finished(out);
    await rename(temp, csvPath);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

const shortHash = (value: unknown) =>
  createHash("sha256").update(JSON.stringify(value)).digest("hex").slice(0, 20);

/** The workbook's content hash: a URL fetched again without validators is rewritten unchanged. */
async function contentVersion(file: string): Promise<string> {
  const hash = createHash("sha256");
  await pipeline(createReadStream(file), hash);
  return hash.digest("hex").slice(0, 20);
}

/**
 * How long a copy of a workbook's older content is kept after its last use: a run that was given
 * its path may not have opened it yet (DuckDB opens a file when it binds and again when it reads).
 */
export const KEEP_REPLACED_COPY_MS = 10 * 60_000;

/**
 * The CSV copy of one sheet of a workbook, converted only when missing: copies are named
 * `{prefix}{version}-{sheet}.csv`, the version being the workbook's content hash, so a changed
 * workbook gets new copies. A copy's modification time is its last use; copies of older versions
 * are removed once unused for KEEP_REPLACED_COPY_MS, not at once, so a run still reading the
 * workbook as it was does not lose its copy.
 */
export async function sheetCopy(
  xlsxPath: string,
  sheet: SheetChoice,
  skipRows: number,
  folder: string,
  prefix: string,
): Promise<string> {
  const version = await contentVersion(xlsxPath);
  const copy = path.join(folder, `${prefix}${version}-${shortHash([sheet ?? 0, skipRows])}.csv`);
  if (await stat(copy).catch(() => null)) {
    const now = new Date();
    await utimes(copy, now, now).catch(() => undefined);
  } else {
    await mkdir(folder, { recursive: true });
    await sheetToCsv(xlsxPath, sheet, copy, skipRows);
  }
  await removeReplacedCopies(folder, prefix, version);
  return copy;
}

/** Removes the copies of other versions of the workbook that have not been used for a while. */
async function removeReplacedCopies(folder: string, prefix: string, version: string) {
  const unusedSince = Date.now() - KEEP_REPLACED_COPY_MS;
  for (const name of await readdir(folder)) {
    const replaced =
      name.startsWith(prefix) && name.endsWith(".csv") && !name.startsWith(`${prefix}${version}-`);
    if (!replaced) continue;
    const file = path.join(folder, name);
    const used = await stat(file).catch(() => null);
    if (used && used.mtimeMs < unusedSince) await rm(file, { force: true });
  }
}
