import { describe, expect, it } from "vitest";
import type { Cell, ColumnType, ResultColumn } from "../runners/types";
import { rowObjectBuilder, rowsText } from "./chunks";
import { delimitedLines, type DelimitedOptions } from "./delimited";
import { rowTextConverter } from "./rowTextScanner";

/** The conversion before the scanner: JSON.parse of the row objects, then each field. */
function reference(text: Buffer, columns: ResultColumn[], options: DelimitedOptions): Buffer {
  const d = options.delimiter;
  const needsQuotes = d === "," ? /[",\r\n]/ : /["\t\r\n]/;
  const quote = (field: string) =>
    needsQuotes.test(field) ? `"${field.replace(/"/g, '""')}"` : field;
  const fieldText = (value: Cell) => {
    if (value === null) return "";
    return typeof value === "string" ? quote(value) : String(value);
  };
  const rows = JSON.parse(`[${text.toString()}]`) as Record<string, Cell>[];
  let out = "";
  for (const row of rows) {
    for (let i = 0; i < columns.length; i += 1) {
      if (i > 0) out += d;
      out += fieldText(row[columns[i].name] ?? null);
    }
    out += "\r\n";
  }
  return Buffer.from(out);
}

/** A small seeded generator (mulberry32), so that failures repeat. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = [
  ..."abcXYZ019 ,;\"'\\/\t\r\n{}[]:",
  "\u0000",
  "\u0001",
  "\u001f",
  "\u007f",
  "é",
  "€",
  "\u2028",
  "😀",
  "\ud800", // lone surrogates
  "\udc00",
  "customer ",
  "2024-01-01",
];

function cellMaker(next: () => number) {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
  const text = (max: number) => {
    let s = "";
    const length = Math.floor(next() * max);
    for (let i = 0; i < length; i += 1) s += pick(PIECES);
    return s;
  };
  const pad = (n: number, width = 2) => String(n).padStart(width, "0");
  const isoDate = () =>
    `${pad(1900 + Math.floor(next() * 200), 4)}-${pad(1 + Math.floor(next() * 12))}-${pad(1 + Math.floor(next() * 28))}`;
  const isoTime = () =>
    `${pad(Math.floor(next() * 24))}:${pad(Math.floor(next() * 60))}:${pad(Math.floor(next() * 60))}`;
  const number = (): number =>
    pick([
      () => Math.floor(next() * 2000) - 1000,
      () => Math.round((next() - 0.5) * 1e6) / 100,
      () => (next() - 0.5) * 10 ** Math.floor(next() * 40 - 20),
      () => (next() - 0.5) * 10 ** Math.floor(next() * 600 - 300),
      () => Math.floor(next() * 2 ** 53) * (next() < 0.5 ? -1 : 1),
      () =>
        pick([
          0,
          -0,
          1e21,
          1e-7,
          1e-6,
          0.000001234,
          5e-324,
          Number.MAX_VALUE,
          123456789012345680000,
        ]),
      () => pick([NaN, Infinity, -Infinity]), // stored as null
    ])();
  const fraction = () => String(Math.floor(next() * 1e9)).padStart(9, "0");
  const date = (): Cell =>
    pick<() => Cell>([
      isoDate,
      () => `${isoDate()}T${isoTime()}`,
      () => `${isoDate()}T${isoTime()}.${Math.floor(next() * 1e6)}`,
      () => `${isoDate()}T${isoTime()}.${fraction().slice(0, 1 + Math.floor(next() * 9))}`,
      () => `${isoDate()} ${isoTime()}`,
      () => `${isoDate()}T${isoTime()}Z`,
      () => `${isoDate()}T${isoTime()}+02:00`,
      () => ` ${isoDate()}T${isoTime()} `,
      () => pick(["2024/01/02", "20x4-01-02", "2024-01-02T03:04:05.", 'soon, "maybe"', ""]),
      () => text(12),
      number,
      () => next() < 0.5,
      () => null,
    ])();
  const any = (): Cell =>
    pick<() => Cell>([() => text(20), () => text(200), number, () => next() < 0.5, () => null])();
  return (type: ColumnType): Cell => (type === "date" || type === "datetime" ? date() : any());
}

const TYPES: ColumnType[] = ["integer", "float", "boolean", "string", "datetime", "date", null];
const OPTIONS: DelimitedOptions[] = [{ delimiter: "," }, { delimiter: "\t" }];

function column(name: string, type: ColumnType): ResultColumn {
  return { name, friendly_name: name, type };
}

/** Chunk texts as the result store writes them, of rows of generated cells. */
function chunkOf(columns: ResultColumn[], rowCount: number, seed: number): Buffer {
  const make = cellMaker(random(seed));
  const rows: Cell[][] = [];
  for (let r = 0; r < rowCount; r += 1) rows.push(columns.map((c) => make(c.type)));
  return rowsText(rows, rowObjectBuilder(columns));
}

