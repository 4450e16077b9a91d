import type { Kysely } from "kysely";
import type { ResultColumn } from "../runners/types";
import type { DB } from "../store/schema";
import { parseRowObjects } from "./chunks";
import { readResultChunkTexts, type ResultMeta } from "./resultStore";
import { quoter, rowTextConverter } from "./rowTextScanner";

/**
 * Downloads write every value as stored, whatever the organisation's date format: dates and
 * times in ISO 8601 as the runners write them (`2024-01-02`, `2024-01-02T10:00:00.123Z`), which
 * every spreadsheet and program reads alike (UI.md, Dates).
 */
export interface DelimitedOptions {
  delimiter: "," | "\t";
}

/**
 * The lines of one chunk through JSON.parse, for text the scanner does not expect. Numbers and
 * booleans never need quotes.
 */
function parsedLines(
  text: Buffer,
  names: readonly string[],
  delimiter: string,
  quote: (field: string) => string,
): string {
  let out = "";
  for (const row of parseRowObjects(text)) {
    for (let i = 0; i < names.length; i += 1) {
      if (i > 0) out += delimiter;
      const value: unknown = row[names[i]!] ?? null;
      if (value === null) continue;
      out += typeof value === "string" ? quote(value) : String(value);
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
  const names = columns.map((c) => c.name);
  const convert = rowTextConverter(names, d);
  return (text) => convert(text) ?? Buffer.from(parsedLines(text, names, d, quote));
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
