import { DuckDBInstance, DuckDBTimestampTZValue } from "@duckdb/node-api";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { duckdbRunner, runDuckdbCells, runDuckdbJson } from "./duckdb";
import {
  abortAfter,
  collect,
  DUCKDB_TIMESTAMP_SAMPLES,
  testContext,
  timeRejection,
} from "./testSupport";
import { JsonRows, type QueryRun } from "./types";

describe("JsonRows", () => {
  it("counts rows across packs and cuts inside one only when asked", () => {
    const rows = new JsonRows([
      { text: '{"a":1},{"a":2},{"a":3},{"a":4}', rows: 4 },
      { text: '{"a":5}', rows: 1 },
    ]);
    expect(rows.length).toBe(5);
    expect(rows.slice(5).texts).toEqual(rows.texts);
    expect(rows.slice(4).texts).toEqual([rows.texts[0]]);
    expect(rows.slice(2).texts).toEqual([{ text: '{"a":1},{"a":2}', rows: 2 }]);
    expect(rows.slice(0).length).toBe(0);
  });
});

// The DuckDB runner lets DuckDB write row JSON for SELECTs (duckdbJson.ts). These tests run the
// same queries on both paths and require the same cells, and check which path was taken.

const memory = { dbpath: ":memory:" };
const dir = mkdtempSync(path.join(tmpdir(), "sightline-duckdb-json-"));
const ctx = testContext({ fileDataDir: dir });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Which path the run's batches took: "json", "cells", or "none" for an empty result. */
async function pathAndRows(run: Promise<QueryRun>) {
  const result = await run;
  let kind: "json" | "cells" | "none" = "none";
  const batches = (async function* () {
    for await (const batch of result.batches) {
      kind = batch instanceof JsonRows ? "json" : "cells";
      yield batch;
    }
  })();
  const { rows } = await collect({ columns: result.columns, batches });
  return { kind, columns: result.columns, rows };
}

async function expectSameOnBothPaths(query: string, expectedPath: "json" | "cells" | "none") {
  const viaRunner = await pathAndRows(runDuckdbJson(memory, query, ctx));
  const viaCells = await pathAndRows(runDuckdbCells(memory, query, ctx));
  expect(viaCells.kind).not.toBe("json");
  expect(viaRunner.kind).toBe(expectedPath);
  expect(viaRunner.columns).toEqual(viaCells.columns);
  expect(viaRunner.rows).toEqual(viaCells.rows);
  return viaRunner;
}

