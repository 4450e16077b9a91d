// The MySQL family presets against the machine's MariaDB (same protocol): create/test/run and
// schema for each, and the TLS defaults their hosts need.
import mysql from "mysql2/promise";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REQUIRE_SERVICES, TEST_MYSQL_URL } from "../testing/services";
import { mysqlSourceOptions } from "../testing/sourceOptions";
import { mariadbRunner, rdsMysqlRunner, tidbRunner } from "./mysqlFamily";
import { runAll, testContext } from "./testSupport";

// TLS off: the local server has none; RDS and TiDB turn it on by default.
const options = mysqlSourceOptions(TEST_MYSQL_URL);
const table = `sl_family_${Math.random().toString(36).slice(2, 8)}`;
const ctx = testContext();
let admin: mysql.Connection | null = null;

beforeAll(async () => {
  try {
    admin = await mysql.createConnection({ uri: TEST_MYSQL_URL, connectTimeout: 3000 });
  } catch (error) {
    if (REQUIRE_SERVICES) throw error;
    return;
  }
  await admin.query(`CREATE TABLE ${table} (id BIGINT, name VARCHAR(20), added DATETIME)`);
  await admin.query(`INSERT INTO ${table} VALUES (9007199254740993, 'pen', '2024-01-02 03:04:05')`);
});

afterAll(async () => {
  await admin?.query(`DROP TABLE IF EXISTS ${table}`);
  await admin?.end();
});

describe("MySQL family presets", () => {
  it("are types of their own with their hosts' defaults", () => {
    expect([mariadbRunner, rdsMysqlRunner, tidbRunner].map((r) => [r.type, r.name])).toEqual([
      ["mariadb", "MariaDB"],
      ["rds_mysql", "MySQL (Amazon RDS)"],
      ["tidb", "TiDB"],
    ]);
    const rds = rdsMysqlRunner.configurationSchema;
    expect([rds.properties.use_ssl.default, rds.properties.ssl_mode.default]).toEqual([
      true,
      "required",
    ]);
    expect(rds.required).toEqual(["db", "user", "passwd", "host"]);
    const tidb = tidbRunner.configurationSchema;
    expect(tidb.properties.port.default).toBe(4000);
    expect([tidb.properties.use_ssl.default, tidb.properties.ssl_mode.default]).toEqual([
      true,
      "verify-identity",
    ]);
  });

  for (const runner of [mariadbRunner, rdsMysqlRunner, tidbRunner]) {
    it(`${runner.name}: tests, runs and lists the schema on a MariaDB server`, async (t) => {
      if (!admin) return t.skip();
      await runner.test(options, ctx);
      const { columns, rows } = await runAll(
        runner.run(options, `SELECT id, name, added FROM ${table}`, ctx),
      );
      expect(columns.map((c) => c.type)).toEqual(["integer", "string", "datetime"]);
      expect(rows).toEqual([["9007199254740993", "pen", "2024-01-02T03:04:05"]]);
      const schema = await runner.getSchema(options, ctx);
      expect(schema.find((t) => t.name === table)?.columns.map((c) => c.name)).toEqual([
        "id",
        "name",
        "added",
      ]);
      expect(await runner.listTables!(options, options.db, ctx)).toContain(table);
    });
  }

  it("uses TLS by default for RDS and TiDB, and says so when the server has none", async (t) => {
    if (!admin) return t.skip();
    const { use_ssl: _, ...withoutSsl } = options;
    void _;
    await expect(tidbRunner.test(withoutSsl, ctx)).rejects.toThrow(
      /does not support secure connection/,
    );
    await expect(rdsMysqlRunner.test(withoutSsl, ctx)).rejects.toThrow(
      /does not support secure connection/,
    );
    await mariadbRunner.test(withoutSsl, ctx);
  });
});
