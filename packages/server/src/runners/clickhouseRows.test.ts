// TabSeparated lines → row-object JSON: the whole-chunk template and the field-by-field path
// must store exactly the values the cells hold (clickhouseCell), 64-bit integers exact.
import { describe, expect, it } from "vitest";
import { JsonRowWriter, lineTexts, rowTemplate } from "./clickhouseRows";
import { streamedFailure } from "./clickhouseStreamError";
import { clickhouseCell, clickhouseColumn } from "./clickhouseValues";
import type { Cell } from "./types";

const NAMES = ["id", "big", "amount", "name", "at", "day", "a$1", "__proto__"];
const TYPES = ["Int32", "UInt64", "Float64", "String", "DateTime", "Date", "String", "UInt8"];
const COLUMNS = TYPES.map(clickhouseColumn);

const PLAIN = [
  "1\t42\t13.7\tcustomer 1\t2024-01-01 00:00:00\t2024-01-01\t$1 $$\t1",
  "-5\t0\t0\tżółw 🐢\t1999-12-31 23:59:59\t1970-01-01\t\t0",
  "0\t123456789012345\t1e21\t\t2024-02-29 12:00:00\t2024-02-29\tx\t255",
  "2147483647\t7\t-0.000001\ta'b\t2024-01-01 00:00:01\t2024-01-01\ty\t3",
  "-1\t1\t1e-7\t{json}\t2024-01-01 00:00:02\t2024-01-01\tz\t4",
  "-2\t2\t2.5\tiso\t2024-01-01T00:00:03Z\t2024-01-01\tz\t5",
  "-3\t3\t3.5\tiso\t2024-01-01T00:00:04\t2024-01-01\tz\t6",
];
const SPECIAL = [
  '1\t18446744073709551615\t-0\ta\\tb\\\\c\\nd\t2024-01-01 00:00:00\t2024-01-01\tq"uote\t1',
  "2\t9007199254740993\tnan\t\\N\t2024-01-01 00:00:00\t2024-01-01\t\\x01\t2",
  "3\t9007199254740991\tinf\tplain\t2024-01-01 00:00:00\t2024-01-01\tok\t3",
];

function writer(): JsonRowWriter {
  return new JsonRowWriter(NAMES, COLUMNS, (line) =>
    line.startsWith("Code: ") ? new Error(line) : null,
  );
}

/** The rows as JSON.parse reads the writer's texts, in column order. */
function written(w: JsonRowWriter): { rows: Cell[][]; count: number } {
  const rows: Cell[][] = [];
  let count = 0;
  for (const text of w.take()) {
    const objects = JSON.parse(`[${text.text}]`) as Record<string, Cell>[];
    expect(objects).toHaveLength(text.rows);
    count += text.rows;
    for (const object of objects) rows.push(NAMES.map((name) => object[name]));
  }
  return { rows, count };
}

/** What the result store kept of the cells before: JSON.stringify of each row's cells. */
function cells(lines: string[]): Cell[][] {
  return lines.map(
    (line) =>
      JSON.parse(
        JSON.stringify(line.split("\t").map((field, i) => clickhouseCell(field, COLUMNS[i]))),
      ) as Cell[],
  );
}

/** Equal cells, telling 0 from -0 (Object.is). */
function expectSame(actual: Cell[][], expected: Cell[][]): void {
  expect(actual).toHaveLength(expected.length);
  actual.forEach((row, r) =>
    row.forEach((cell, c) => {
      if (!Object.is(cell, expected[r][c]))
        throw new Error(`row ${r} column ${NAMES[c]}: ${String(cell)} ≠ ${String(expected[r][c])}`);
    }),
  );
}

