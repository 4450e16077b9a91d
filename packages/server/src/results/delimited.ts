import type { Kysely } from "kysely";
import type { ResultColumn } from "../runners/types";
import type { DB } from "../store/schema";
import { parseRowObjects } from "./chunks";
import { dateTextFormatter } from "./dateFormat";
import { readResultChunkTexts, type ResultMeta } from "./resultStore";
import { quoter, rowTextConverter, type ScannedColumn } from "./rowTextScanner";

export interface DelimitedOptions {
  delimiter: "," | "\t";
  dateFormat: string;
  timeFormat: string;
}

/** How a date or datetime column's string cells are formatted (org formats); null for others. */
function columnFormat(column: ResultColumn, options: DelimitedOptions): ScannedColumn["format"] {
  let format: string | null = null;
  if (column.type === "date") format = options.dateFormat;
  if (column.type === "datetime") format = `${options.dateFormat} ${options.timeFormat}`;
  // Its plan lets the scanner format plain ISO values from their bytes.
  return format === null ? null : dateTextFormatter(format);
}

/**
 * The lines of one chunk through JSON.parse, for text the scanner does not expect. Numbers and
 * booleans never need quotes.
 */
function parsedLines(
  text: Buffer,
  columns: readonly ScannedColumn[],
  delimiter: string,
  quote: (field: string) => string,
): string {
  let out = "";
  for (const row of parseRowObjects(text)) {
    for (let i = 0; i < columns.length; i += 1) {
      if (i > 0) out += delimiter;
      const { name, format } = columns[i]!;
      const value: unknown = row[name] ?? null;
      if (value === null) continue;
      if (typeof value !== "string") out += String(value);
      else out += quote(format === null ? value : format(value));
    }
    out += "\r\n";
  }
  return out;
}

/**
 * The conversion of a result's chunk texts (chunks.ts) to CSV/TSV lines, UTF-8, each ending in
 * CRLF: straight from the text (rowTextScanner.ts), or through JSON.parse for text in a form
 * the scanner does not expect.
 */
export function delimitedLines(
  columns: readonly ResultColumn[],
  options: DelimitedOptions,
): (text: Buffer) => Buffer {
  const d = options.delimiter;
  const quote = quoter(d);
  // Formats are compiled once per column, not once per cell.
  const scanned = columns.map((c) => ({ name: c.name, format: columnFormat(c, options) }));
  const convert = rowTextConverter(scanned, d);
  return (text) => convert(text) ?? Buffer.from(parsedLines(text, scanned, d, quote));
}

/** CSV/TSV text of a stored result (§4.4), UTF-8: header of column names, CRLF lines, per chunk. */
export async function* delimitedStream(
  db: Kysely<DB>,
  meta: ResultMeta,
  options: DelimitedOptions,
): AsyncGenerator<Buffer> {
  const d = options.delimiter;
  const quote = quoter(d);
  yield Buffer.from(`${meta.columns.map((c) => quote(c.name)).join(d)}\r\n`);
  const lines = delimitedLines(meta.columns, options);
  for await (const { text } of readResultChunkTexts(db, meta)) yield lines(text);
}
