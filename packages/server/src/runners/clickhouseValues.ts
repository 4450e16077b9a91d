// ClickHouse's TabSeparated text → Redash column types and JSON-safe cells. Every ClickHouse type
// is mapped: 64-bit and wider integers and decimals stay exact (text once a JS number would round
// them), composite values (Array, Map, Tuple, Nested) become JSON text.
import type { Cell, ColumnType } from "./types";
import { decimalCell, isoTimestamp } from "./values";

/** How one column's text turns into a cell. */
export type CellKind =
  | "int"
  | "bigint"
  | "float"
  | "decimal"
  | "bool"
  | "date"
  | "datetime"
  | "string"
  | "fixedString"
  | "json";

export interface ClickHouseColumn {
  type: ColumnType;
  kind: CellKind;
}

/** `Nullable(X)`, `LowCardinality(X)`, `SimpleAggregateFunction(f, X)` → X. */
export function unwrapType(type: string): string {
  let inner = type.trim();
  for (;;) {
    const wrapper = /^(Nullable|LowCardinality)\((.*)\)$/s.exec(inner);
    if (wrapper) {
      inner = wrapper[2].trim();
      continue;
    }
    const aggregate = /^SimpleAggregateFunction\(\s*[^,]+,(.*)\)$/s.exec(inner);
    if (aggregate) {
      inner = aggregate[1].trim();
      continue;
    }
    return inner;
  }
}

/** A ClickHouse type name (as in a result's header or system.columns) → how to read it. */
export function clickhouseColumn(typeName: string): ClickHouseColumn {
  const type = unwrapType(typeName);
  const base = /^[A-Za-z0-9_]+/.exec(type)?.[0] ?? type;
  if (/^U?Int(8|16|32)$/.test(base)) return { type: "integer", kind: "int" };
  if (/^U?Int(64|128|256)$/.test(base)) return { type: "integer", kind: "bigint" };
  if (/^(Float32|Float64|BFloat16)$/.test(base)) return { type: "float", kind: "float" };
  if (/^Decimal(32|64|128|256)?$/.test(base)) return { type: "float", kind: "decimal" };
  if (base === "Bool" || base === "Boolean") return { type: "boolean", kind: "bool" };
  if (base === "Date" || base === "Date32") return { type: "date", kind: "date" };
  if (base === "DateTime" || base === "DateTime64" || base === "DateTime32")
    return { type: "datetime", kind: "datetime" };
  if (base === "FixedString") return { type: "string", kind: "fixedString" };
  if (
    /^(Array|Map|Tuple|Nested|Object|JSON|Variant|Dynamic|Point|Ring|Polygon|MultiPolygon|LineString|MultiLineString)$/.test(
      base,
    )
  )
    return { type: "string", kind: "json" };
  // String, UUID, IPv4/IPv6, Enum8/16, Interval*, Time, Nothing…: shown as ClickHouse writes them.
  return { type: "string", kind: "string" };
}

const TSV_ESCAPES: Record<string, string> = {
  b: "\b",
  f: "\f",
  r: "\r",
  n: "\n",
  t: "\t",
  "0": "\0",
  a: "\x07",
  v: "\v",
  e: "\x1b",
};

/** Reverses ClickHouse's escaping of a string (TabSeparated field, or a quoted literal's body). */
export function unescapeText(text: string): string {
  if (!text.includes("\\")) return text;
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch !== "\\" || i === text.length - 1) {
      out += ch;
      continue;
    }
    const next = text[++i];
    if (next === "x" && /^[0-9a-fA-F]{2}$/.test(text.slice(i + 1, i + 3))) {
      out += String.fromCharCode(parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      out += TSV_ESCAPES[next] ?? next;
    }
  }
  return out;
}

