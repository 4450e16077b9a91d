import { describe, expect, it } from "vitest";
import { formatDate, parseDate } from "./dateFormat";
import { mergeOptions } from "./merge";
import { normalizeData } from "./normalize";
import { formatNumber } from "./numberFormat";
import { renderTemplate, rowLookup } from "./template";
import { numberTickFormatter } from "./tickFormat";

describe("mergeOptions (lodash-style)", () => {
  it("merges arrays by index and keeps the default second axis", () => {
    const out = mergeOptions(
      { yAxis: [{ type: "linear" }, { type: "linear", opposite: true }] },
      { yAxis: [{ type: "logarithmic" }] },
    );
    expect(out.yAxis).toEqual([{ type: "logarithmic" }, { type: "linear", opposite: true }]);
  });
  it("ignores undefined, lets null override, keeps unknown keys", () => {
    const out = mergeOptions({ a: 1, b: 2 } as Record<string, unknown>, {
      a: undefined,
      b: null,
      extra: { x: 1 },
    });
    expect(out).toEqual({ a: 1, b: null, extra: { x: 1 } });
  });
  it("does not change its inputs", () => {
    const defaults = { nested: { a: 1 } };
    mergeOptions(defaults, { nested: { a: 2 } });
    expect(defaults.nested.a).toBe(1);
  });
});

describe("formatNumber (numeral)", () => {
  it("does not multiply percents by 100", () => {
    expect(formatNumber(45.678, "0[.]00%")).toBe("45.68%");
  });
  it("applies configured separators", () => {
    expect(
      formatNumber(1234567.891, "0,0.00", { thousandsSeparator: ".", decimalSeparator: "," }),
    ).toBe("1.234.567,89");
  });
  it("leaves values unformatted for an empty pattern and non-numbers as text", () => {
    expect(formatNumber(12.5, "")).toBe("12.5");
    expect(formatNumber("abc", "0,0")).toBe("abc");
    expect(formatNumber("1200", "0.0a")).toBe("1.2k");
  });
});

describe("dates", () => {
  it("formats in UTC with moment tokens and literal text", () => {
    expect(formatDate(new Date(Date.UTC(2024, 0, 8, 15, 4)), "[Week of] MMM D, YYYY HH:mm")).toBe(
      "Week of Jan 8, 2024 15:04",
    );
  });
  it("parses ISO, epoch and RFC-2822 values, and rejects junk", () => {
    expect(parseDate("2024-03-01")?.toISOString()).toBe("2024-03-01T00:00:00.000Z");
    expect(parseDate(0)?.toISOString()).toBe("1970-01-01T00:00:00.000Z");
    expect(parseDate("Tue, 05 Mar 2024 10:00:00 GMT")?.toISOString()).toBe(
      "2024-03-05T10:00:00.000Z",
    );
    expect(parseDate("not a date")).toBeNull();
  });
});

describe("templates", () => {
  it("fills known keys and keeps or removes unknown ones", () => {
    const lookup = rowLookup({ a: 1, b: null }, "cell");
    expect(renderTemplate("{{ @ }}-{{a}}-{{ b }}-{{ c }}", lookup)).toBe("cell-1--{{ c }}");
    expect(renderTemplate("x={{ c }}", lookup, { removeUnknown: true })).toBe("x=");
  });
});

describe("tick formats", () => {
  it("uses d3-format, where % multiplies by 100", () => {
    expect(numberTickFormatter(".0%")?.(0.25)).toBe("25%");
    expect(numberTickFormatter("not a format ((")).toBeUndefined();
  });
});

describe("normalizeData", () => {
  it("turns ISO strings into UTC dates, objects into JSON, and infers types", () => {
    const out = normalizeData({
      columns: [
        { name: "d", type: null },
        { name: "o", type: null },
        { name: "n", type: null },
      ],
      rows: [{ d: "2024-01-02T03:04:05", o: { k: [1] }, n: 1.5 }],
    });
    expect(out.columns.map((c) => c.type)).toEqual(["datetime", "string", "float"]);
    expect(out.rows[0].d).toEqual(new Date(Date.UTC(2024, 0, 2, 3, 4, 5)));
    expect(out.rows[0].o).toBe('{"k":[1]}');
  });
  it("survives missing or malformed data", () => {
    expect(normalizeData(null)).toEqual({ columns: [], rows: [], truncated: undefined });
    expect(
      normalizeData({ columns: [{ name: "a", type: "integer" }], rows: [null as never, { a: 1 }] })
        .rows,
    ).toHaveLength(1);
  });
});
