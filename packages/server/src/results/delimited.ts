import type { Kysely } from "kysely";
import type { Cell, ResultColumn } from "../runners/types";
import type { DB } from "../store/schema";
import { dateFormatter, type DateFormatter } from "./dateFormat";
import { readResultRowObjects, type ResultMeta } from "./resultStore";

export interface DelimitedOptions {
  delimiter: "," | "\t";
  dateFormat: string;
  timeFormat: string;
}

/** Minimal quoting, as Python's csv module: only fields holding the delimiter, a quote or a line break. */
function quoter(delimiter: string): (field: string) => string {
  const needsQuotes = delimiter === "," ? /[",\r\n]/ : /["\t\r\n]/;
  return (field) => (needsQuotes.test(field) ? `"${field.replace(/"/g, '""')}"` : field);
}

/**
 * Turns one column's cells into their field text; date columns are formatted with the org's
 * formats. Numbers and booleans never need quotes.
 */
function fieldTexter(
  column: ResultColumn,
  options: DelimitedOptions,
  quote: (field: string) => string,
): (value: Cell) => string {
  let format: DateFormatter | null = null;
  if (column.type === "date") format = dateFormatter(options.dateFormat);
  if (column.type === "datetime") {
    format = dateFormatter(`${options.dateFormat} ${options.timeFormat}`);
  }
  const formatted = format;
  return (value) => {
    if (value === null) return "";
    if (typeof value !== "string") return String(value);
    return quote(formatted === null ? value : String(formatted(value)));
  };
}

/** CSV/TSV text of a stored result (§4.4): header of column names, CRLF lines, one piece per chunk. */
export async function* delimitedStream(
  db: Kysely<DB>,
  meta: ResultMeta,
  options: DelimitedOptions,
): AsyncGenerator<string> {
  const { columns } = meta;
  const d = options.delimiter;
  const quote = quoter(d);
  yield `${columns.map((c) => quote(c.name)).join(d)}\r\n`;
  // Formats are compiled once per column, not once per cell.
  const texts = columns.map((c) => fieldTexter(c, options, quote));
  const names = columns.map((c) => c.name);
  for await (const rows of readResultRowObjects(db, meta)) {
    let text = "";
    for (const row of rows) {
      for (let i = 0; i < names.length; i += 1) {
        if (i > 0) text += d;
        text += texts[i]!(row[names[i]!] ?? null);
      }
      text += "\r\n";
    }
    yield text;
  }
}