/** One TabSeparated field → a cell, by its column. `\N` is NULL. */
export function clickhouseCell(field: string, column: ClickHouseColumn): Cell {
  if (field === "\\N") return null;
  switch (column.kind) {
    case "int":
      return Number(field);
    case "bigint": {
      const n = Number(field);
      return Number.isSafeInteger(n) ? n : field;
    }
    case "float": {
      const n = Number(field);
      return Number.isFinite(n) ? n : null;
    }
    case "decimal":
      return decimalCell(field);
    case "bool":
      return field === "true" || field === "1";
    case "date":
      return field;
    case "datetime":
      return isoTimestamp(field);
    case "fixedString":
      return unescapeText(field).replace(/\0+$/, "");
    case "json":
      return literalToJson(field);
    default:
      return unescapeText(field);
  }
}

/**
 * A ClickHouse composite literal as written in TabSeparated output (`[1,2]`, `(1,'x')`,
 * `{'a':1}`) → JSON text: tuples become arrays, maps objects, quoted strings JSON strings, NULL
 * null, nan/inf null; numbers keep their digits. Text it cannot read is returned as it came.
 */
export function literalToJson(text: string): string {
  try {
    const parser = new LiteralParser(text);
    const json = parser.value();
    parser.skipSpaces();
    return parser.done() ? json : text;
  } catch {
    return text;
  }
}

class LiteralParser {
  private i = 0;
  constructor(private readonly text: string) {}

  done(): boolean {
    return this.i >= this.text.length;
  }

  skipSpaces(): void {
    while (this.i < this.text.length && /\s/.test(this.text[this.i])) this.i++;
  }

  value(): string {
    this.skipSpaces();
    const ch = this.text[this.i];
    if (ch === "[") return `[${this.list("]").join(",")}]`;
    if (ch === "(") return `[${this.list(")").join(",")}]`;
    if (ch === "{") return this.map();
    if (ch === "'") return JSON.stringify(this.quoted());
    return this.bare();
  }

  private list(close: string): string[] {
    this.i++;
    const items: string[] = [];
    this.skipSpaces();
    if (this.text[this.i] === close) {
      this.i++;
      return items;
    }
    for (;;) {
      items.push(this.value());
      this.skipSpaces();
      const ch = this.text[this.i++];
      if (ch === close) return items;
      if (ch !== ",") throw new Error("bad literal");
    }
  }

  private map(): string {
    this.i++;
    const entries: string[] = [];
    this.skipSpaces();
    if (this.text[this.i] === "}") {
      this.i++;
      return "{}";
    }
    for (;;) {
      this.skipSpaces();
      const key = this.text[this.i] === "'" ? this.quoted() : this.keyText();
      this.skipSpaces();
      if (this.text[this.i++] !== ":") throw new Error("bad literal");
      entries.push(`${JSON.stringify(key)}:${this.value()}`);
      this.skipSpaces();
      const ch = this.text[this.i++];
      if (ch === "}") return `{${entries.join(",")}}`;
      if (ch !== ",") throw new Error("bad literal");
    }
  }

  private keyText(): string {
    const raw = this.bare();
    return raw.startsWith('"') ? (JSON.parse(raw) as string) : raw;
  }

  private quoted(): string {
    const start = ++this.i;
    while (this.i < this.text.length) {
      const ch = this.text[this.i];
      if (ch === "\\") this.i += 2;
      else if (ch === "'") break;
      else this.i++;
    }
    if (this.i >= this.text.length) throw new Error("bad literal");
    const body = this.text.slice(start, this.i);
    this.i++;
    return unescapeText(body);
  }

  private bare(): string {
    const start = this.i;
    while (this.i < this.text.length && !/[,\])}:\s]/.test(this.text[this.i])) this.i++;
    const word = this.text.slice(start, this.i);
    if (word === "") throw new Error("bad literal");
    if (word === "NULL" || /^[-+]?(nan|inf)$/i.test(word)) return "null";
    if (word === "true" || word === "false") return word;
    if (/^-?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?$/.test(word)) return word;
    return JSON.stringify(word);
  }
}
