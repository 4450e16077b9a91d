// The ClickHouse runner against a real server (Debian's clickhouse-server, started by the test).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  clickhouseExec,
  startTestClickHouse,
  type TestClickHouse,
} from "../testing/clickhouseServer";
import { clickhouseRunner } from "./clickhouse";
import { abortAfter, runAll, testContext, timeRejection } from "./testSupport";

let server: TestClickHouse | null = null;
const db = `sl_${Math.random().toString(36).slice(2, 8)}`;
const ctx = testContext();
const options = () => ({
  url: server!.url,
  user: server!.user,
  password: server!.password,
  dbname: db,
});

beforeAll(async () => {
  server = await startTestClickHouse();
  if (!server) return;
  await clickhouseExec(server.url, `CREATE DATABASE ${db}`);
  await clickhouseExec(
    server.url,
    `CREATE TABLE ${db}.events (id UInt64, name String, amount Decimal(18, 4),
       at DateTime, day Date, tags Array(String), note Nullable(String),
       kind LowCardinality(String)) ENGINE = MergeTree ORDER BY id`,
  );
  await clickhouseExec(
    server.url,
    `INSERT INTO ${db}.events VALUES
       (18446744073709551615, 'tab\\there', 12345678901234.5678, '2024-01-02 03:04:05',
        '2024-01-02', ['a', 'it''s'], NULL, 'x'),
       (2, 'two', 1.5, '2024-02-03 00:00:00', '2024-02-03', [], 'n', 'y')`,
  );
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

describe("clickhouse runner", () => {
  const skip = () => !server;

  it("maps every column type, keeping 64-bit integers and decimals exact", async (t) => {
    if (skip()) return t.skip();
    const { columns, rows } = await runAll(
      clickhouseRunner.run(options(), `SELECT * FROM ${db}.events ORDER BY id DESC`, ctx),
    );
    expect(columns.map((c) => [c.name, c.type])).toEqual([
      ["id", "integer"],
      ["name", "string"],
      ["amount", "float"],
      ["at", "datetime"],
      ["day", "date"],
      ["tags", "string"],
      ["note", "string"],
      ["kind", "string"],
    ]);
    expect(rows[0]).toEqual([
      "18446744073709551615",
      "tab\there",
      "12345678901234.5678",
      "2024-01-02T03:04:05",
      "2024-01-02",
      '["a","it\'s"]',
      null,
      "x",
    ]);
    expect(rows[1]).toEqual([2, "two", 1.5, "2024-02-03T00:00:00", "2024-02-03", "[]", "n", "y"]);
  });

  it("reads scalars, tuples, wide integers and NaN", async (t) => {
    if (skip()) return t.skip();
    const { columns, rows } = await runAll(
      clickhouseRunner.run(
        options(),
        `SELECT toInt64(-9007199254740993) AS big, toInt64(42) AS small, toUInt8(7) AS u8,
           toFloat64(1.25) AS f, nan AS n, (1, 'x', [1.5]) AS tup, toUUID('61f0c404-5cb3-11e7-907b-a6006ad3dba0') AS id,
           toFixedString('ab', 4) AS fixed, CAST(NULL AS Nullable(DateTime)) AS nothing`,
        ctx,
      ),
    );
    expect(columns.map((c) => c.type)).toEqual([
      "integer",
      "integer",
      "integer",
      "float",
      "float",
      "string",
      "string",
      "string",
      "datetime",
    ]);
    expect(rows).toEqual([
      [
        "-9007199254740993",
        42,
        7,
        1.25,
        null,
        '[1,"x",[1.5]]',
        "61f0c404-5cb3-11e7-907b-a6006ad3dba0",
        "ab",
        null,
      ],
    ]);
  });

  it("streams a big result in batches", async (t) => {
    if (skip()) return t.skip();
    const { rows, batches } = await runAll(
      clickhouseRunner.run(options(), "SELECT number, toString(number) FROM numbers(100000)", ctx),
    );
    expect(rows).toHaveLength(100_000);
    expect(rows[99_999]).toEqual([99_999, "99999"]);
    expect(batches).toBeGreaterThan(1);
  });

  it("reports an error ClickHouse writes after the first rows", async (t) => {
    if (skip()) return t.skip();
    for (const columns of ["number", "number, toString(number)"]) {
      await expect(
        runAll(
          clickhouseRunner.run(
            options(),
            `SELECT ${columns}, throwIf(number = 150000) FROM numbers(300000) SETTINGS max_block_size = 1000`,
            ctx,
          ),
        ),
      ).rejects.toThrow(/throwIf|Value passed to/);
    }
  });

  it("refuses writes unless read-only is turned off", async (t) => {
    if (skip()) return t.skip();
    await expect(
      runAll(
        clickhouseRunner.run(
          options(),
          `CREATE TABLE ${db}.refused (x UInt8) ENGINE = Memory`,
          ctx,
        ),
      ),
    ).rejects.toThrow(/readonly/i);
    // An INSERT (after the annotation comment Sightline puts first) says so too.
    await expect(
      runAll(
        clickhouseRunner.run(
          options(),
          `/* Username: a, Query ID: adhoc */ -- mine\nINSERT INTO ${db}.events (id) VALUES (9)`,
          ctx,
        ),
      ),
    ).rejects.toThrow(/readonly mode/i);
    await expect(
      runAll(
        clickhouseRunner.run(
          { ...options(), read_only: false },
          `CREATE TABLE ${db}.made (x UInt8) ENGINE = Memory`,
          ctx,
        ),
      ),
    ).rejects.toThrow(/no data/);
    expect(await clickhouseExec(server!.url, `EXISTS TABLE ${db}.made`)).toBe("1\n");
  });

  it("runs for an account that is read-only already (no settings may be sent)", async (t) => {
    if (skip()) return t.skip();
    const { rows } = await runAll(
      clickhouseRunner.run(
        { url: server!.url, user: server!.readonlyUser, dbname: db },
        "SELECT count() FROM events",
        { ...ctx, timeoutMs: 30_000 },
      ),
    );
    expect(rows).toEqual([[2]]);
  });

  it("stops a query on cancel and on timeout, killing it in the server", async (t) => {
    if (skip()) return t.skip();
    const slow = "SELECT sleepEachRow(0.5), number FROM numbers(100) SETTINGS max_block_size = 1";
    const cancelled = await timeRejection(
      runAll(clickhouseRunner.run(options(), slow, { ...ctx, signal: abortAfter(500) })),
    );
    expect(cancelled.error.message).toBe("Query cancelled by user.");
    expect(cancelled.ms).toBeLessThan(10_000);
    const timedOut = await timeRejection(
      runAll(clickhouseRunner.run(options(), slow, { ...ctx, timeoutMs: 1000 })),
    );
    expect(timedOut.error.message).toMatch(/time limit of 1 second/);
    // Both are gone from the server, not only from Sightline.
    await expect
      .poll(
        async () =>
          clickhouseExec(
            server!.url,
            "SELECT count() FROM system.processes WHERE query_id LIKE 'sightline-%'",
          ),
        { timeout: 10_000 },
      )
      .toBe("0\n");
  });

  it("stops the query in the server when the reader stops early (the row cap)", async (t) => {
    if (skip()) return t.skip();
    const run = await clickhouseRunner.run(
      options(),
      "SELECT number, toString(number) FROM system.numbers",
      ctx,
    );
    for await (const batch of run.batches) {
      expect(batch.length).toBeGreaterThan(0);
      break;
    }
    await expect
      .poll(
        async () =>
          clickhouseExec(
            server!.url,
            "SELECT count() FROM system.processes WHERE query_id LIKE 'sightline-%'",
          ),
        { timeout: 10_000 },
      )
      .toBe("0\n");
  });

  it("tests the connection and says what failed", async (t) => {
    if (skip()) return t.skip();
    await clickhouseRunner.test(options(), ctx);
    await expect(clickhouseRunner.test({ ...options(), password: "wrong" }, ctx)).rejects.toThrow(
      /password/i,
    );
    await expect(
      clickhouseRunner.test({ ...options(), url: "http://127.0.0.1:1" }, ctx),
    ).rejects.toThrow(/Could not reach ClickHouse at http:\/\/127\.0\.0\.1:1: .*ECONNREFUSED/);
    await expect(clickhouseRunner.test({ ...options(), url: "ftp://x" }, ctx)).rejects.toThrow(
      /http:\/\/ or https:\/\//,
    );
  });

  it("never puts the password in the URL, also when Redash's URL carried it", async () => {
    const seen: { url: string; authorization: string }[] = [];
    const fake = http.createServer((request, response) => {
      seen.push({ url: request.url ?? "", authorization: request.headers.authorization ?? "" });
      request.resume();
      request.on("end", () => response.end("u\nString\nme\n"));
    });
    await new Promise<void>((resolve) => fake.listen(0, "127.0.0.1", resolve));
    try {
      const port = (fake.address() as AddressInfo).port;
      const { rows } = await runAll(
        clickhouseRunner.run(
          { url: `http://127.0.0.1:${port}/?user=me&password=pa%20ss`, dbname: "d" },
          "SELECT currentUser() AS u",
          ctx,
        ),
      );
      expect(rows).toEqual([["me"]]);
      expect(seen[0].url).not.toMatch(/pa(%20| |\+)ss|password/);
      expect(seen[0].authorization).toBe(`Basic ${Buffer.from("me:pa ss").toString("base64")}`);
    } finally {
      fake.close();
    }
  });

  it("names what timed out while reading the schema", async () => {
    // A server that lists one database, then never answers for its columns.
    const fake = http.createServer((request, response) => {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString()));
      request.on("end", () => {
        if (body.includes("system.databases")) response.end("shop\n");
        else if (body.startsWith("KILL")) response.end("");
        else request.socket.on("close", () => response.destroy());
      });
    });
    await new Promise<void>((resolve) => fake.listen(0, "127.0.0.1", resolve));
    try {
      const port = (fake.address() as AddressInfo).port;
      const started = Date.now();
      await expect(
        clickhouseRunner.getSchema(
          { url: `http://127.0.0.1:${port}`, dbname: "shop" },
          { ...ctx, timeoutMs: 3000 },
        ),
      ).rejects.toThrow(
        `while reading the columns of database "shop" (system.columns) from ClickHouse at http://127.0.0.1:${port}.`,
      );
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      fake.closeAllConnections();
      fake.close();
    }
  });

  it("tells the exception 25.11 and later frame after the first rows, in whatever pieces it comes", async () => {
    const message =
      "Code: 395. DB::Exception: Value passed to 'throwIf' function is non-zero: boom. (FUNCTION_THROW_IF_VALUE_IS_NON_ZERO) (version 25.11.1.3)";
    const tag = "vhqzkxwmdcrptbna";
    const body = `n\tsquare\nUInt64\tUInt64\n${Array.from({ length: 2000 }, (_, i) => `${i}\t${i * i}\n`).join("")}\r\n__exception__\r\n${tag}\r\n${message}\n${message.length + 1} ${tag}\r\n__exception__\r\n`;
    const start = body.indexOf("__exception__");
    // Cuts inside the frame: its markers, its tag and its message each come in two pieces.
    const cuts = [start - 1, start + 6, start + 20, start + 40, start + 120, body.length - 9];
    const fake = http.createServer((request, response) => {
      let query = "";
      request.on("data", (chunk: Buffer) => (query += chunk.toString()));
      request.on("end", () => {
        if (query.startsWith("KILL")) return void response.end("");
        response.writeHead(200, { "X-ClickHouse-Exception-Tag": tag });
        let at = 0;
        const next = (i: number) => {
          const end = i < cuts.length ? cuts[i] : body.length;
          response.write(body.slice(at, end));
          at = end;
          // The server breaks the connection after the exception.
          if (i < cuts.length) setTimeout(() => next(i + 1), 20);
          else setTimeout(() => response.destroy(), 20);
        };
        next(0);
      });
    });
    await new Promise<void>((resolve) => fake.listen(0, "127.0.0.1", resolve));
    try {
      const port = (fake.address() as AddressInfo).port;
      await expect(
        runAll(
          clickhouseRunner.run(
            { url: `http://127.0.0.1:${port}`, dbname: "d", read_only: false },
            "SELECT number AS n, n * n AS square FROM numbers(1e6)",
            ctx,
          ),
        ),
      ).rejects.toThrow(message);
    } finally {
      fake.closeAllConnections();
      fake.close();
    }
  });

  it("says when ClickHouse did not answer within the timeout", async () => {
    const silent = http.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    try {
      const port = (silent.address() as AddressInfo).port;
      await expect(
        clickhouseRunner.test({ url: `http://127.0.0.1:${port}`, dbname: "d", timeout: 1 }, ctx),
      ).rejects.toThrow(
        `ClickHouse at http://127.0.0.1:${port} did not answer within the data source's Query Timeout.`,
      );
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });

  it("lists the schema per database, lazily too", async (t) => {
    if (skip()) return t.skip();
    const schema = await clickhouseRunner.getSchema(options(), { ...ctx, timeoutMs: 30_000 });
    const events = schema.find((table) => table.name === `${db}.events`);
    expect(events?.columns.slice(0, 3)).toEqual([
      { name: "id", type: "UInt64" },
      { name: "name", type: "String" },
      { name: "amount", type: "Decimal(18, 4)" },
    ]);
    expect(schema.some((table) => table.name.startsWith("system."))).toBe(false);
    expect(await clickhouseRunner.listDatabases!(options(), ctx)).toContain(db);
    expect(await clickhouseRunner.listTables!(options(), db, ctx)).toEqual(["events", "made"]);
    const columns = await clickhouseRunner.listColumns!(options(), db, "events", ctx);
    expect(columns.map((c) => c.name)).toEqual([
      "id",
      "name",
      "amount",
      "at",
      "day",
      "tags",
      "note",
      "kind",
    ]);
  });
});