describe("ClickHouse rows as JSON", () => {
  it("writes a chunk of plain rows through the template, as the cells hold them", () => {
    const template = rowTemplate(NAMES, COLUMNS);
    expect(template).not.toBeNull();
    const text = `${PLAIN.join("\n")}\n`;
    expect(text.replace(template!.row, template!.json).endsWith("},")).toBe(true);
    const w = writer();
    w.addText(text);
    expect(w.length).toBe(PLAIN.length);
    const { rows, count } = written(w);
    expect(count).toBe(PLAIN.length);
    expectSame(rows, cells(PLAIN));
    expect(rows[2][1]).toBe(123456789012345);
    expect(rows[0][4]).toBe("2024-01-01T00:00:00");
    expect(rows[5][4]).toBe("2024-01-01T00:00:03Z");
  });

  it("writes rows the template does not cover field by field, exact past 2^53", () => {
    for (const lines of [SPECIAL, [...PLAIN, ...SPECIAL, ...PLAIN]]) {
      const w = writer();
      w.addText(`${lines.join("\n")}\n`);
      const { rows, count } = written(w);
      expect(count).toBe(lines.length);
      expectSame(rows, cells(lines));
    }
    const w = writer();
    w.addText(`${SPECIAL.join("\n")}\n`);
    const { rows } = written(w);
    expect(rows[0].slice(1, 4)).toEqual(["18446744073709551615", 0, "a\tb\\c\nd"]);
    expect(Object.is(rows[0][2], 0)).toBe(true);
    expect(rows[1].slice(1, 4)).toEqual(["9007199254740993", null, null]);
    expect(rows[2][1]).toBe(9007199254740991);
    // Plain but for a 64-bit value past 2^53: still exact.
    const wide = writer();
    wide.addText("1\t9007199254740993\t1.5\tok\t2024-01-01 00:00:00\t2024-01-01\tok\t1\n");
    expect(written(wide).rows[0][1]).toBe("9007199254740993");
  });

  it("writes plain rows and the lines between them in order, wherever the text is cut", () => {
    const lines = [
      ...PLAIN,
      SPECIAL[0],
      PLAIN[1],
      SPECIAL[1],
      SPECIAL[2],
      PLAIN[2],
      "4\t9223372036854775807\t1.5\tit\\'s \\\\ \\N\t2024-01-01 00:00:00\t2024-01-01\t\\N\t7",
      "-4\t-9007199254740993\t-1.5e-300\t\\N\t2024-01-01 00:00:00\t2024-01-01\tt\\tab\t8",
      PLAIN[3],
    ];
    const text = `${lines.join("\n")}\n`;
    for (let cut = 0; cut <= lines.length; cut++) {
      const at = lines.slice(0, cut).join("\n").length + (cut > 0 ? 1 : 0);
      const w = writer();
      w.addText(text.slice(0, at));
      w.addText(text.slice(at));
      expect(w.length).toBe(lines.length);
      const { rows, count } = written(w);
      expect(count).toBe(lines.length);
      expectSame(rows, cells(lines));
      expect(rows[PLAIN.length + 5].slice(1, 4)).toEqual([
        "9223372036854775807",
        1.5,
        // \N inside a string is an escaped N, not NULL.
        "it's \\ N",
      ]);
      expect(rows[PLAIN.length + 5][6]).toBeNull();
      expect(rows[PLAIN.length + 6].slice(1, 4)).toEqual(["-9007199254740993", -1.5e-300, null]);
      expect(rows[PLAIN.length + 6][6]).toBe("t\tab");
    }
  });

  it("writes many plain rows as texts of a few hundred rows each", () => {
    const lines = Array.from({ length: 1234 }, (_, i) => PLAIN[i % PLAIN.length]);
    const w = writer();
    w.addText(`${lines.join("\n")}\n`);
    const texts = w.take();
    expect(texts.map((t) => t.rows)).toEqual([500, 500, 234]);
    const w2 = writer();
    w2.addText(`${lines.join("\n")}\n`);
    expectSame(written(w2).rows, cells(lines));
  });

  it("writes decimals, arrays, maps and nulls as their cells", () => {
    const names = ["d", "a", "m", "n"];
    const columns = [
      "Decimal(38, 10)",
      "Array(String)",
      "Map(String, UInt64)",
      "Nullable(Int64)",
    ].map(clickhouseColumn);
    const lines = [
      "12345678901234567890.1234567890\t['a\\tb','it\\'s']\t{'k':18446744073709551615}\t\\N",
      "1.5\t[]\t{}\t-9007199254740993",
    ];
    const w = new JsonRowWriter(names, columns, () => null);
    w.addText(`${lines.join("\n")}\n`);
    const rows = JSON.parse(
      `[${w
        .take()
        .map((t) => t.text)
        .join(",")}]`,
    ) as Record<string, Cell>[];
    expect(rows).toEqual(
      lines.map((line) =>
        Object.fromEntries(
          line.split("\t").map((field, i) => [names[i], clickhouseCell(field, columns[i])]),
        ),
      ),
    );
    expect(rows[0]).toEqual({
      d: "12345678901234567890.1234567890",
      a: '["a\\tb","it\'s"]',
      m: '{"k":18446744073709551615}',
      n: null,
    });
    expect(rows[1].n).toBe("-9007199254740993");
  });

  it("keeps a one-column result and odd column names right", () => {
    const w = new JsonRowWriter(
      ['a"b', "1"],
      [clickhouseColumn("String"), clickhouseColumn("UInt8")],
      () => null,
    );
    w.addText('x\t1\n"\t2\n');
    const texts = w.take();
    expect(JSON.parse(`[${texts.map((t) => t.text).join(",")}]`)).toEqual([
      { 'a"b': "x", "1": 1 },
      { 'a"b': '"', "1": 2 },
    ]);
    const one = new JsonRowWriter(["s"], [clickhouseColumn("String")], () => null);
    one.addText("a\n\nb\\tc\n");
    expect(
      JSON.parse(
        `[${one
          .take()
          .map((t) => t.text)
          .join(",")}]`,
      ),
    ).toEqual([{ s: "a" }, { s: "" }, { s: "b\tc" }]);
  });

  it("throws the exception ClickHouse wrote after some rows, and on a malformed row", () => {
    const w = writer();
    expect(() =>
      w.addText(`${PLAIN[0]}\nCode: 395, e.displayText() = DB::Exception: boom\n`),
    ).toThrow("Code: 395");
    expect(() => writer().addText("1\t2\n")).toThrow("malformed row");
  });

  it("cuts a byte stream into texts of whole lines without splitting a character", async () => {
    const bytes = Buffer.from("ab\tżółw\n🐢\tc\nlast\n");
    async function* pieces() {
      for (let i = 0; i < bytes.length; i += 3) yield bytes.subarray(i, i + 3);
    }
    let text = "";
    for await (const piece of lineTexts(pieces())) {
      expect(piece.endsWith("\n")).toBe(true);
      text += piece;
    }
    expect(text).toBe("ab\tżółw\n🐢\tc\nlast\n");
  });

  it("tells ClickHouse's exception after some rows wherever the stream is cut", async () => {
    const message =
      "Code: 395. DB::Exception: Value passed to 'throwIf' function is non-zero: while executing 'FUNCTION throwIf(equals(number, 100000) :: 1) -> throwIf(equals(number, 100000)) UInt8 : 2'. (FUNCTION_THROW_IF_VALUE_IS_NON_ZERO) (version 25.11.1.3)";
    const frame = (tag: string) =>
      `\r\n__exception__\r\n${tag}\r\n${message}\n${Buffer.byteLength(message) + 1} ${tag}\r\n__exception__\r\n`;
    const rows = `${PLAIN.join("\n")}\n`;
    const bodies: [string, string][] = [
      // 25.11 and later: after whole rows, and in the middle of one.
      [`${rows}${frame("xkcbpqzfrwmnhtdv")}`, message],
      [`${rows}1\t42\t13.${frame("a b")}`, message],
      // Older servers: one line, with or without its newline.
      [
        `${rows}Code: 395, e.displayText() = DB::Exception: boom (version 18.16.1)\n`,
        "boom (version 18.16.1) (code 395)",
      ],
      [`${rows}Code: 395, e.displayText() = DB::Exception: boom`, "boom (code 395)"],
    ];
    for (const [body, expected] of bodies) {
      const bytes = Buffer.from(body);
      for (let cut = 0; cut <= bytes.length; cut++) {
        const pieces = [bytes.subarray(0, cut), bytes.subarray(cut)];
        expect(await failureOf(pieces, false), `cut at ${cut}`).toBe(expected);
        // The server may break the connection right after the exception.
        expect(await failureOf(pieces, true), `cut at ${cut}, broken`).toBe(expected);
      }
      // In pieces of every small size.
      for (let size = 1; size <= 40; size++) {
        const pieces: Buffer[] = [];
        for (let at = 0; at < bytes.length; at += size) pieces.push(bytes.subarray(at, at + size));
        expect(await failureOf(pieces, false), `pieces of ${size}`).toBe(expected);
      }
    }
    // A frame that never ends, and a connection broken before any exception.
    expect(await failureOf([Buffer.from(`${rows}\r\n__exception__\r\ntag\r\nCo`)], false)).toBe(
      "ClickHouse stopped sending the result with an error.",
    );
    expect(await failureOf([Buffer.from(rows)], true)).toBe("socket hang up");
    expect(await failureOf([Buffer.from(rows)], false)).toBe("no error");
  });
});

/**
 * What the runner reports for an answer that comes in these pieces (then, if `broken`, the
 * connection breaks), read as clickhouse.ts reads it.
 */
async function failureOf(pieces: Buffer[], broken: boolean): Promise<string> {
  const w = new JsonRowWriter(NAMES, COLUMNS, streamedFailure);
  async function* stream() {
    for (const piece of pieces) {
      await Promise.resolve();
      yield piece;
    }
    if (broken) throw new Error("socket hang up");
  }
  const texts = lineTexts(stream());
  try {
    for (;;) {
      let next: IteratorResult<string>;
      try {
        next = await texts.next();
      } catch (error) {
        w.end();
        throw error;
      }
      if (next.done) break;
      w.addText(next.value);
    }
    w.end();
  } catch (error) {
    return (error as Error).message;
  }
  return "no error";
}
