import {
  DuckDBConnection,
  DuckDBDateValue,
  DuckDBInstance,
  DuckDBTimestampTZValue,
} from "@duckdb/node-api";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { duckdbRunner, runDuckdbCells } from "./duckdb";
import { DUCKDB_READ_ONLY_REFUSED, withoutLeadingComments } from "./duckdbReadOnly";
import { SHARED_FILE_CONFLICT } from "./duckdbConnections";
import {
  abortAfter,
  DUCKDB_TIMESTAMP_SAMPLES,
  runAll,
  testContext,
  timeRejection,
} from "./testSupport";
import { isoTimestamp, microsTimestampFormatter } from "./values";

let dir: string;
let outside: string;
let ctx: ReturnType<typeof testContext>;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "sightline-duckdb-"));
  outside = mkdtempSync(path.join(tmpdir(), "sightline-outside-"));
  writeFileSync(path.join(dir, "people.csv"), "id,name\n1,Ada\n2,Grace\n");
  writeFileSync(path.join(outside, "secret.csv"), "token\nabc\n");
  const instance = await DuckDBInstance.create(path.join(dir, "shop.duckdb"));
  const connection = await instance.connect();
  await connection.run(`
    CREATE TABLE items (id INTEGER, name VARCHAR, price DECIMAL(10, 2), added DATE);
    INSERT INTO items VALUES (1, 'pen', 1.50, '2024-01-02');
    CREATE SCHEMA sales;
    CREATE TABLE sales.orders (id BIGINT, placed TIMESTAMP);
  `);
  connection.closeSync();
  instance.closeSync();
  ctx = testContext({ fileDataDir: dir });
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

const memory = { dbpath: ":memory:" };

