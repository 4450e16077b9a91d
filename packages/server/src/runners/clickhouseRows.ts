// ClickHouse's TabSeparated lines → Redash's row-object JSON text (JsonRows), written directly.
//
// A million rows read as cells, turned into row objects and encoded again by the result store
// took three times the official client's own read; writing each row's JSON here, from the text
// ClickHouse sent, skips the cells, the objects and their garbage. Every value is written exactly
// as JSON.stringify would write the cell clickhouseCell makes of it, so the stored result is the
// same either way (64-bit integers past 2^53 and wide decimals as text, NaN and infinities null).
import { clickhouseCell, type ClickHouseColumn } from "./clickhouseValues";
import type { JsonText } from "./types";

/** Rows per JsonText: small strings stay in V8's young generation (results/chunks.ts). */
const ROWS_PER_TEXT = 500;
/** What starts and ends an exception 25.11 and later write after the first rows. */
export const EXCEPTION_MARKER = "__exception__";
/** Text kept past a line that is not a row, waiting for the exception's end: then it is given up. */
const MAX_TAIL = 1 << 20;

/** A JSON number as JSON.parse reads it (no leading zeros, no "+", no "inf"). */
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?$/;
const JSON_INTEGER = /^-?(?:0|[1-9]\d*)$/;
/** Integers this short are exact in a double (2^53 has 16 digits). */
const SAFE_DIGITS = 15;
/** Characters JSON.stringify escapes, and surrogates (it escapes lone ones). */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** A string's JSON text, as JSON.stringify writes it; plain text is just quoted (a lot quicker). */
export function jsonString(text: string): string {
  return NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`;
}

/**
 * One field's JSON text, as JSON.stringify writes the cell clickhouseCell makes of it (or, for
 * numbers, the same value: ClickHouse writes a float's shortest text that reads back to the same
 * double, and a JSON reader reads it so; turning it into a number and back costs ~1 µs here).
 */
export function cellJson(field: string, column: ClickHouseColumn): string {
  if (field === "\\N") return "null";
  switch (column.kind) {
    case "int":
    case "float": {
      // Negative zero is written 0, as JSON.stringify writes it.
      if (JSON_NUMBER.test(field)) return field[0] === "-" && Number(field) === 0 ? "0" : field;
      const n = Number(field);
      return Number.isFinite(n) ? String(n) : "null";
    }
    case "bigint": {
      const digits = field.startsWith("-") ? field.length - 1 : field.length;
      if (digits <= SAFE_DIGITS && JSON_INTEGER.test(field)) return field === "-0" ? "0" : field;
      const n = Number(field);
      return Number.isSafeInteger(n) ? String(n) : jsonString(field);
    }
    case "string":
    case "fixedString":
    case "date":
    case "datetime":
    case "json": {
      const cell = clickhouseCell(field, column);
      return typeof cell === "string" ? jsonString(cell) : JSON.stringify(cell);
    }
    default:
      return JSON.stringify(clickhouseCell(field, column));
  }
}

/** The usual DateTime text, "YYYY-MM-DD HH:MM:SS": Redash's form only needs its "T" (values.ts). */
const PLAIN_DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/**
 * A pattern for a column's plain values and what to write for them ($1, $2… are its groups),
 * which must be what cellJson writes; null when the column's kind has none (every row then goes
 * field by field). No group matches a tab, a newline, a backslash (TabSeparated's escapes), a
 * quote or a control character.
 */
function plainPattern(kind: ClickHouseColumn["kind"]): { pattern: string; json: string[] } | null {
  switch (kind) {
    case "int":
      // Written as JSON.stringify writes the number (no negative zero, no leading zeros).
      return { pattern: "(0|-?[1-9]\\d*)", json: ["$"] };
    case "float":
      // A JSON number that is not zero, or "0": "-0" (written 0 by JSON.stringify) and other
      // spellings of zero go field by field.
      return {
        pattern: "(-?(?:[1-9]\\d*(?:\\.\\d+)?|0\\.\\d*[1-9]\\d*)(?:[eE][-+]?\\d+)?|0)",
        json: ["$"],
      };
    case "bigint":
      // Up to 15 digits: exact as a number.
      return { pattern: "(0|-?[1-9]\\d{0,14})", json: ["$"] };
    case "string":
    case "date":
      return { pattern: '([^\\t\\n\\\\"\\x00-\\x1f]*)', json: ['"$"'] };
    case "datetime":
      // 18.16 writes "2024-01-01 00:00:00"; servers that know date_time_output_format=iso write
      // "2024-01-01T00:00:00Z" (values.ts isoTimestamp gives both as here).
      return {
        pattern: "(\\d{4}-\\d{2}-\\d{2})[ T](\\d{2}:\\d{2}:\\d{2})(Z?)",
        json: ['"$T$$"'],
      };
    default:
      return null;
  }
}

/**
 * One regular expression for a row of plain values, and the row's JSON made of its groups: the
 * engine's matching does what the field-by-field path does in JS (splitting, checking), several
 * times quicker. `row` is sticky and global, `json` its replacement template (\`$1\`…), which
 * is also `pieces[0] + match[1] + pieces[1] + … + match[n] + pieces[n]` (the writer builds rows
 * so: V8 puts a template's pieces together slower than JS adds them).
 */
export interface RowTemplate {
  row: RegExp;
  json: string;
  /** Literal texts around the groups, one more than there are groups. */
  pieces: string[];
}

export function rowTemplate(names: string[], columns: ClickHouseColumn[]): RowTemplate | null {
  // One column has no tab to tell a row from an exception's line: field by field.
  if (columns.length < 2) return null;
  const patterns: string[] = [];
  let json = "{";
  const pieces = ["{"];
  for (let i = 0; i < columns.length; i++) {
    const plain = plainPattern(columns[i].kind);
    if (!plain) return null;
    patterns.push(plain.pattern);
    const key = `${i === 0 ? "" : ","}${JSON.stringify(names[i])}:`;
    // "$" in a key is written "$$" in a replacement template.
    json += key.replace(/\$/g, "$$$$");
    pieces[pieces.length - 1] += key;
    for (const piece of plain.json) {
      const [before, ...after] = piece.split("$");
      json += before;
      pieces[pieces.length - 1] += before;
      for (const text of after) {
        json += `$${pieces.length}${text}`;
        pieces.push(text);
      }
    }
  }
  // A replacement template names groups $1 to $99 only.
  if (pieces.length > 100) return null;
  pieces[pieces.length - 1] += "}";
  return {
    row: new RegExp(`${patterns.join("\\t")}\\n`, "gy"),
    json: `${json}},`,
    pieces,
  };
}

/**
 * Writes rows of TabSeparated text as row objects keyed by the result's column names: the rows
 * the template covers through it, each other line field by field (one escaped value no longer
 * sends the rest of its chunk that way).
 */
export class JsonRowWriter {
  /** `"name":` of each column, with the comma before it for all but the first. */
  private readonly keys: string[];
  /** The template's row pattern, sticky only: matched one row at a time. */
  private readonly row: RegExp | null;
  private readonly pieces: string[];
  /** The rows of the text being written; joined once (a flat string, no tree of pieces kept). */
  private rows: string[] = [];
  private texts: JsonText[] = [];
  private count = 0;
  /**
   * The text from the first line that was not a row, while ClickHouse's exception after it is
   * still arriving (25.11 and later frame it over several lines, which the stream may bring in
   * different pieces); null while rows come.
   */
  private tail: string | null = null;

  constructor(
    names: string[],
    private readonly columns: ClickHouseColumn[],
    /**
     * The error a line that is not a row stands for (ClickHouse's exception), given the text
     * from that line on; null if there is none, or none yet while more may come (`ended` false).
     */
    private readonly failure: (line: string, rest: string, ended: boolean) => Error | null,
  ) {
    this.keys = names.map((name, i) => `${i === 0 ? "" : ","}${JSON.stringify(name)}:`);
    const template = rowTemplate(names, columns);
    this.row = template ? new RegExp(template.row.source, "y") : null;
    this.pieces = template?.pieces ?? [];
  }

  /** Rows written since the last `take`. */
  get length(): number {
    return this.count;
  }

  /** Adds the rows of some complete lines of text, each ended by a newline. */
  addText(text: string): void {
    if (text === "") return;
    if (this.tail !== null) {
      this.tail += text;
      const error = this.tailFailure(this.tail.length > MAX_TAIL);
      if (error) throw error;
      return;
    }
    let at = 0;
    while (at < text.length) {
      at = this.addPlainRows(text, at);
      if (at >= text.length) return;
      const newline = text.indexOf("\n", at);
      const end = newline === -1 ? text.length : newline;
      if (!this.addLine(text.slice(at, end), text.slice(at))) return;
      at = end + 1;
    }
  }

  /** Adds the rows the template covers from `at` on; returns where the first other line starts. */
  private addPlainRows(text: string, at: number): number {
    const { row, pieces } = this;
    if (!row) return at;
    const last = pieces.length - 1;
    row.lastIndex = at;
    for (let match = row.exec(text); match !== null; match = row.exec(text)) {
      let json = pieces[0];
      for (let g = 1; g <= last; g++) json += match[g] + pieces[g];
      this.push(json);
      at = row.lastIndex;
    }
    return at;
  }

  /**
   * Adds a line field by field, or throws the exception it begins; false when the exception is
   * still arriving (`rest`, the text from the line on, is kept until it has).
   */
  private addLine(line: string, rest: string): boolean {
    const fields = line.split("\t");
    if (fields.length !== this.columns.length || line.includes("\r") || line.startsWith("Code: ")) {
      const error = this.failure(line, rest, false);
      if (error) throw error;
      // No row holds a carriage return (TabSeparated writes it \r): an exception is framed.
      if (line.includes("\r") || line.startsWith(EXCEPTION_MARKER)) {
        this.tail = rest;
        return false;
      }
      if (fields.length !== this.columns.length)
        throw new Error("ClickHouse sent a malformed row.");
    }
    this.add(fields);
    return true;
  }

  /**
   * The answer is over (or its connection broke): throws the exception ClickHouse wrote after the
   * rows, if it began one.
   */
  end(): void {
    if (this.tail !== null)
      throw this.tailFailure(true) ?? new Error("ClickHouse sent a malformed row.");
  }

  private tailFailure(ended: boolean): Error | null {
    const tail = this.tail ?? "";
    return this.failure(tail.slice(0, tail.indexOf("\n")), tail, ended);
  }

  /** Adds one row; `fields` has one text per column. */
  add(fields: string[]): void {
    const { keys, columns } = this;
    let json = "{";
    for (let i = 0; i < fields.length; i++) {
      const field = fields[i];
      const column = columns[i];
      json += keys[i];
      if (column.kind === "datetime" && field.length === 19 && PLAIN_DATETIME.test(field)) {
        json += `"${field.slice(0, 10)}T${field.slice(11)}"`;
      } else if (column.kind === "string" && !NEEDS_ESCAPE.test(field)) {
        json += `"${field}"`;
      } else {
        json += cellJson(field, column);
      }
    }
    this.push(`${json}}`);
  }

  private push(json: string): void {
    this.rows.push(json);
    this.count += 1;
    if (this.rows.length >= ROWS_PER_TEXT) this.flush();
  }

  /** The rows written since the last call, as texts of a few hundred rows each. */
  take(): JsonText[] {
    this.flush();
    const texts = this.texts;
    this.texts = [];
    this.count = 0;
    return texts;
  }

  private flush(): void {
    if (this.rows.length === 0) return;
    this.texts.push({ text: this.rows.join(","), rows: this.rows.length });
    this.rows = [];
  }
}

/**
 * A byte stream of lines → texts of complete lines (each ended by its newline), decoded once per
 * piece of the stream rather than once per line. A newline byte is never inside a UTF-8
 * character, so a cut after one never splits a character.
 */
export async function* lineTexts(stream: AsyncIterable<Buffer>): AsyncGenerator<string> {
  let rest: Buffer | null = null;
  let broken: { error: unknown } | null = null;
  try {
    for await (const chunk of stream) {
      const last = chunk.lastIndexOf(0x0a);
      if (last === -1) {
        rest = rest ? Buffer.concat([rest, chunk]) : chunk;
        continue;
      }
      const head = rest
        ? Buffer.concat([rest, chunk.subarray(0, last + 1)])
        : chunk.subarray(0, last + 1);
      rest = last + 1 < chunk.length ? chunk.subarray(last + 1) : null;
      yield head.toString("utf8");
    }
  } catch (error) {
    // A server may break the connection right after an exception: its text is read first.
    broken = { error };
  }
  // A body that does not end with a newline (an exception written last): its last line.
  if (rest && rest.length > 0) yield `${rest.toString("utf8")}\n`;
  if (broken) throw broken.error;
}
