// The InfluxDB runner against a real server (Debian's influxd 1.x, started by the test).
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestInflux, TEST_INFLUX_DATABASE, type TestInflux } from "../testing/influxServer";
import { influxEndpoint } from "./influxClient";
import { influxdbRunner } from "./influxdb";
import { influxStatements, selectSources, writingStatement } from "./influxStatements";
import { abortAfter, runAll, testContext, timeRejection, withHttpServer } from "./testSupport";

let server: TestInflux | null = null;
const ctx = testContext();
const db = TEST_INFLUX_DATABASE;
const T0 = 1_700_000_000_000_000_000n;
const options = () => ({
  url: `influxdb://${server!.url.slice("http://".length)}/${db}`,
  user: server!.reader.user,
  password: server!.reader.password,
});

beforeAll(async () => {
  server = await startTestInflux();
  if (!server) return;
  // The first row lacks most fields: types must come from the keys, not from it.
  await server.write(
    db,
    [
      `cpu,host=a usage=2 ${T0}`,
      `cpu,host=b,region=eu usage=1.5,count=3i,ok=true,note="it's" ${T0 + 60_000_000_123n}`,
      `mem,host=a used=10i ${T0}`,
    ].join("\n"),
  );
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

describe("influxql statements", () => {
  it("reads statements past strings, names, regexes and comments", () => {
    expect(
      influxStatements(`SELECT "a;b" FROM /c;d/ WHERE x = 'DROP;' -- DELETE\n; SHOW TAG KEYS`).map(
        (s) => s.words[0],
      ),
    ).toEqual(["SELECT", "SHOW"]);
    expect(writingStatement("SELECT mean(x) / 2 FROM cpu WHERE host =~ /a/")).toBeNull();
    expect(writingStatement("select * from cpu; drop database x")).toMatch(
      /^Only SELECT, SHOW and EXPLAIN statements run .*; DROP may change data\.$/,
    );
    expect(writingStatement("SELECT * INTO other FROM cpu")).toMatch(/INTO writes data/);
    expect(writingStatement(`SELECT "into" FROM cpu`)).toBeNull();
  });

  it("finds the measurements a SELECT names, with their databases", () => {
    expect(
      selectSources(
        `SELECT * FROM cpu, telegraf..mem, "my db"."rp"."disk.io", /re/, rp.net WHERE x = 'FROM a';
         SHOW TAG KEYS FROM skipped; select mean(v) from (SELECT v FROM inner) GROUP BY time(1m)`,
      ),
    ).toEqual([
      { database: null, measurement: "cpu" },
      { database: "telegraf", measurement: "mem" },
      { database: "my db", measurement: "disk.io" },
      { database: null, measurement: "net" },
    ]);
    expect(selectSources(`SELECT "a\\"b" FROM "x\\"y"`)).toEqual([
      { database: null, measurement: 'x"y' },
    ]);
  });

  it("reads Redash's DSN without putting credentials in the URL", () => {
    const endpoint = influxEndpoint({ url: "influxdb://me:pa%20ss@db.example:8087/metrics" });
    expect(endpoint.base.toString()).toBe("http://db.example:8087/");
    expect(endpoint.database).toBe("metrics");
    expect(endpoint.headers.authorization).toBe(
      `Basic ${Buffer.from("me:pa ss").toString("base64")}`,
    );
    expect(influxEndpoint({ url: "https+influxdb://h/d" }).base.toString()).toBe("https://h:8086/");
    expect(
      influxEndpoint({ url: "http://h:9999/influx", db: "x", token: "t" }).headers.authorization,
    ).toBe("Token t");
    expect(() => influxEndpoint({ url: "udp+influxdb://h/d" })).toThrow(/not supported/);
  });
});

describe("influxdb runner", () => {
  const skip = () => !server;

  it("types tags and fields from the measurement's keys, time as a UTC datetime", async (t) => {
    if (skip()) return t.skip();
    const { columns, rows } = await runAll(
      influxdbRunner.run(options(), "SELECT * FROM cpu ORDER BY time", ctx),
    );
    expect(columns.map((c) => [c.name, c.type])).toEqual([
      ["time", "datetime"],
      ["count", "integer"],
      ["host", "string"],
      ["note", "string"],
      ["ok", "boolean"],
      ["region", "string"],
      ["usage", "float"],
    ]);
    expect(rows).toEqual([
      ["2023-11-14T22:13:20Z", null, "a", null, null, null, 2],
      // Nanoseconds are cut to milliseconds, as every datetime cell (Redash's form).
      ["2023-11-14T22:14:20.000Z", 3, "b", "it's", true, "eu", 1.5],
    ]);
  });

  it("adds GROUP BY tags as columns, typing aggregates from all their values", async (t) => {
    if (skip()) return t.skip();
    const { columns, rows } = await runAll(
      influxdbRunner.run(
        options(),
        "SELECT mean(usage) AS m, count(usage) AS n FROM cpu GROUP BY host",
        ctx,
      ),
    );
    expect(columns.map((c) => [c.name, c.type])).toEqual([
      ["time", "datetime"],
      ["m", "float"],
      ["n", "integer"],
      ["host", "string"],
    ]);
    expect(rows).toEqual([
      ["1970-01-01T00:00:00Z", 2, 1, "a"],
      ["1970-01-01T00:00:00Z", 1.5, 1, "b"],
    ]);
  });

  it("unions the columns of several statements; SHOW answers are tables", async (t) => {
    if (skip()) return t.skip();
    const { columns, rows } = await runAll(
      influxdbRunner.run(options(), "SELECT used FROM mem; SELECT usage FROM cpu LIMIT 1", ctx),
    );
    expect(columns.map((c) => [c.name, c.type])).toEqual([
      ["time", "datetime"],
      ["used", "integer"],
      ["usage", "float"],
    ]);
    expect(rows).toHaveLength(2);
    const show = await runAll(influxdbRunner.run(options(), "SHOW MEASUREMENTS", ctx));
    expect(show.columns.map((c) => [c.name, c.type])).toEqual([["name", "string"]]);
    expect(show.rows).toEqual([["cpu"], ["mem"]]);
    const empty = await runAll(influxdbRunner.run(options(), "SELECT * FROM nothing", ctx));
    expect(empty.rows).toEqual([]);
  });

  it("refuses statements that write, before sending them", async (t) => {
    if (skip()) return t.skip();
    await expect(
      influxdbRunner.run(
        { ...options(), user: server!.admin.user, password: server!.admin.password },
        `DROP MEASUREMENT mem`,
        ctx,
      ),
    ).rejects.toThrow(/DROP may change data/);
    expect(
      (await runAll(influxdbRunner.run(options(), "SELECT * FROM mem", ctx))).rows,
    ).toHaveLength(1);
  });

  it("says what failed: syntax, credentials, missing database, unreachable host", async (t) => {
    if (skip()) return t.skip();
    await expect(influxdbRunner.run(options(), "SELECT FROM", ctx)).rejects.toThrow(
      /^InfluxDB: error parsing query: /,
    );
    await influxdbRunner.test(options(), ctx);
    await expect(influxdbRunner.test({ ...options(), password: "wrong" }, ctx)).rejects.toThrow(
      /refused the credentials \(HTTP 401: authorization failed\)/,
    );
    await expect(
      influxdbRunner.test(
        { ...options(), db: "nope", user: server!.admin.user, password: server!.admin.password },
        ctx,
      ),
    ).rejects.toThrow(/database not found: nope/);
    await expect(influxdbRunner.test({ url: "http://127.0.0.1:1" }, ctx)).rejects.toThrow(
      /Could not reach InfluxDB at http:\/\/127\.0\.0\.1:1: .*ECONNREFUSED/,
    );
  });

  it("stops on cancel and on timeout", async () => {
    await withHttpServer(null, async (port) => {
      const url = `http://127.0.0.1:${port}`;
      const cancelled = await timeRejection(
        runAll(influxdbRunner.run({ url }, "SELECT 1", { ...ctx, signal: abortAfter(300) })),
      );
      expect(cancelled.error.message).toBe("Query cancelled by user.");
      const timedOut = await timeRejection(
        runAll(influxdbRunner.run({ url }, "SELECT 1", { ...ctx, timeoutMs: 500 })),
      );
      expect(timedOut.error.message).toMatch(/time limit of 0.5 second/);
      await expect(
        influxdbRunner.getSchema({ url, db: "x" }, { ...ctx, timeoutMs: 1500 }),
      ).rejects.toThrow(
        /Timed out after 1.5 s while reading the measurements and keys of database "x"/,
      );
    });
  });

  it("sends a 2.x/3.x token or the DSN's credentials in the header, never in the URL", async () => {
    const seen: { url: string; authorization: string }[] = [];
    const handler: http.RequestListener = (request, response) => {
      seen.push({ url: request.url ?? "", authorization: request.headers.authorization ?? "" });
      response.setHeader("content-type", "application/json");
      response.end('{"results":[{"statement_id":0}]}');
    };
    await withHttpServer(handler, async (port) => {
      const host = `127.0.0.1:${port}`;
      await runAll(
        influxdbRunner.run(
          { url: `http://${host}/`, db: "bucket", token: "tok" },
          "SHOW TAG KEYS",
          ctx,
        ),
      );
      await runAll(
        influxdbRunner.run({ url: `influxdb://me:pa%20ss@${host}/metrics` }, "SHOW TAG KEYS", ctx),
      );
      expect(seen[0]).toEqual({
        url: "/query?q=SHOW+TAG+KEYS&db=bucket",
        authorization: "Token tok",
      });
      expect(seen[1].url).toBe("/query?q=SHOW+TAG+KEYS&db=metrics");
      expect(seen[1].authorization).toBe(`Basic ${Buffer.from("me:pa ss").toString("base64")}`);
    });
  });

  it("lists the schema from the keys, lazily too", async (t) => {
    if (skip()) return t.skip();
    const schema = await influxdbRunner.getSchema(options(), { ...ctx, timeoutMs: 30_000 });
    expect(schema).toEqual([
      {
        name: "cpu",
        columns: [
          { name: "time", type: "time" },
          { name: "host", type: "tag" },
          { name: "region", type: "tag" },
          { name: "count", type: "field integer" },
          { name: "note", type: "field string" },
          { name: "ok", type: "field boolean" },
          { name: "usage", type: "field float" },
        ],
      },
      {
        name: "mem",
        columns: [
          { name: "time", type: "time" },
          { name: "host", type: "tag" },
          { name: "used", type: "field integer" },
        ],
      },
    ]);
    const admin = { url: server!.url, user: server!.admin.user, password: server!.admin.password };
    expect(await influxdbRunner.listDatabases!(admin, ctx)).toEqual([db]);
    expect(await influxdbRunner.listTables!(admin, db, ctx)).toEqual(["cpu", "mem"]);
    expect(await influxdbRunner.listColumns!(admin, db, "mem", ctx)).toEqual([
      { name: "time", type: "time" },
      { name: "host", type: "tag" },
      { name: "used", type: "field integer" },
    ]);
  });

  it("names each measurement as a query names it, so an inserted name runs", async (t) => {
    if (skip()) return t.skip();
    await server!.exec('CREATE DATABASE "other-db"');
    await server!.write("other-db", `disk.io,host=a reads=4i ${T0}\nselect value=1 ${T0}`);
    const admin = { url: server!.url, user: server!.admin.user, password: server!.admin.password };
    const everyDatabase = await influxdbRunner.getSchema(admin, { ...ctx, timeoutMs: 30_000 });
    const names = everyDatabase.map((table) => table.name);
    expect(names).toEqual([
      '"other-db".."disk.io"',
      '"other-db".."select"',
      `${db}..cpu`,
      `${db}..mem`,
    ]);
    for (const name of names) {
      const { rows } = await runAll(influxdbRunner.run(admin, `SELECT * FROM ${name}`, ctx));
      expect(rows.length, name).toBeGreaterThan(0);
    }
    const oneDatabase = await influxdbRunner.getSchema(
      { ...admin, db: "other-db" },
      { ...ctx, timeoutMs: 30_000 },
    );
    expect(oneDatabase.map((table) => table.name)).toEqual(['"disk.io"', '"select"']);
    const { rows } = await runAll(
      influxdbRunner.run({ ...admin, db: "other-db" }, 'SELECT reads FROM "disk.io"', ctx),
    );
    expect(rows).toEqual([["2023-11-14T22:13:20Z", 4]]);
  });

  it("types the columns of a measurement in a database the query names", async (t) => {
    if (skip()) return t.skip();
    // No database set: `usage` is a float field although this row's value is whole.
    const admin = { url: server!.url, user: server!.admin.user, password: server!.admin.password };
    const { columns } = await runAll(
      influxdbRunner.run(admin, `SELECT usage, host FROM ${db}..cpu WHERE host = 'a'`, ctx),
    );
    expect(columns.map((c) => [c.name, c.type])).toEqual([
      ["time", "datetime"],
      ["usage", "float"],
      ["host", "string"],
    ]);
  });
});