describe("duckdb runner", () => {
  it("returns every column type with JSON-safe values", async () => {
    const { columns, rows } = await runAll(
      duckdbRunner.run(
        memory,
        `SELECT 1::INTEGER AS i, 9007199254740993::BIGINT AS big, 2.5::DOUBLE AS f, 'nan'::DOUBLE AS nan,
                1.50::DECIMAL(10,2) AS d, 12345678901234567890.123::DECIMAL(38,3) AS wide,
                true AS b, 'x' AS s, DATE '2024-01-02' AS day,
                TIMESTAMP '2024-01-02 10:00:00.123456' AS ts, TIMESTAMPTZ '2024-01-02 10:00:00+02' AS tstz,
                'hi'::BLOB AS blob, [1, 2] AS list, NULL AS n, 2 AS i`,
        ctx,
      ),
    );
    expect(columns.map((c) => [c.name, c.type])).toEqual([
      ["i", "integer"],
      ["big", "integer"],
      ["f", "float"],
      ["nan", "float"],
      ["d", "float"],
      ["wide", "float"],
      ["b", "boolean"],
      ["s", "string"],
      ["day", "date"],
      ["ts", "datetime"],
      ["tstz", "datetime"],
      ["blob", "string"],
      ["list", "string"],
      ["n", "integer"],
      ["i1", "integer"],
    ]);
    expect(rows).toEqual([
      [
        1,
        "9007199254740993",
        2.5,
        null,
        1.5,
        "12345678901234567890.123",
        true,
        "x",
        "2024-01-02",
        "2024-01-02T10:00:00.123",
        // 08:00 UTC in the server's own offset, as the driver shows TIMESTAMPTZ.
        microsTimestampFormatter(DuckDBTimestampTZValue.timezoneOffsetInMinutes)(
          BigInt(Date.UTC(2024, 0, 2, 8)) * 1000n,
        ),
        "6869",
        "[1, 2]",
        null,
        2,
      ],
    ]);
  });

  it("writes times of day with the milliseconds of their fraction, as Redash does", async () => {
    const { rows } = await runAll(
      duckdbRunner.run(
        memory,
        "SELECT TIME '10:20:30.123456' AS t, TIME '10:20:30' AS whole, TIME '00:00:00.5' AS half",
        ctx,
      ),
    );
    expect(rows).toEqual([["10:20:30.123", "10:20:30", "00:00:00.500"]]);
  });

  it("writes timestamps and dates as the driver's own text, infinite dates as DuckDB does", async () => {
    // The samples as TIMESTAMP, TIMESTAMPTZ and DATE.
    const query = `${DUCKDB_TIMESTAMP_SAMPLES}
      SELECT ts, ts::TIMESTAMPTZ AS tz, ts::DATE AS day FROM t`;
    const { rows } = await runAll(duckdbRunner.run(memory, query, ctx));
    const instance = await DuckDBInstance.create(":memory:");
    const expected = await (await (await instance.connect()).run(query)).getRows();
    instance.closeSync();
    // Dates as DuckDB writes them: the driver's own text shows the infinities as far-off days.
    const text = (v: unknown) =>
      v === null
        ? null
        : v instanceof DuckDBDateValue && !v.isFinite
          ? String(v.days > 0 ? "infinity" : "-infinity")
          : String(v);
    expect(rows).toEqual(
      expected.map(([ts, tz, day]) => [
        ts === null ? null : isoTimestamp(String(ts)),
        tz === null ? null : isoTimestamp(String(tz)),
        text(day),
      ]),
    );
    expect(rows.length).toBe(4006);
  });

  it("streams a 100k-row result in batches", async () => {
    const { rows, batches } = await runAll(
      duckdbRunner.run(
        memory,
        "SELECT range AS x, 'row ' || range AS label FROM range(100000)",
        ctx,
      ),
    );
    expect(rows).toHaveLength(100_000);
    expect(batches).toBeGreaterThanOrEqual(10);
    expect(rows[99_999]).toEqual([99_999, "row 99999"]);
  });

  it("reads and writes files only in the data source's own files folder", async () => {
    mkdirSync(path.join(dir, "csv"), { recursive: true });
    writeFileSync(path.join(dir, "csv", "people.csv"), "id,name\n1,Ada\n2,Grace\n");
    // Another data source's file in the same allowed folder.
    writeFileSync(path.join(dir, "hr.csv"), "name,salary\nAnn,99000\n");
    const withFolder = { dbpath: ":memory:", files_folder: "csv" };
    const { rows } = await runAll(
      duckdbRunner.run(
        withFolder,
        `SELECT name FROM '${path.join(dir, "csv", "people.csv")}' ORDER BY id`,
        ctx,
      ),
    );
    expect(rows).toEqual([["Ada"], ["Grace"]]);
    for (const source of [withFolder, memory, { dbpath: "shop.duckdb" }]) {
      for (const query of [
        `SELECT * FROM '${path.join(dir, "hr.csv")}'`,
        `SELECT * FROM read_blob('${path.join(dir, "hr.csv")}')`,
        `COPY (SELECT 1 AS x) TO '${path.join(dir, "hr.csv")}'`,
        `SELECT * FROM '${path.join(outside, "secret.csv")}'`,
        `COPY (SELECT 1) TO '${path.join(outside, "out.csv")}'`,
      ]) {
        await expect(runAll(duckdbRunner.run(source, query, ctx)), query).rejects.toThrow(
          "Permission Error",
        );
      }
    }
    // Another data source's database file, outside this one's folder, cannot be attached.
    await expect(
      runAll(duckdbRunner.run(withFolder, `ATTACH '${path.join(dir, "shop.duckdb")}' AS o`, ctx)),
    ).rejects.toThrow("Permission Error");
    // Without a files folder nothing is read by path.
    await expect(
      runAll(
        duckdbRunner.run(memory, `SELECT * FROM '${path.join(dir, "csv", "people.csv")}'`, ctx),
      ),
    ).rejects.toThrow("Permission Error");
    expect(readFileSync(path.join(dir, "hr.csv"), "utf8")).toBe("name,salary\nAnn,99000\n");
    await expect(
      duckdbRunner.run(withFolder, "SET enable_external_access = true", ctx),
    ).rejects.toThrow("the configuration has been locked");
    await expect(
      duckdbRunner.run({ dbpath: ":memory:", files_folder: "../" }, "SELECT 1", ctx),
    ).rejects.toThrow("must be inside the allowed data folder");
  });

  it("refuses a second files folder for a database file already open with another", async () => {
    mkdirSync(path.join(dir, "exports"), { recursive: true });
    const { rows } = await runAll(
      duckdbRunner.run({ dbpath: "shop.duckdb" }, "SELECT 1 AS one", ctx),
    );
    expect(rows).toEqual([[1]]);
    // The same file named another way, with the same (no) folder, shares the open database.
    const same = await runAll(
      duckdbRunner.run({ dbpath: path.join(dir, "shop.duckdb") }, "SELECT 2 AS two", ctx),
    );
    expect(same.rows).toEqual([[2]]);
    await expect(
      duckdbRunner.run({ dbpath: "shop.duckdb", files_folder: "exports" }, "SELECT 1", ctx),
    ).rejects.toThrow(SHARED_FILE_CONFLICT);
  });

  it("reports the database's error message", async () => {
    await expect(duckdbRunner.run(memory, "SELECT * FROM nope", ctx)).rejects.toThrow(
      "Table with name nope does not exist",
    );
  });

  it("runs several statements and answers the last one's rows", async () => {
    // A single statement is prepared directly; several go through statement extraction.
    const { rows } = await runAll(
      duckdbRunner.run(
        memory,
        "CREATE TEMP TABLE t AS SELECT 41 AS x; INSERT INTO t VALUES (1); SELECT sum(x) AS s FROM t",
        ctx,
      ),
    );
    expect(rows).toEqual([[42]]);
    await expect(duckdbRunner.run(memory, "SELECT 1; SELECT * FROM nope", ctx)).rejects.toThrow(
      "Table with name nope does not exist",
    );
    const single = await runAll(duckdbRunner.run(memory, "/* note */ SELECT 7 AS n;", ctx));
    expect(single.rows).toEqual([[7]]);
  });

  const slow = "SELECT count(*) FROM range(100000000000) a";

  it("cancellation stops a long query quickly", async () => {
    const { error, ms } = await timeRejection(
      duckdbRunner.run(memory, slow, { ...ctx, signal: abortAfter(300) }),
    );
    expect(error.message).toBe("Query cancelled by user.");
    expect(ms).toBeLessThan(2000);
  });

  it("stops a query at the time limit", async () => {
    const { error, ms } = await timeRejection(
      duckdbRunner.run(memory, slow, { ...ctx, timeoutMs: 300 }),
    );
    expect(error.message).toBe("Query exceeded the time limit of 0.3 seconds and was stopped.");
    expect(ms).toBeLessThan(2000);
  });

  it("works with a database file, and read_only refuses writes", async () => {
    const { rows } = await runAll(
      duckdbRunner.run({ dbpath: "shop.duckdb" }, "SELECT name, price FROM items", ctx),
    );
    expect(rows).toEqual([["pen", 1.5]]);
    const ro = { dbpath: path.join(dir, "ro.duckdb"), read_only: true };
    const instance = await DuckDBInstance.create(ro.dbpath);
    await (await instance.connect()).run("CREATE TABLE t AS SELECT 1 AS x");
    instance.closeSync();
    await expect(duckdbRunner.run(ro, "INSERT INTO t VALUES (2)", ctx)).rejects.toThrow(
      /read-only/,
    );
    const after = await runAll(duckdbRunner.run(ro, "SELECT count(*) AS n FROM t", ctx));
    expect(after.rows).toEqual([[1]]);
  });

  it("read_only refuses every write, files in its own folder included", async () => {
    mkdirSync(path.join(dir, "ro-files"), { recursive: true });
    writeFileSync(path.join(dir, "ro-files", "kept.csv"), "id\n1\n");
    const roFile = path.join(dir, "ro-files", "ro2.duckdb");
    const instance = await DuckDBInstance.create(roFile);
    await (await instance.connect()).run("CREATE TABLE t AS SELECT 1 AS x");
    instance.closeSync();
    const target = (name: string) => path.join(dir, "ro-files", name);
    for (const source of [
      { dbpath: ":memory:", files_folder: "ro-files", read_only: true },
      { dbpath: roFile, files_folder: "ro-files", read_only: true },
    ]) {
      for (const query of [
        `COPY (SELECT 1 AS x) TO '${target("x.csv")}'`,
        `COPY (SELECT 2 AS id) TO '${target("kept.csv")}'`,
        `SELECT 1; COPY (SELECT 1 AS x) TO '${target("y.csv")}'`,
        `/* note */ EXPORT DATABASE '${target("dump")}'`,
        `EXPLAIN ANALYZE COPY (SELECT 1 AS x) TO '${target("z.csv")}'`,
        `ATTACH '${target("other.duckdb")}' AS other`,
        "CREATE TABLE made AS SELECT 1 AS x",
        "CREATE TEMP TABLE scratch AS SELECT 1 AS x",
      ]) {
        await expect(runAll(duckdbRunner.run(source, query, ctx)), query).rejects.toThrow(
          DUCKDB_READ_ONLY_REFUSED,
        );
      }
      // Reading stays possible, several statements of reads too.
      const { rows } = await runAll(
        duckdbRunner.run(
          source,
          `SELECT 0; SELECT count(*) AS n FROM '${target("kept.csv")}'`,
          ctx,
        ),
      );
      expect(rows).toEqual([[1]]);
      await expect(duckdbRunner.run(source, "selec 1", ctx)).rejects.toThrow(/syntax error/);
      for (const read of [
        "SHOW TABLES",
        "DESCRIBE SELECT 1 AS x",
        "FROM range(3)",
        "SELECT 'it''s' AS s",
      ]) {
        await expect(runAll(duckdbRunner.run(source, read, ctx)), read).resolves.toBeTruthy();
      }
    }
    // A verdict is remembered per text without its leading comments, nested as DuckDB nests them.
    const ro = { dbpath: ":memory:", files_folder: "ro-files", read_only: true };
    const hidden = `/* a /* b */ COPY (SELECT 1 AS x) TO '${target("n.csv")}' */ SELECT 1 AS x`;
    expect((await runAll(duckdbRunner.run(ro, hidden, ctx))).rows).toEqual([[1]]);
    for (const query of [
      `/* job 2 */ COPY (SELECT 1 AS x) TO '${target("n.csv")}' */ SELECT 1 AS x`,
      `/* job 3 */ COPY (SELECT 1 AS x) TO '${target("n.csv")}'`,
    ]) {
      await expect(runAll(duckdbRunner.run(ro, query, ctx)), query).rejects.toThrow();
    }
    for (const name of ["x.csv", "y.csv", "z.csv", "n.csv", "dump", "other.duckdb"]) {
      expect(existsSync(target(name)), name).toBe(false);
    }
    expect(readFileSync(target("kept.csv"), "utf8")).toBe("id\n1\n");
    // A source that is not read-only still writes in its folder.
    await runAll(
      duckdbRunner.run(
        { dbpath: ":memory:", files_folder: "ro-files" },
        `COPY (SELECT 1 AS x) TO '${target("w.csv")}'; SELECT 1 AS done`,
        ctx,
      ),
    );
    expect(existsSync(target("w.csv"))).toBe(true);
  });

  it("finds the text after leading comments as DuckDB reads them", () => {
    expect(withoutLeadingComments("  /* a */ /* b /* c */ d */\n SELECT 1")).toBe("SELECT 1");
    expect(withoutLeadingComments("/**/SELECT 1 /* x */")).toBe("SELECT 1 /* x */");
    expect(withoutLeadingComments("/* a /* b */ SELECT 1")).toBe("/* a /* b */ SELECT 1");
    expect(withoutLeadingComments("-- x\nSELECT 1")).toBe("-- x\nSELECT 1");
  });

  it("keeps a reused file instance sandboxed", async () => {
    const shop = { dbpath: "shop.duckdb" };
    for (let run = 0; run < 3; run += 1) {
      await expect(
        duckdbRunner.run(shop, "SET enable_external_access = true", ctx),
      ).rejects.toThrow("the configuration has been locked");
      await expect(
        duckdbRunner.run(shop, `SELECT * FROM '${path.join(outside, "secret.csv")}'`, ctx),
      ).rejects.toThrow("Permission Error");
    }
    // Another allowed folder is another key: its own checks run (and refuse this file).
    await expect(
      duckdbRunner.run({ dbpath: path.join(dir, "shop.duckdb") }, "SELECT 1", {
        ...ctx,
        fileDataDir: outside,
      }),
    ).rejects.toThrow("must be inside the allowed data folder");
  });

  it("gives every query of a warm file instance a connection of its own", async () => {
    const shop = { dbpath: "shop.duckdb" };
    // Temporary tables, settings and open transactions live in a connection: none may carry over.
    await runAll(duckdbRunner.run(shop, "CREATE TEMP TABLE mine AS SELECT 42 AS secret", ctx));
    await runAll(duckdbRunner.run(shop, "SET VARIABLE note = 'first user'", ctx));
    await runAll(duckdbRunner.run(shop, "BEGIN TRANSACTION", ctx));
    await expect(runAll(duckdbRunner.run(shop, "SELECT * FROM mine", ctx))).rejects.toThrow(
      /mine does not exist/,
    );
    const { rows } = await runAll(
      duckdbRunner.run(shop, "SELECT getvariable('note') AS note, 1 AS one", ctx),
    );
    expect(rows).toEqual([[null, 1]]);
    // Queries at the same time each get a working connection too.
    const parallel = await Promise.all(
      Array.from({ length: 6 }, (_, i) => runAll(duckdbRunner.run(shop, `SELECT ${i} AS n`, ctx))),
    );
    expect(parallel.map((r) => r.rows)).toEqual(Array.from({ length: 6 }, (_, i) => [[i]]));
  });

  it("refuses database files outside the folder or belonging to Sightline", async () => {
    await expect(
      duckdbRunner.run({ dbpath: path.join(outside, "x.duckdb") }, "SELECT 1", ctx),
    ).rejects.toThrow();
    mkdirSync(path.join(dir, "above", "meta"), { recursive: true });
    await expect(
      duckdbRunner.run({ dbpath: ":memory:", files_folder: "above" }, "SELECT 1", {
        ...ctx,
        forbiddenPaths: [path.join(dir, "above", "meta")],
      }),
    ).rejects.toThrow("Files folder contains Sightline's own data");
    const everything = { dbpath: ":memory:", files_folder: "." };
    await expect(
      duckdbRunner.run(everything, "SELECT 1", { ...ctx, fileDataDir: null }),
    ).rejects.toThrow("File-based data sources are disabled");
    await expect(
      duckdbRunner.run({ dbpath: "shop.duckdb" }, "SELECT 1", { ...ctx, fileDataDir: null }),
    ).rejects.toThrow("File-based data sources are disabled");
  });

  it("tests the connection and lists the schema", async () => {
    await expect(duckdbRunner.test(memory, ctx)).resolves.toBeUndefined();
    const schema = await duckdbRunner.getSchema({ dbpath: "shop.duckdb" }, ctx);
    expect(schema).toEqual([
      {
        name: "items",
        columns: [
          { name: "id", type: "INTEGER" },
          { name: "name", type: "VARCHAR" },
          { name: "price", type: "DECIMAL(10,2)" },
          { name: "added", type: "DATE" },
        ],
      },
      {
        name: "sales.orders",
        columns: [
          { name: "id", type: "BIGINT" },
          { name: "placed", type: "TIMESTAMP" },
        ],
      },
    ]);
  });
});