describe("DuckDB row JSON", () => {
  it("holds the cells' integers, text beyond ±2^53 included", async () => {
    const { rows } = await expectSameOnBothPaths(
      `SELECT * FROM (VALUES
         ((-128)::TINYINT, 32767::SMALLINT, 2147483647::INTEGER, 9007199254740991::BIGINT,
          255::UTINYINT, 65535::USMALLINT, 4294967295::UINTEGER, 18446744073709551615::UBIGINT,
          170141183460469231731687303715884105727::HUGEINT, 340282366920938463463374607431768211455::UHUGEINT),
         (0, 0, -2147483648, 9007199254740992, 0, 0, 0, 9007199254740991, -9007199254740991, 9007199254740992),
         (NULL, NULL, NULL, -9223372036854775808, NULL, NULL, NULL, NULL, NULL, NULL)
       ) AS t(a, b, c, d, e, f, g, h, i, j)`,
      "json",
    );
    expect(rows[0][3]).toBe(9007199254740991);
    expect(rows[1][3]).toBe("9007199254740992");
  });

  it("holds the cells' floats and narrow decimals; NaN and infinities are null", async () => {
    await expectSameOnBothPaths(
      `SELECT f::FLOAT AS f, d::DOUBLE AS d, nan::DOUBLE AS nan, inf::DOUBLE AS inf,
              ninf::FLOAT AS ninf, negzero::DOUBLE AS negzero, money::DECIMAL(10,2) AS money,
              small::DECIMAL(4,4) AS small, whole::DECIMAL(15,0) AS whole
       FROM (VALUES
         (0.1, 0.1, 'nan'::DOUBLE, 'inf'::DOUBLE, '-inf'::DOUBLE, -0.0, 1.50, 0.0001, 999999999999999),
         (1e21, 1e-7, 5e-324, 1.7976931348623157e308, 100, 123456789012.345,
          -12345.67, -0.1234, -999999999999999),
         (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)
       ) AS t(f, d, nan, inf, ninf, negzero, money, small, whole)
       UNION ALL
       SELECT (hash(i) % 1000000) / 7.0, (hash(i) % 100000000) / 3.0, i / 9, -i / 11, i * 1.1,
              hash(i) % 1000 / 1000.0, ((hash(i) % 10000000) / 100.0)::DECIMAL(10,2),
              ((hash(i) % 10000) / 10000.0)::DECIMAL(4,4), (hash(i) % 999999999999999)::DECIMAL(15,0)
       FROM range(2000) r(i)`,
      "json",
    );
  });

  it("holds the cells' decimals of any width: numbers up to 15 digits, text beyond", async () => {
    const { rows } = await expectSameOnBothPaths(
      `SELECT d::DECIMAL(38,3) AS wide, e::DECIMAL(38,37) AS tiny, f::DECIMAL(18,0) AS whole,
              sum(d::DECIMAL(38,3)) OVER (ORDER BY n) AS running
       FROM (VALUES
         (1, 12345678901234567890.123, 0.1, 123456789012345678),
         (2, 123456789012.345, 0.0000001, 100000000000000000),
         (3, 1234567890123.456, 0.000001, 999999999999999),
         (4, -0.5, -0.1234567890123456789, 0),
         (5, 0, 0, -120000000000000000),
         (6, NULL, NULL, NULL)
       ) AS t(n, d, e, f)
       UNION ALL
       SELECT ((hash(i) % 100000000000) / 1000)::DECIMAL(38,3), ((hash(i) % 1000) / 1000)::DECIMAL(38,37),
              (hash(i) % 100000000000000000)::DECIMAL(18,0), NULL
       FROM range(2000) r(i)`,
      "json",
    );
    expect(rows[0]).toEqual([
      "12345678901234567890.123",
      0.1,
      "123456789012345678",
      "12345678901234567890.123",
    ]);
    expect(rows[1].slice(0, 3)).toEqual([
      123456789012.345,
      "0.0000001000000000000000000000000000000",
      1e17,
    ]);
    expect(rows[2].slice(0, 3)).toEqual(["1234567890123.456", 0.000001, 999999999999999]);
  });

  it("holds the cells' text: quotes, escapes, control characters and any Unicode", async () => {
    await expectSameOnBothPaths(
      `SELECT s, s AS "key ""quoted"" \\ é", NULL::VARCHAR AS "1", true AS "__proto__", false AS b
       FROM (VALUES ('plain'), (''), ('say "hi" \\ / ' || chr(1) || chr(10) || chr(13) || chr(9) || chr(127)),
                    ('é ü ß 漢字 😀 ' || chr(8232) || chr(8233)), (repeat('long text ', 500)))
            AS t(s)`,
      "json",
    );
  });

  it("keeps duplicate and integer-like column names apart", async () => {
    const { columns } = await expectSameOnBothPaths(
      'SELECT 1 AS a, 2 AS a, 3 AS "2024", 4 AS "1", \'x\' AS b',
      "json",
    );
    expect(columns.map((c) => c.name)).toEqual(["a", "a1", "2024", "1", "b"]);
  });

  it("writes timestamps and dates as the cells do, far past and future included", async () => {
    await expectSameOnBothPaths(
      `${DUCKDB_TIMESTAMP_SAMPLES}
       SELECT ts, ts::DATE AS day, ts::TIMESTAMPTZ AS tz FROM t`,
      // TIMESTAMPTZ shows in the server's offset: written by DuckDB when that is UTC's.
      DuckDBTimestampTZValue.timezoneOffsetInMinutes === 0 ? "json" : "cells",
    );
  });

  it("keeps the query's order and every row of a long result", async () => {
    const { rows } = await expectSameOnBothPaths(
      "SELECT i, 'row ' || i AS label FROM range(120000) t(i) ORDER BY i DESC",
      "json",
    );
    expect(rows).toHaveLength(120_000);
    expect(rows[0]).toEqual([119_999, "row 119999"]);
    expect(rows.every((row, index) => row[0] === 119_999 - index)).toBe(true);
  });

  it("returns every row whatever the count, at pack and chunk edges and in partial chunks", async () => {
    for (const count of [0, 1, 3, 4, 5, 7, 8, 2047, 2048, 2049, 2051, 4099]) {
      const { rows } = await expectSameOnBothPaths(
        `SELECT i, 'r' || i AS label FROM range(${count}) t(i)`,
        count === 0 ? "none" : "json",
      );
      expect(rows).toHaveLength(count);
    }
    // A filter leaves chunks with a few rows each, read in parallel and put back in order.
    const { rows } = await expectSameOnBothPaths(
      "SELECT i FROM range(300000) t(i) WHERE hash(i) % 1000 < 3",
      "json",
    );
    expect(rows.length).toBeGreaterThan(500);
  });

  it("runs CTEs, FROM-first queries, comments and a trailing semicolon rewritten", async () => {
    await expectSameOnBothPaths(
      "/* Username: ada */ WITH n AS (SELECT range AS x FROM range(5)) SELECT sum(x) AS total FROM n;",
      "json",
    );
    await expectSameOnBothPaths("FROM range(3) -- a comment", "json");
  });

  it("leaves other types, statements and unusual texts on the cell path", async () => {
    for (const query of [
      "SELECT 'hi'::BLOB AS blob, [1, 2] AS list, {'a': 1} AS struct, INTERVAL 1 DAY AS i",
      "SELECT TIME '10:00:00' AS t, uuid() IS NOT NULL AS u, 'a'::ENUM('a', 'b') AS e",
      "SELECT 1 AS n; -- a comment after the statement",
      "CREATE TABLE t AS SELECT 1 AS x; SELECT * FROM t",
      "EXPLAIN SELECT 1",
    ]) {
      const { kind } = await pathAndRows(runDuckdbJson(memory, query, ctx));
      expect({ query, kind }).toEqual({ query, kind: "cells" });
    }
  });

  it("reports the database's errors unchanged", async () => {
    await expect(duckdbRunner.run(memory, "SELECT * FROM nope", ctx)).rejects.toThrow(
      /Table with name nope does not exist/,
    );
    await expect(
      pathAndRows(runDuckdbJson(memory, "SELECT error('broken ' || range) FROM range(3)", ctx)),
    ).rejects.toThrow(/broken 0/);
  });
});

