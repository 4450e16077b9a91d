import { existsSync } from "node:fs";
import { hostname } from "node:os";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pgRunner } from "./pg";
import { neighbourAccountRefused } from "./pgNeighbour";
import { METADATA_DATABASE_REFUSED, READ_ONLY_NEEDS_PLAIN_ACCOUNT } from "./pgSafety";
import { abortAfter, runAll, testContext, timeRejection } from "./testSupport";

const url = new URL(process.env.SIGHTLINE_TEST_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test");
const options = {
  host: url.hostname,
  port: Number(url.port || 5432),
  user: decodeURIComponent(url.username),
  password: decodeURIComponent(url.password),
  dbname: url.pathname.slice(1),
  sslmode: "disable",
};
const schema = `sl_runner_${Math.random().toString(36).slice(2, 10)}`;
/** An account that is not a superuser, as read-only data sources need. */
const reader = `${schema}_reader`;
const ctx = testContext();
let admin: pg.Client;

beforeAll(async () => {
  admin = new pg.Client({ ...options, database: options.dbname });
  await admin.connect();
  await admin.query(`
    CREATE SCHEMA ${schema};
    CREATE TABLE ${schema}.items (id serial PRIMARY KEY, name text, price numeric(10,2), added date);
    INSERT INTO ${schema}.items (name, price, added) VALUES ('pen', 1.50, '2024-01-02');
    CREATE VIEW ${schema}.cheap AS SELECT name FROM ${schema}.items;
    CREATE ROLE ${reader} LOGIN PASSWORD 'reader';
    GRANT USAGE ON SCHEMA ${schema} TO ${reader};
    GRANT SELECT, INSERT, DELETE ON ALL TABLES IN SCHEMA ${schema} TO ${reader};
  `);
});

afterAll(async () => {
  await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await admin.query(`DROP OWNED BY ${reader}`);
  await admin.query(`DROP ROLE IF EXISTS ${reader}`);
  await admin.end();
});

async function activeQueries(marker: string): Promise<number> {
  const result = await admin.query(
    "SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'active' AND query LIKE $1 AND pid <> pg_backend_pid()",
    [`%${marker}%`],
  );
  return result.rows[0].n as number;
}

describe("pg runner", () => {
  it("returns every column type with JSON-safe values", async () => {
    const { columns, rows } = await runAll(
      pgRunner.run(
        options,
        `SELECT 1::int AS i, 9007199254740993::bigint AS big, 5::bigint AS small_big, 2.5::float8 AS f,
                'NaN'::float8 AS nan, 1.50::numeric(10,2) AS d, 12345678901234567890.123::numeric AS wide,
                true AS b, 'x'::text AS s, DATE '2024-01-02' AS day,
                TIMESTAMP '2024-01-02 10:00:00.123456' AS ts, TIMESTAMPTZ '2024-01-02 10:00:00+00' AS tstz,
                '\\x00ff'::bytea AS bin, '{"a":1}'::jsonb AS doc, ARRAY[1,2] AS arr, NULL::int AS n, 2 AS i`,
        ctx,
      ),
    );
    expect(columns.map((c) => [c.name, c.type])).toEqual([
      ["i", "integer"],
      ["big", "integer"],
      ["small_big", "integer"],
      ["f", "float"],
      ["nan", "float"],
      ["d", "float"],
      ["wide", "float"],
      ["b", "boolean"],
      ["s", "string"],
      ["day", "date"],
      ["ts", "datetime"],
      ["tstz", "datetime"],
      ["bin", "string"],
      ["doc", "string"],
      ["arr", "string"],
      ["n", "integer"],
      ["i1", "integer"],
    ]);
    expect(rows[0].slice(0, 10)).toEqual([
      1,
      "9007199254740993",
      5,
      2.5,
      null,
      1.5,
      "12345678901234567890.123",
      true,
      "x",
      "2024-01-02",
    ]);
    // Redash's form: milliseconds, and "Z" for a zero offset (the session's time zone decides).
    expect(rows[0][10]).toBe("2024-01-02T10:00:00.123");
    expect(rows[0][11]).toMatch(/^2024-01-02T\d\d:00:00(Z|[+-]\d\d:\d\d)$/);
    expect(rows[0].slice(12)).toEqual(["00ff", '{"a": 1}', "{1,2}", null, 2]);
  });

  it("writes timestamps and times of day with milliseconds", async () => {
    const { rows } = await runAll(
      pgRunner.run(
        options,
        `SELECT TIMESTAMPTZ '2024-01-02 10:00:00.5+02' AT TIME ZONE 'UTC' AS naive,
                TIME '10:20:30.123456' AS t`,
        ctx,
      ),
    );
    expect(rows[0][0]).toBe("2024-01-02T08:00:00.500");
    expect(rows[0][1]).toBe("10:20:30.123");
  });

  it("streams a 100k-row result in batches", async () => {
    const { rows, batches } = await runAll(
      pgRunner.run(
        options,
        "SELECT g AS x, 'row ' || g AS label FROM generate_series(1, 100000) g",
        ctx,
      ),
    );
    expect(rows).toHaveLength(100_000);
    expect(batches).toBe(20);
    expect(rows[99_999]).toEqual([100_000, "row 100000"]);
  });

  it("runs several statements and returns the last result", async () => {
    const { rows } = await runAll(
      pgRunner.run(options, `SET search_path TO ${schema};\nSELECT name FROM items`, ctx),
    );
    expect(rows).toEqual([["pen"]]);
  });

  it("reports the database's error message", async () => {
    await expect(pgRunner.run(options, "SELECT * FROM nope_missing", ctx)).rejects.toThrow(
      'relation "nope_missing" does not exist',
    );
    await expect(
      pgRunner.run({ ...options, dbname: "no_such_db_sightline" }, "SELECT 1", ctx),
    ).rejects.toThrow('database "no_such_db_sightline" does not exist');
  });

  it("cancellation stops the query in the database", async () => {
    const marker = `cancel_${schema}`;
    const { error, ms } = await timeRejection(
      pgRunner.run(options, `SELECT pg_sleep(30) /* ${marker} */`, {
        ...ctx,
        signal: abortAfter(500),
      }),
    );
    expect(error.message).toBe("Query cancelled by user.");
    expect(ms).toBeLessThan(2500);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await activeQueries(marker)).toBe(0);
  });

  it("stops a query at the time limit", async () => {
    const marker = `timeout_${schema}`;
    const { error, ms } = await timeRejection(
      pgRunner.run(options, `SELECT pg_sleep(30) /* ${marker} */`, { ...ctx, timeoutMs: 500 }),
    );
    expect(error.message).toBe("Query exceeded the time limit of 0.5 seconds and was stopped.");
    expect(ms).toBeLessThan(2500);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await activeQueries(marker)).toBe(0);
  });

  it("a consumer that stops reading is ended by the time limit", async () => {
    const run = await pgRunner.run(options, "SELECT g FROM generate_series(1, 100000) g", {
      ...ctx,
      timeoutMs: 300,
    });
    const iterator = run.batches[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toHaveLength(5000);
    await new Promise((resolve) => setTimeout(resolve, 600));
    await expect(
      (async () => {
        for (;;) if ((await iterator.next()).done) return;
      })(),
    ).rejects.toThrow("Query exceeded the time limit of 0.3 seconds and was stopped.");
  });

  it("read_only refuses writes, also through tricks", async () => {
    const ro = { ...options, user: reader, password: "reader", read_only: true };
    await expect(
      pgRunner.run(ro, `INSERT INTO ${schema}.items (name) VALUES ('x') RETURNING id`, ctx),
    ).rejects.toThrow("cannot execute INSERT in a read-only transaction");
    await expect(pgRunner.run(ro, "SET TRANSACTION READ WRITE", ctx)).rejects.toThrow(
      "transaction read-write mode must be set before any query",
    );
    await expect(
      pgRunner.run(ro, `COMMIT; DELETE FROM ${schema}.items RETURNING id`, ctx),
    ).rejects.toThrow("cannot insert multiple commands into a prepared statement");
    const { rows } = await runAll(
      pgRunner.run(ro, `SELECT count(*)::int FROM ${schema}.items`, ctx),
    );
    expect(rows).toEqual([[1]]);
  });

  it("read_only refuses an account that can write server files, and writes no file", async () => {
    const file = `/tmp/${schema}.csv`;
    const copy = `COPY (SELECT 1) TO '${file}'`;
    for (const run of [
      () => pgRunner.run({ ...options, read_only: true }, copy, ctx),
      () => pgRunner.run({ ...options, read_only: true }, "SELECT 1", ctx),
      () => pgRunner.test({ ...options, read_only: true }, ctx),
    ]) {
      await expect(run()).rejects.toThrow(READ_ONLY_NEEDS_PLAIN_ACCOUNT);
    }
    // A plain account is stopped by PostgreSQL itself, also inside a DO block.
    const plain = { ...options, user: reader, password: "reader", read_only: true };
    await expect(pgRunner.run(plain, `${copy}`, ctx)).rejects.toThrow(/pg_write_server_files/);
    await expect(
      pgRunner.run(plain, `DO $$ BEGIN EXECUTE $q$${copy}$q$; END $$`, ctx),
    ).rejects.toThrow(/pg_write_server_files|read-only/);
    expect(existsSync(file)).toBe(false);
    await expect(pgRunner.test(plain, ctx)).resolves.toBeUndefined();
  });

  it("refuses the metadata database however it is spelled, before and after connecting", async () => {
    const metadata = testContext({
      metadataDatabaseUrl: `postgres://${url.username}@LocalHost:5432/${options.dbname}?sslmode=disable`,
    });
    // Without connecting: other spellings of this machine, the default port, the name's case.
    for (const spelling of [
      { host: "127.0.0.1", port: 5432, dbname: options.dbname },
      { host: "::1", dbname: options.dbname.toUpperCase() },
      { host: "[::1]", port: 5432, dbname: options.dbname },
      { host: "/var/run/postgresql", dbname: options.dbname },
      { host: hostname(), dbname: options.dbname },
      { dbname: options.dbname },
    ]) {
      await expect(pgRunner.checkOptions!(spelling, metadata)).rejects.toThrow(
        METADATA_DATABASE_REFUSED,
      );
    }
    await expect(pgRunner.checkOptions!(options, ctx)).resolves.toBeUndefined();
    await expect(
      pgRunner.checkOptions!(
        { ...options, dbname: "postgres", user: reader, password: "reader" },
        metadata,
      ),
    ).resolves.toBeUndefined();
    await expect(
      pgRunner.checkOptions!({ ...options, port: 5433 }, metadata),
    ).resolves.toBeUndefined();
    // Once connected, the server names the database: every way in is refused.
    await expect(pgRunner.run(options, "SELECT 1", metadata)).rejects.toThrow(
      METADATA_DATABASE_REFUSED,
    );
    await expect(pgRunner.test(options, metadata)).rejects.toThrow(METADATA_DATABASE_REFUSED);
    await expect(pgRunner.getSchema(options, metadata)).rejects.toThrow(METADATA_DATABASE_REFUSED);
    await expect(pgRunner.listDatabases!(options, metadata)).rejects.toThrow(
      METADATA_DATABASE_REFUSED,
    );
    // Another database of the same server is fine with a plain account; a superuser there could
    // reach the metadata database (dblink, pg_read_file) and is refused.
    const other = { ...options, dbname: "postgres", user: reader, password: "reader" };
    expect((await runAll(pgRunner.run(other, "SELECT 1 AS one", metadata))).rows).toEqual([[1]]);
    const superuser = { ...options, dbname: "postgres" };
    const refused = neighbourAccountRefused(["is a superuser"]);
    await expect(pgRunner.checkOptions!(superuser, metadata)).rejects.toThrow(refused);
    await expect(pgRunner.run(superuser, "SELECT 1", metadata)).rejects.toThrow(refused);
    await expect(pgRunner.test(superuser, metadata)).rejects.toThrow(refused);
    await expect(pgRunner.getSchema(superuser, metadata)).rejects.toThrow(refused);
  });

  it("says when a statement returns no data", async () => {
    await expect(
      pgRunner.run(options, `UPDATE ${schema}.items SET name = name WHERE false`, ctx),
    ).rejects.toThrow("Query completed but it returned no data.");
  });

  it("tests the connection, lists the schema and the lazy schema", async () => {
    await expect(pgRunner.test(options, ctx)).resolves.toBeUndefined();
    await expect(pgRunner.test({ ...options, port: 1 }, ctx)).rejects.toThrow(/ECONNREFUSED/);
    const tables = await pgRunner.getSchema(options, ctx);
    const items = tables.find((t) => t.name === `${schema}.items`);
    expect(items?.columns).toEqual([
      { name: "id", type: "integer" },
      { name: "name", type: "text" },
      { name: "price", type: "numeric(10,2)" },
      { name: "added", type: "date" },
    ]);
    expect(tables.some((t) => t.name === `${schema}.cheap`)).toBe(true);
    expect(await pgRunner.listDatabases!(options, ctx)).toContain(schema);
    expect(await pgRunner.listTables!(options, schema, ctx)).toEqual(["cheap", "items"]);
    expect((await pgRunner.listColumns!(options, schema, "items", ctx)).map((c) => c.name)).toEqual(
      ["id", "name", "price", "added"],
    );
  });
});
