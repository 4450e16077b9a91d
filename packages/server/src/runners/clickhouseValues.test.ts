// ClickHouse text → cells, including the types of modern servers (DateTime64, Date32, Map,
// Int128, Bool, Enum), checked on the lines such a server writes (taken from ClickHouse 26.7's
// TabSeparatedWithNamesAndTypes output, the last column with date_time_output_format = 'iso';
// Debian's 18.16 used by the runner tests lacks them).
import { describe, expect, it } from "vitest";
import { clickhouseCell, clickhouseColumn, literalToJson, unwrapType } from "./clickhouseValues";

const NAMES = "d64\td32\tm\ttup\ti128\tdec\tn\tu\tip\ts\tb\tf\te\tiso";
const TYPES =
  "DateTime64(6, \\'UTC\\')\tDate32\tMap(String, UInt8)\tTuple(UInt8, String, Array(Float64))\tInt128\tDecimal(38, 3)\tNullable(DateTime)\tUUID\tIPv4\tString\tBool\tFloat64\tEnum8(\\'x\\' = 1)\tDateTime64(3, \\'Asia/Tokyo\\')";
const ROW =
  "2024-01-02 03:04:05.123456\t1900-01-01\t{'a':1,'b\\'x':2}\t(1,'x',[1.5])\t170141183460469231731687303715884105727\t123456789012345678901234567.123\t\\N\t61f0c404-5cb3-11e7-907b-a6006ad3dba0\t1.2.3.4\ta\\tb\\nc\ttrue\tnan\tx\t2024-01-01T18:04:05.123Z";

describe("ClickHouse values", () => {
  it("maps a modern server's row", () => {
    const types = TYPES.split("\t").map((t) => clickhouseColumn(t.replace(/\\'/g, "'")));
    expect(NAMES.split("\t")).toHaveLength(types.length);
    expect(types.map((t) => t.type)).toEqual([
      "datetime",
      "date",
      "string",
      "string",
      "integer",
      "float",
      "datetime",
      "string",
      "string",
      "string",
      "boolean",
      "float",
      "string",
      "datetime",
    ]);
    const cells = ROW.split("\t").map((field, i) => clickhouseCell(field, types[i]));
    expect(cells).toEqual([
      "2024-01-02T03:04:05.123",
      "1900-01-01",
      '{"a":1,"b\'x":2}',
      '[1,"x",[1.5]]',
      "170141183460469231731687303715884105727",
      "123456789012345678901234567.123",
      null,
      "61f0c404-5cb3-11e7-907b-a6006ad3dba0",
      "1.2.3.4",
      "a\tb\nc",
      true,
      null,
      "x",
      "2024-01-01T18:04:05.123Z",
    ]);
  });

  it("unwraps Nullable, LowCardinality and SimpleAggregateFunction", () => {
    expect(unwrapType("LowCardinality(Nullable(String))")).toBe("String");
    expect(unwrapType("SimpleAggregateFunction(max, UInt64)")).toBe("UInt64");
    expect(clickhouseColumn("Nullable(Decimal(76, 10))")).toEqual({
      type: "float",
      kind: "decimal",
    });
    expect(clickhouseColumn("LowCardinality(Nullable(Date32))").type).toBe("date");
  });

  it("keeps 64-bit integers exact and small ones numbers", () => {
    const u64 = clickhouseColumn("UInt64");
    expect(clickhouseCell("9007199254740991", u64)).toBe(9007199254740991);
    expect(clickhouseCell("9007199254740993", u64)).toBe("9007199254740993");
    expect(clickhouseCell("18446744073709551615", u64)).toBe("18446744073709551615");
    expect(clickhouseCell("0.1234567890123456789", clickhouseColumn("Decimal128(19)"))).toBe(
      "0.1234567890123456789",
    );
  });

  it("turns nested literals into JSON text", () => {
    expect(literalToJson("[]")).toBe("[]");
    expect(literalToJson("[[1,2],[3]]")).toBe("[[1,2],[3]]");
    expect(literalToJson("{1:'a',2:NULL}")).toBe('{"1":"a","2":null}');
    expect(literalToJson("('2024-01-01 00:00:00',inf,-nan)")).toBe(
      '["2024-01-01 00:00:00",null,null]',
    );
    expect(literalToJson("['tab\\there','quote\\'s','back\\\\slash']")).toBe(
      JSON.stringify(["tab\there", "quote's", "back\\slash"]),
    );
    expect(literalToJson("[12345678901234567890123]")).toBe("[12345678901234567890123]");
    expect(literalToJson("[unclosed")).toBe("[unclosed");
  });
});