describe("the runner's choice", () => {
  it("reads small results as cells and re-runs big ones as JSON, with the same rows", async () => {
    const small = await pathAndRows(
      duckdbRunner.run(memory, "SELECT i, 'r' || i AS s FROM range(2000) t(i)", ctx),
    );
    expect(small.kind).toBe("cells");
    expect(small.rows).toHaveLength(2000);
    const query = "SELECT i, 'r' || i AS s FROM range(50000) t(i)";
    const expected = (await pathAndRows(runDuckdbCells(memory, query, ctx))).rows;
    // The first rows come out within a millisecond; a few tries absorb a busy machine's pauses.
    const kinds: string[] = [];
    for (let attempt = 0; attempt < 3 && !kinds.includes("json"); attempt += 1) {
      const big = await pathAndRows(duckdbRunner.run(memory, query, ctx));
      expect(big.rows).toEqual(expected);
      kinds.push(big.kind);
    }
    expect(kinds).toContain("json");
  });

  it("keeps the first run of a big result that was slow to start", async () => {
    // The aggregation takes well over the re-run allowance before its first rows come out.
    const { kind, rows } = await pathAndRows(
      duckdbRunner.run(
        memory,
        "SELECT i % 10000 AS k, count(*) AS n FROM range(30000000) t(i) GROUP BY 1 ORDER BY 1",
        ctx,
      ),
    );
    expect(kind).toBe("cells");
    expect(rows).toHaveLength(10_000);
  });

  it("never runs a query that draws from a sequence twice", async () => {
    const instance = await DuckDBInstance.create(path.join(dir, "sequences.duckdb"));
    const connection = await instance.connect();
    await connection.run("CREATE SEQUENCE ids START 1");
    connection.closeSync();
    instance.closeSync();
    const file = { dbpath: "sequences.duckdb" };
    const { kind, rows } = await pathAndRows(
      duckdbRunner.run(file, "SELECT nextval('ids') AS id FROM range(5000)", ctx),
    );
    expect(kind).toBe("cells");
    expect(rows).toHaveLength(5000);
    const next = await pathAndRows(duckdbRunner.run(file, "SELECT nextval('ids') AS id", ctx));
    expect(next.rows).toEqual([[5001]]);
  });

  it("stops a re-run when cancelled or out of time", async () => {
    const endless = "SELECT i, 'r' || i AS s FROM range(100000000000) t(i)";
    const cancelled = await timeRejection(
      pathAndRows(duckdbRunner.run(memory, endless, { ...ctx, signal: abortAfter(300) })),
    );
    expect(cancelled.error.message).toBe("Query cancelled by user.");
    expect(cancelled.ms).toBeLessThan(2000);
    const timedOut = await timeRejection(
      pathAndRows(duckdbRunner.run(memory, endless, { ...ctx, timeoutMs: 300 })),
    );
    expect(timedOut.error.message).toMatch(/time limit/);
    expect(timedOut.ms).toBeLessThan(2000);
  });
});
