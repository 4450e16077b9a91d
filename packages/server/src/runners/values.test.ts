import { describe, expect, it } from "vitest";
import {
  bigintCell,
  decimalCell,
  isoDateFromDays,
  isoTime,
  isoTimestamp,
  microsTimestampFormatter,
  toCell,
  uniqueColumnNames,
} from "./values";

describe("result values", () => {
  it("makes duplicate column names unique like Redash", () => {
    expect(uniqueColumnNames(["a", "a", "b", "a", "a1"])).toEqual(["a", "a1", "b", "a2", "a11"]);
  });

  it("keeps numbers exact or turns them into text", () => {
    expect(bigintCell(42n)).toBe(42);
    expect(bigintCell(9007199254740993n)).toBe("9007199254740993");
    expect(decimalCell("1.50")).toBe(1.5);
    expect(decimalCell("-0.000")).toBe(-0);
    expect(decimalCell("12345678901234567890.123")).toBe("12345678901234567890.123");
    expect(decimalCell("0.1")).toBe(0.1);
    expect(decimalCell("NaN")).toBeNull();
    // Up to 15 significant digits a double holds the value exactly; beyond, the text keeps them.
    expect(decimalCell("123456789012345.00")).toBe(123456789012345);
    expect(decimalCell("0.000000000000000000100")).toBe("0.000000000000000000100");
    expect(decimalCell("1234567890123456")).toBe("1234567890123456");
    expect(decimalCell("1200000000000000000000")).toBe("1200000000000000000000");
    expect(decimalCell("0.0000015")).toBe(0.0000015);
    expect(decimalCell("Infinity")).toBe("Infinity");
    expect(toCell(Number.POSITIVE_INFINITY)).toBeNull();
  });

  it("converts dates, bytes and objects to JSON-safe values", () => {
    expect(toCell(new Date("2024-01-02T03:04:05Z"), "datetime")).toBe("2024-01-02T03:04:05Z");
    expect(toCell(new Date("2024-01-02T03:04:05.12Z"), "datetime")).toBe(
      "2024-01-02T03:04:05.120Z",
    );
    expect(toCell(new Date("2024-01-02T00:00:00Z"), "date")).toBe("2024-01-02");
    // Lowercase hex, as Redash's encoder writes binary values.
    expect(toCell(Buffer.from([0, 171, 255]))).toBe("00abff");
    expect(toCell({ a: 1n, b: [1] })).toBe('{"a":"1","b":[1]}');
  });

  it("writes database timestamps in Redash's ISO form without shifting them", () => {
    expect(isoTimestamp("2024-01-02 10:00:00")).toBe("2024-01-02T10:00:00");
    // The fraction is cut to milliseconds, three digits whenever it is not zero.
    expect(isoTimestamp("2024-01-02 10:00:00.123456")).toBe("2024-01-02T10:00:00.123");
    expect(isoTimestamp("2024-01-02 10:00:00.12")).toBe("2024-01-02T10:00:00.120");
    expect(isoTimestamp("2024-01-02 10:00:00.0005")).toBe("2024-01-02T10:00:00.000");
    expect(isoTimestamp("2024-01-02 10:00:00.000000")).toBe("2024-01-02T10:00:00");
    expect(isoTimestamp("2024-01-02 10:00:00.5+02")).toBe("2024-01-02T10:00:00.500+02:00");
    expect(isoTimestamp("2024-01-02 10:00:00+0530")).toBe("2024-01-02T10:00:00+05:30");
    // A zero offset is "Z", however the database wrote it.
    for (const zero of ["+00", "+00:00", "+0000", "-00", "Z"]) {
      expect(isoTimestamp(`2024-01-02 08:00:00.999999${zero}`)).toBe("2024-01-02T08:00:00.999Z");
    }
    expect(isoTimestamp("12345-01-02 10:00:00.123456")).toBe("12345-01-02T10:00:00.123");
    expect(isoTimestamp("infinity")).toBe("infinity");
    expect(isoTimestamp("0044-03-15 (BC) 12:00:00")).toBe("0044-03-15 (BC) 12:00:00");
    expect(isoTime("10:20:30.123456")).toBe("10:20:30.123");
    expect(isoTime("10:20:30.000")).toBe("10:20:30");
    expect(isoTime("10:20:30")).toBe("10:20:30");
  });

  it("writes epoch microseconds as ISO wall-clock text", () => {
    const naive = microsTimestampFormatter();
    const micros = (iso: string) => BigInt(Date.parse(`${iso}Z`)) * 1000n;
    expect(naive(micros("2024-01-02T10:00:00"))).toBe("2024-01-02T10:00:00");
    expect(naive(micros("2024-01-02T10:00:00") + 500_000n)).toBe("2024-01-02T10:00:00.500");
    expect(naive(micros("2024-01-02T10:00:00") + 12_345n)).toBe("2024-01-02T10:00:00.012");
    expect(naive(micros("1969-12-31T23:59:59") + 1n)).toBe("1969-12-31T23:59:59.000");
    expect(naive(-1n)).toBe("1969-12-31T23:59:59.999");
    expect(naive(micros("2024-03-01T00:00:00") - 1n)).toBe("2024-02-29T23:59:59.999");
    const india = microsTimestampFormatter(330);
    expect(india(micros("2024-01-01T20:00:00"))).toBe("2024-01-02T01:30:00+05:30");
    expect(microsTimestampFormatter(-60)(0n)).toBe("1969-12-31T23:00:00-01:00");
    expect(microsTimestampFormatter(0)(0n)).toBe("1970-01-01T00:00:00Z");
    // Beyond what a double holds exactly: left to the caller.
    expect(naive(2n ** 63n - 1n)).toBeNull();
    expect(naive(micros("1500-01-01T00:00:00"))).toBeNull();
    expect(isoDateFromDays(0)).toBe("1970-01-01");
    expect(isoDateFromDays(-719_162)).toBe("0001-01-01");
    expect(isoDateFromDays(-719_163)).toBeNull();
    expect(isoDateFromDays(2_932_896)).toBe("9999-12-31");
    expect(isoDateFromDays(2_932_897)).toBeNull();
  });
});
