import type { Kysely } from "kysely";
import type { Cell, ResultColumn } from "../runners/types";
import type { DB } from "../store/schema";
import { dateFormatter, type DateFormatter } from "./dateFormat";
import { readResultRows, type ResultMeta } from "./resultStore";

export interface DelimitedOptions {
  delimiter: "," | "\t";
  dateFormat: string;
  timeFormat: string;
}

/** Minimal quoting, as Python's csv module: only fields holding the delimiter, a quote or a line break. */
function quote(field: string, delimiter: string): string {
  if (field.includes(delimiter) || /["\r\n]/.test(field)) return `"${field.replace(/"/g, '""')}"`;
  return field;
}

/** Turns one column's cells into text; date columns are formatted with the org's formats. */
function cellTexter(column: ResultColumn, options: DelimitedOptions): (value: Cell) => string {
  let format: DateFormatter | null = null;
  if (column.type === "date") format = dateFormatter(options.dateFormat);
  if (column.type === "datetime") {
    format = dateFormatter(`${options.dateFormat} ${options.timeFormat}`);
  }
  if (format === null) return (value) => (value === null ? "" : String(value));
  const formatted = format;
  return (value) => (value === null ? "" : String(formatted(value)));
}

/** CSV/TSV text of a stored result (§4.4): header of column names, CRLF lines, one piece per chunk. */
export async function* delimitedStream(
  db: Kysely<DB>,
  meta: ResultMeta,
  options: DelimitedOptions,
): AsyncGenerator<string> {
  const { columns } = meta;
  const d = options.delimiter;
  yield `${columns.map((c) => quote(c.name, d)).join(d)}\r\n`;
  // Formats are compiled once per column, not once per cell.
  const texts = columns.map((c) => cellTexter(c, options));
  for await (const rows of readResultRows(db, meta)) {
    let text = "";
    for (const row of rows) {
      text += `${texts.map((toText, i) => quote(toText(row[i] ?? null), d)).join(d)}\r\n`;
    }
    yield text;
  }
}
