import mysql from "mysql2/promise";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import { mysqlRunner } from "./mysql";
import { READ_ONLY_NEEDS_PLAIN_MYSQL_ACCOUNT, readGrantLine } from "./mysqlSafety";
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
const plainUser = `sl_plain_${suffix}`;
const fileUser = `sl_file_${suffix}`;
const roleUser = `sl_role_${suffix}`;
const fileRole = `sl_filer_${suffix}`;
/** A read-only source connecting as one of the accounts above. */
const readOnlyAs = (user: string) => ({ ...options, user, passwd: "pw", read_only: true });
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
  // Accounts for read-only sources: one with every right on the database but no global ones,
  // one that may also write server files (FILE), one that holds FILE through its default role.
  for (const user of [plainUser, fileUser, roleUser]) {
    await admin.query(`DROP USER IF EXISTS '${user}'@'%'`);
    await admin.query(`CREATE USER '${user}'@'%' IDENTIFIED BY 'pw'`);
    await admin.query(`GRANT ALL ON \`${options.db}\`.* TO '${user}'@'%'`);
  }
  await admin.query(`GRANT FILE ON *.* TO '${fileUser}'@'%'`);
  await admin.query(`DROP ROLE IF EXISTS ${fileRole}`);
  await admin.query(`CREATE ROLE ${fileRole}`);
  await admin.query(`GRANT FILE ON *.* TO ${fileRole}`);
  await admin.query(`GRANT ${fileRole} TO '${roleUser}'@'%'`);
  await admin.query(`SET DEFAULT ROLE ${fileRole} FOR '${roleUser}'@'%'`);
});

afterAll(async () => {
  await admin.query(`DROP TABLE IF EXISTS ${table}`);
  await admin.query(`DROP TABLE IF EXISTS sl_ro_${suffix}`);
  for (const user of [plainUser, fileUser, roleUser]) {
    await admin.query(`DROP USER IF EXISTS '${user}'@'%'`);
  }
  await admin.query(`DROP ROLE IF EXISTS ${fileRole}`);
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
    const ro = readOnlyAs(plainUser);
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

  it("read_only refuses an account with FILE or SUPER, directly or through a role, and writes no file", async () => {
    const file = `/tmp/sl_outfile_${suffix}.csv`;
    const outfile = `SELECT 1 INTO OUTFILE '${file}'`;
    for (const ro of [
      { ...options, read_only: true },
      readOnlyAs(fileUser),
      readOnlyAs(roleUser),
    ]) {
      for (const run of [
        () => mysqlRunner.run(ro, outfile, ctx),
        () => mysqlRunner.run(ro, "SELECT 1", ctx),
        () => mysqlRunner.test(ro, ctx),
      ]) {
        await expect(run()).rejects.toThrow(READ_ONLY_NEEDS_PLAIN_MYSQL_ACCOUNT);
      }
    }
    // The FILE account, not read only, may (that is the operator's choice); the plain one may not.
    await expect(mysqlRunner.run(readOnlyAs(plainUser), outfile, ctx)).rejects.toThrow(
      /Access denied/,
    );
    expect(existsSync(file)).toBe(false);
    await expect(mysqlRunner.test(readOnlyAs(plainUser), ctx)).resolves.toBeUndefined();
    const { rows } = await runAll(mysqlRunner.run(readOnlyAs(plainUser), "SELECT 1", ctx));
    expect(rows).toEqual([[1]]);
  });

  it("reads SHOW GRANTS lines of MariaDB and MySQL 8", () => {
    expect(readGrantLine("GRANT FILE ON *.* TO `u`@`%`")).toEqual({ unsafe: true, roles: [] });
    expect(readGrantLine("GRANT SELECT, SUPER ON *.* TO 'u'@'%'").unsafe).toBe(true);
    expect(readGrantLine("GRANT ALL PRIVILEGES ON *.* TO `root`@`localhost`").unsafe).toBe(true);
    expect(readGrantLine("GRANT USAGE ON *.* TO `u`@`%` IDENTIFIED BY PASSWORD '*AB'").unsafe).toBe(
      false,
    );
    expect(readGrantLine("GRANT ALL PRIVILEGES ON `test`.* TO `u`@`%`").unsafe).toBe(false);
    expect(readGrantLine("GRANT `r1`,`r2` TO `u`@`%`").roles).toEqual(["`r1`", "`r2`"]);
    expect(readGrantLine("GRANT `r1`@`%` TO `u`@`%`").roles).toEqual(["`r1`@`%`"]);
    expect(readGrantLine("GRANT PROXY ON ''@'%' TO 'root'@'localhost' WITH GRANT OPTION")).toEqual({
      unsafe: false,
      roles: [],
    });
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
