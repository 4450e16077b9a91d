import mysql from "mysql2/promise";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mysqlRunner } from "./mysql";
import { abortAfter, runAll, testContext, timeRejection } from "./testSupport";

const url = new URL(process.env.SIGHTLINE_TEST_MYSQL_URL ?? "mysql://root@127.0.0.1:3306/test");
const options = {
  host: url.hostname,
  port: Number(url.port || 3306),
  user: decodeURIComponent(url.username),
  passwd: decodeURIComponent(url.password),
  db: url.pathname.slice(1),
};
const suffix = Math.random().toString(36).slice(2, 10);
const table = `sl_items_${suffix}`;
const ctx = testContext();
let admin: mysql.Connection;

beforeAll(async () => {
  admin = await mysql.createConnection({
    host: options.host,
    port: options.port,
    user: options.user,
    password: options.passwd,
    database: options.db,
  });
  await admin.query(
    `CREATE TABLE ${table} (id INT PRIMARY KEY AUTO_INCREMENT, name VARCHAR(50), price DECIMAL(10,2), added DATE)`,
  );
  await admin.query(`INSERT INTO ${table} (name, price, added) VALUES ('pen', 1.50, '2024-01-02')`);
});

afterAll(async () => {
  await admin.query(`DROP TABLE IF EXISTS ${table}`);
  await admin.query(`DROP TABLE IF EXISTS sl_ro_${suffix}`);
  await admin.end();
});

async function runningQueries(marker: string): Promise<number> {
  const [rows] = await admin.query(
    "SELECT COUNT(*) AS n FROM information_schema.processlist WHERE command = 'Query' AND info LIKE ? AND id <> CONNECTION_ID()",
    [`%${marker}%`],
  );
  return Number((rows as { n: number }[])[0].n);
}

describe("mysql runner", () => {
  it("returns every column type with JSON-safe values", async () => {
    const { columns, rows } = await runAll(
      mysqlRunner.run(
        options,
        `SELECT 1 AS i, CAST(9007199254740993 AS SIGNED) AS big, CAST(5 AS SIGNED) AS small_big,
                CAST(2.5 AS DOUBLE) AS f, CAST(1.50 AS DECIMAL(10,2)) AS d,
                CAST('12345678901234567890.123' AS DECIMAL(38,3)) AS wide, 'x' AS s,
                CAST('2024-01-02' AS DATE) AS day, CAST('2024-01-02 10:00:00.123456' AS DATETIME(6)) AS ts,
                UNHEX('00FF') AS bin, NULL AS n, 2 AS i`,
        ctx,
      ),
    );
    expect(columns.map((c) => [c.name, c.type])).toEqual([
      ["i", "integer"],
      ["big", "integer"],
      ["small_big", "integer"],
      ["f", "float"],
      ["d", "float"],
      ["wide", "float"],
      ["s", "string"],
      ["day", "date"],
      ["ts", "datetime"],
      ["bin", "string"],
      ["n", "string"],
      ["i1", "integer"],
    ]);
    expect(rows).toEqual([
      [
        1,
        "9007199254740993",
        5,
        2.5,
        1.5,
        "12345678901234567890.123",
        "x",
        "2024-01-02",
        "2024-01-02T10:00:00.123",
        "00ff",
        null,
        2,
      ],
    ]);
  });

  it("streams a 100k-row result in batches", async () => {
    const { rows, batches } = await runAll(
      mysqlRunner.run(
        options,
        `SELECT seq AS x, CONCAT('row ', seq) AS label FROM seq_1_to_100000`,
        ctx,
      ),
    );
    expect(rows).toHaveLength(100_000);
    expect(batches).toBe(20);
    expect(rows[99_999]).toEqual([100_000, "row 100000"]);
  });

  it("reports the database's error message", async () => {
    await expect(mysqlRunner.run(options, "SELECT * FROM nope_missing", ctx)).rejects.toThrow(
      "Table 'test.nope_missing' doesn't exist",
    );
  });

  it("cancellation kills the query in the database", async () => {
    const marker = `cancel_${suffix}`;
    const { error, ms } = await timeRejection(
      runAll(
        mysqlRunner.run(options, `SELECT SLEEP(30) AS ${marker}`, {
          ...ctx,
          signal: abortAfter(500),
        }),
      ),
    );
    expect(error.message).toBe("Query cancelled by user.");
    expect(ms).toBeLessThan(2500);
    expect(await runningQueries(marker)).toBe(0);
  });

  it("stops a query at the time limit", async () => {
    const marker = `timeout_${suffix}`;
    const { error, ms } = await timeRejection(
      runAll(mysqlRunner.run(options, `SELECT SLEEP(30) AS ${marker}`, { ...ctx, timeoutMs: 500 })),
    );
    expect(error.message).toBe("Query exceeded the time limit of 0.5 seconds and was stopped.");
    expect(ms).toBeLessThan(2500);
    expect(await runningQueries(marker)).toBe(0);
  });

  it("read_only refuses writes, DDL included", async () => {
    const ro = { ...options, read_only: true };
    await expect(mysqlRunner.run(ro, `DELETE FROM ${table}`, ctx)).rejects.toThrow(
      /READ ONLY transaction/i,
    );
    await expect(mysqlRunner.run(ro, `CREATE TABLE sl_ro_${suffix} (a INT)`, ctx)).rejects.toThrow(
      /READ ONLY transaction/i,
    );
    await expect(mysqlRunner.run(ro, `COMMIT; DELETE FROM ${table}`, ctx)).rejects.toThrow(
      /SQL syntax/,
    );
    const { rows } = await runAll(mysqlRunner.run(ro, `SELECT COUNT(*) FROM ${table}`, ctx));
    expect(rows).toEqual([[1]]);
  });

  it("tests the connection, lists the schema and the lazy schema", async () => {
    await expect(mysqlRunner.test(options, ctx)).resolves.toBeUndefined();
    await expect(mysqlRunner.test({ ...options, db: "no_such_db_sightline" }, ctx)).rejects.toThrow(
      "Unknown database 'no_such_db_sightline'",
    );
    const schema = await mysqlRunner.getSchema(options, ctx);
    expect(schema.find((t) => t.name === table)?.columns).toEqual([
      { name: "id", type: "int(11)" },
      { name: "name", type: "varchar(50)" },
      { name: "price", type: "decimal(10,2)" },
      { name: "added", type: "date" },
    ]);
    expect(await mysqlRunner.listDatabases!(options, ctx)).toContain(options.db);
    expect(await mysqlRunner.listTables!(options, options.db, ctx)).toContain(table);
    expect(
      (await mysqlRunner.listColumns!(options, options.db, table, ctx)).map((c) => c.name),
    ).toEqual(["id", "name", "price", "added"]);
  });
});