/** The scanner's own result (null: it left the chunk to JSON.parse). */
function scanned(text: Buffer, columns: ResultColumn[], options: DelimitedOptions) {
  return rowTextConverter(
    columns.map((c) => c.name),
    options.delimiter,
  )(text);
}

function expectSame(text: Buffer, columns: ResultColumn[], options: DelimitedOptions): void {
  const expected = reference(text, columns, options);
  expect(delimitedLines(columns, options)(text).toString()).toBe(expected.toString());
  expect(delimitedLines(columns, options)(text).equals(expected)).toBe(true);
  const direct = scanned(text, columns, options);
  if (direct !== null) {
    expect(direct.toString()).toBe(expected.toString());
    expect(direct.equals(expected)).toBe(true);
  }
}

describe("rowTextScanner: CSV/TSV lines from chunk text", () => {
  it("writes dates and times as stored: ISO 8601, zones and fractions kept", () => {
    const columns = [column("d", "date"), column("t", "datetime")];
    const rows: Cell[][] = [
      ["2024-01-02", "2024-01-02T10:00:00.123Z"],
      ["2024-01-02", "2024-01-02T10:00:00+02:00"],
    ];
    const text = rowsText(rows, rowObjectBuilder(columns));
    expect(scanned(text, columns, OPTIONS[0])?.toString()).toBe(
      "2024-01-02,2024-01-02T10:00:00.123Z\r\n2024-01-02,2024-01-02T10:00:00+02:00\r\n",
    );
    for (const options of OPTIONS) expectSame(text, columns, options);
  });

  it("writes what JSON.parse writes, for generated rows", () => {
    const columns = TYPES.map((type, i) => column(`c${i}`, type));
    for (let seed = 1; seed <= 40; seed += 1) {
      const text = chunkOf(columns, 300, seed);
      for (const options of OPTIONS) expectSame(text, columns, options);
    }
  });

  it("takes the stored text itself, without JSON.parse, in the usual case", () => {
    const columns = TYPES.map((type, i) => column(`c${i}`, type));
    const text = chunkOf(columns, 500, 99);
    for (const options of OPTIONS) {
      expect(scanned(text, columns, options)?.toString()).toBe(
        reference(text, columns, options).toString(),
      );
    }
  });

  it("reads columns with integer-like names, which JS objects write first", () => {
    const columns = [
      column("name", "string"),
      column("2024", "integer"),
      column("when", "datetime"),
      column("1", "string"),
      column("0", "date"),
      column("01", "float"),
    ];
    const text = chunkOf(columns, 200, 7);
    expect(text.toString().startsWith('{"0":')).toBe(true);
    expect(scanned(text, columns, OPTIONS[0])).not.toBeNull();
    for (const options of OPTIONS) expectSame(text, columns, options);
  });

  it("reads odd column names: __proto__, inherited names, quotes, unicode, empty", () => {
    const columns = [
      column("__proto__", "string"),
      column("constructor", "integer"),
      column('a "quoted", name\n', "datetime"),
      column("é😀", "date"),
      column("", "boolean"),
      column("toString", "float"),
    ];
    const text = chunkOf(columns, 200, 11);
    expect(scanned(text, columns, OPTIONS[0])).not.toBeNull();
    for (const options of OPTIONS) expectSame(text, columns, options);
  });

  it("handles results without rows, without columns and with repeated column names", () => {
    for (const options of OPTIONS) {
      expectSame(Buffer.alloc(0), [column("a", "string")], options);
      expectSame(Buffer.from("{},{}"), [], options);
      const repeated = [column("a", "string"), column("a", "datetime"), column("b", "integer")];
      expectSame(Buffer.from('{"a":"2024-01-02","b":1},{"a":null,"b":2}'), repeated, options);
    }
  });

  it("re-writes number tokens that String() writes differently", () => {
    const columns = [column("n", "float"), column("d", "datetime")];
    const tokens = [
      "1e21",
      "1E5",
      "1e+2",
      "1.5e-3",
      "-1.25e-8",
      "0.1e1",
      "1.50",
      "1.0",
      "100",
      "-0",
      "-0.0",
      "0.0",
      "0",
      "-0.5",
      "0.000001",
      "0.0000001",
      "0.00000123",
      "-0.0000012",
      "123456789012345",
      "1234567890123456",
      "9007199254740993",
      "-9007199254740993",
      "1.000000000000001",
      "12345678901234567890",
      "12345678901234567890.5",
      "0.123456789012345",
      "0.1234567890123456789",
      "123456.789012345",
      "1e400",
      "-1e400",
      "5e-400",
    ];
    const text = Buffer.from(tokens.map((t) => `{"n":${t},"d":${t}}`).join(","));
    expect(scanned(text, columns, OPTIONS[0])).not.toBeNull();
    for (const options of OPTIONS) expectSame(text, columns, options);
    // Lines longer than the text.
    const long = Buffer.from(new Array(1000).fill('{"n":1e20,"d":5e-324}').join(","));
    for (const options of OPTIONS) expectSame(long, columns, options);
  });

  it("decodes escapes and leaves odd text to JSON.parse", () => {
    const columns = [column("s", "string"), column("d", "date"), column("n", "integer")];
    const texts = [
      // Escapes JSON.stringify does not write, but are valid.
      '{"s":"\\u0041\\/\\b\\f\\u00e9\\ud83d\\ude00","d":"\\u0032024-01-02","n":1}',
      '{"s":"a\\"b\\\\","d":"2024-01-02","n":2}',
      // Keys in another order, missing, extra, repeated; whitespace; escaped key.
      '{"n":1,"s":"x","d":"2024-01-02"}',
      '{"s":"x","n":1}',
      '{"s":"x","d":null,"n":1,"extra":{"deep":[1,2]}}',
      '{"s":"x","d":null,"n":1,"n":2}',
      '{"s":"first","s":"last","d":null,"n":1}',
      '{ "s": "x", "d": null, "n": 1 }',
      '{"\\u0073":"x","d":null,"n":1}',
      // Values that are not scalars, and rows that are not objects.
      '{"s":[1,2],"d":{"a":1},"n":1}',
      '1,"two",[3],true',
    ];
    for (const text of texts) {
      for (const options of OPTIONS) expectSame(Buffer.from(text), columns, options);
    }
    // A null row fails both ways.
    const nullRow = Buffer.from('{"s":"x","d":null,"n":1},null');
    expect(() => reference(nullRow, columns, OPTIONS[0])).toThrow(TypeError);
    expect(() => delimitedLines(columns, OPTIONS[0])(nullRow)).toThrow(TypeError);
    // Inherited names when the key is missing: what JSON.parse's objects give.
    const inherited = [column("constructor", "string"), column("__proto__", "string")];
    for (const options of OPTIONS) expectSame(Buffer.from('{"x":1}'), inherited, options);
  });

  it("passes invalid UTF-8 through the JSON.parse path", () => {
    const columns = [column("s", "string")];
    const text = Buffer.concat([
      Buffer.from('{"s":"a'),
      Buffer.from([0xff, 0xc3]),
      Buffer.from('"}'),
    ]);
    for (const options of OPTIONS) expectSame(text, columns, options);
  });

  it("rejects text that is not JSON, as JSON.parse does", () => {
    const columns = [column("s", "string"), column("n", "integer")];
    for (const text of [
      '{"s":"x","n":01}',
      '{"s":"x","n":1.}',
      '{"s":"x","n":-}',
      '{"s":"x","n":1e}',
      '{"s":"x","n":+1}',
      '{"s":"x","n":.5}',
      '{"s":"x\\q","n":1}',
      '{"s":"line\nbreak","n":1}',
      '{"s":"tab\tin","n":1}',
      '{"s":"x","n":1},',
      '{"s":"x","n":1}{"s":"y","n":2}',
      '{"s":"x","n":1',
      '{"s":"x',
      '{"s":"x","n":nul}',
      '{"s":"x","n":tru}',
      '{"s":"x","n":NaN}',
    ]) {
      const chunk = Buffer.from(text);
      for (const options of OPTIONS) {
        expect(() => reference(chunk, columns, options)).toThrow(SyntaxError);
        expect(() => delimitedLines(columns, options)(chunk)).toThrow(SyntaxError);
      }
    }
  });
});