describe("duckdb runner, results known to be small", () => {
  // Which driver calls a run makes for the query: one materialized `run`, or prepare and stream
  // (the sandbox's own settings of a new database are left out).
  function watchCalls() {
    const run = vi.spyOn(DuckDBConnection.prototype, "run");
    const prepare = vi.spyOn(DuckDBConnection.prototype, "prepare");
    return {
      runs: () =>
        run.mock.calls
          .map(([sql]) => sql)
          .filter((sql) => !/^(SET |SELECT current_setting\()/.test(sql)),
      prepared: () => prepare.mock.calls.length,
    };
  }
  afterEach(() => vi.restoreAllMocks());

  const everyType = `SELECT 1::INTEGER AS i, 9007199254740993::BIGINT AS big, 'nan'::DOUBLE AS nan,
    12345678901234567890.123::DECIMAL(38,3) AS wide, true AS b, 'x' AS s, DATE '2024-01-02' AS day,
    TIMESTAMP '2024-01-02 10:00:00.123456' AS ts, TIMESTAMPTZ '2024-01-02 10:00:00+02' AS tstz,
    'hi'::BLOB AS blob, [1, 2] AS list, NULL AS n, 2 AS i`;

  it("runs a query with a final LIMIT of at most 2048 rows in one call, with the same result", async () => {
    const query = `${DUCKDB_TIMESTAMP_SAMPLES} SELECT ts, ts::DATE AS day, (SELECT 1) AS i FROM t LIMIT 2048`;
    const calls = watchCalls();
    const small = await runAll(duckdbRunner.run(memory, query, ctx));
    expect(calls.runs()).toEqual([query]);
    expect(calls.prepared()).toBe(0);
    const streamed = await runAll(runDuckdbCells(memory, query, ctx));
    expect(calls.prepared()).toBe(1);
    expect(small.rows).toHaveLength(2048);
    expect(small.columns).toEqual(streamed.columns);
    expect(small.rows).toEqual(streamed.rows);
  });

  it("runs a SELECT that reads no table with a guard LIMIT, with the same result", async () => {
    const calls = watchCalls();
    const small = await runAll(duckdbRunner.run(memory, `/* who */ ${everyType};`, ctx));
    expect(calls.runs()).toEqual([`/* who */ ${everyType}\nLIMIT 2049`]);
    expect(calls.prepared()).toBe(0);
    const streamed = await runAll(runDuckdbCells(memory, everyType, ctx));
    expect(small.columns).toEqual(streamed.columns);
    expect(small.rows).toEqual(streamed.rows);
  });

  it("streams a guarded query that returns more than 2048 rows, in order", async () => {
    const calls = watchCalls();
    const { rows } = await runAll(duckdbRunner.run(memory, "SELECT unnest(range(5000)) AS x", ctx));
    expect(calls.runs()).toEqual(["SELECT unnest(range(5000)) AS x\nLIMIT 2049"]);
    // Then streamed (and re-run as JSON, being big).
    expect(calls.prepared()).toBeGreaterThanOrEqual(1);
    expect(rows).toEqual(Array.from({ length: 5000 }, (_, i) => [i]));
  });

  it("runs the query as written when the guard does not fit its syntax", async () => {
    const { rows } = await runAll(
      duckdbRunner.run(memory, "SELECT 1 AS a FETCH FIRST 1 ROWS ONLY", ctx),
    );
    expect(rows).toEqual([[1]]);
    await expect(duckdbRunner.run(memory, "SELECT nope()", ctx)).rejects.toThrow(
      "Scalar Function with name nope does not exist",
    );
  });

  it("reports errors, and stops at the time limit or on cancel", async () => {
    const calls = watchCalls();
    await expect(
      duckdbRunner.run(memory, "SELECT error('boom') AS a FROM range(3) LIMIT 1", ctx),
    ).rejects.toThrow("boom");
    expect(calls.prepared()).toBe(0);
    const slowLimited = "SELECT count(*) FROM range(100000000000) a LIMIT 1";
    const timedOut = await timeRejection(
      duckdbRunner.run(memory, slowLimited, { ...ctx, timeoutMs: 300 }),
    );
    expect(timedOut.error.message).toBe(
      "Query exceeded the time limit of 0.3 seconds and was stopped.",
    );
    expect(timedOut.ms).toBeLessThan(2000);
    const cancelled = await timeRejection(
      duckdbRunner.run(memory, slowLimited, { ...ctx, signal: abortAfter(300) }),
    );
    expect(cancelled.error.message).toBe("Query cancelled by user.");
    expect(cancelled.ms).toBeLessThan(2000);
    expect(calls.prepared()).toBe(0);
  });

  it("never runs a query drawing from a sequence twice", async () => {
    const calls = watchCalls();
    const { rows } = await runAll(
      duckdbRunner.run(memory, "CREATE SEQUENCE s; SELECT nextval('s') AS n", ctx),
    );
    expect(rows).toEqual([[1]]);
    expect(calls.runs()).toEqual([]);
  });
});
