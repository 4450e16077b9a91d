// The type mapping against a modern ClickHouse engine (chdb: ClickHouse 26.x embedded, from npm),
// for the types Debian's clickhouse-server 18.16 (the runner tests' server) does not have:
// DateTime64, Date32, Map, Bool, Int128/256, Decimal256, IPv6, named tuples. Its text is read
// exactly as the runner reads ClickHouse's HTTP answer.
import { query } from "chdb";
import { describe, expect, it } from "vitest";
import { clickhouseCell, clickhouseColumn, unescapeText } from "./clickhouseValues";

/** A statement's TabSeparatedWithNamesAndTypes answer as the runner's columns and cells. */
function read(sql: string) {
  const text = query(
    `${sql} SETTINGS date_time_output_format = 'iso'`,
    "TabSeparatedWithNamesAndTypes",
  );
  const [names, types, ...lines] = text.replace(/\n$/, "").split("\n");
  const columns = types.split("\t").map((t) => clickhouseColumn(unescapeText(t)));
  return {
    names: names.split("\t").map(unescapeText),
    types: columns.map((c) => c.type),
    rows: lines.map((line) =>
      line.split("\t").map((field, i) => clickhouseCell(field, columns[i])),
    ),
  };
}

describe("ClickHouse types on a modern engine (chdb)", () => {
  it("maps dates and times, in UTC", () => {
    const result = read(`SELECT
      toDateTime64('2024-01-02 03:04:05.123456', 6, 'UTC') AS d64,
      toDateTime64('2024-01-02 03:04:05.5', 3, 'Asia/Tokyo') AS tokyo,
      toDate32('1900-01-01') AS d32,
      toDate('2024-02-29') AS d,
      toDateTime('2024-01-02 03:04:05', 'UTC') AS dt,
      CAST(NULL AS Nullable(DateTime64(3))) AS none`);
    expect(result.types).toEqual(["datetime", "datetime", "date", "date", "datetime", "datetime"]);
    expect(result.rows).toEqual([
      [
        "2024-01-02T03:04:05.123Z",
        "2024-01-01T18:04:05.500Z",
        "1900-01-01",
        "2024-02-29",
        "2024-01-02T03:04:05Z",
        null,
      ],
    ]);
  });

  it("keeps wide integers and decimals exact", () => {
    const result = read(`SELECT
      toInt128('-170141183460469231731687303715884105728') AS i128,
      toUInt256('115792089237316195423570985008687907853269984665640564039457584007913129639935') AS u256,
      toUInt64(18446744073709551615) AS u64,
      toInt64(42) AS small,
      toDecimal256('12345678901234567890.123456789', 9) AS dec,
      toDecimal32(1.5, 2) AS little,
      toBool(1) AS yes`);
    expect(result.types).toEqual([
      "integer",
      "integer",
      "integer",
      "integer",
      "float",
      "float",
      "boolean",
    ]);
    expect(result.rows).toEqual([
      [
        "-170141183460469231731687303715884105728",
        "115792089237316195423570985008687907853269984665640564039457584007913129639935",
        "18446744073709551615",
        42,
        "12345678901234567890.123456789",
        1.5,
        true,
      ],
    ]);
  });

  it("writes maps, tuples, arrays and wrapped strings as JSON or text", () => {
    const result = read(`SELECT
      map('a', 1, 'it''s', 2) AS m,
      CAST((1, 'x'), 'Tuple(id UInt8, name String)') AS named,
      [map('k', [1.5, nan])] AS nested,
      toLowCardinality(toNullable('lc')) AS lc,
      toIPv6('::1') AS ip6,
      'tab\there' AS s,
      CAST('b', 'Enum8(\\'a\\' = 1, \\'b\\' = 2)') AS e`);
    expect(result.names).toEqual(["m", "named", "nested", "lc", "ip6", "s", "e"]);
    expect(result.types.every((type) => type === "string")).toBe(true);
    const [row] = result.rows;
    expect(JSON.parse(row[0] as string)).toEqual({ a: 1, "it's": 2 });
    expect(JSON.parse(row[1] as string)).toEqual([1, "x"]);
    expect(JSON.parse(row[2] as string)).toEqual([{ k: [1.5, null] }]);
    expect(row.slice(3)).toEqual(["lc", "::1", "tab\there", "b"]);
  });
});
