// The PostgreSQL and MySQL family presets through the HTTP API on both metadata stores: each is
// offered with its defaults, created, tested and run against the machine's PostgreSQL/MariaDB.
import mysql from "mysql2/promise";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runToResult, startWithAdmin } from "../testing/apiServer";
import type { TestClient } from "../testing/httpClient";
import {
  metadataDatabases,
  mysqlAvailable,
  pgSourceDatabaseUrl,
  plainPgRole,
  randomName,
  TEST_MYSQL_URL,
} from "../testing/services";
import {
  mysqlSourceOptions,
  plainPgSourceOptions,
  type PgSourceOptions,
} from "../testing/sourceOptions";
import type { TestServer } from "../testing/testServer";

const DATABASES = await metadataDatabases();
const HAS_PG = DATABASES.includes("postgres");
const schemaName = randomName("preset").toLowerCase();
const myTable = randomName("preset").toLowerCase();

const HAS_MARIADB = await mysqlAvailable();

let pgOptions: PgSourceOptions;
const myOptions = mysqlSourceOptions();

beforeAll(async () => {
  if (HAS_PG) {
    // Not the metadata database, and not a superuser: both are refused to data sources.
    const sourceUrl = await pgSourceDatabaseUrl();
    const role = await plainPgRole();
    const client = new pg.Client({ connectionString: sourceUrl });
    await client.connect();
    await client.query(`CREATE SCHEMA ${schemaName}`);
    await client.query(`CREATE TABLE ${schemaName}.metrics (at date, value int)`);
    await client.query(`INSERT INTO ${schemaName}.metrics VALUES ('2024-03-04', 7)`);
    await client.query(`GRANT USAGE ON SCHEMA ${schemaName} TO ${role}`);
    await client.query(`GRANT SELECT ON ${schemaName}.metrics TO ${role}`);
    await client.end();
    pgOptions = await plainPgSourceOptions();
  }
  if (HAS_MARIADB) {
    const connection = await mysql.createConnection({ uri: TEST_MYSQL_URL });
    await connection.query(`CREATE TABLE ${myTable} (at DATE, value INT)`);
    await connection.query(`INSERT INTO ${myTable} VALUES ('2024-03-04', 7)`);
    await connection.end();
  }
});

afterAll(async () => {
  if (HAS_PG) {
    const client = new pg.Client({ connectionString: await pgSourceDatabaseUrl() });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS ${schemaName} CASCADE`);
    await client.end();
  }
  if (HAS_MARIADB) {
    const connection = await mysql.createConnection({ uri: TEST_MYSQL_URL });
    await connection.query(`DROP TABLE IF EXISTS ${myTable}`);
    await connection.end();
  }
});

describe.each(DATABASES)("PostgreSQL and MySQL family presets on %s", (store) => {
  let server: TestServer;
  let admin: TestClient;

  beforeAll(async () => {
    ({ server, admin } = await startWithAdmin(store));
  });

  afterAll(async () => {
    await server?.close();
  });

  it("offers each type with its own defaults", async () => {
    const types = await admin.get<
      {
        type: string;
        configuration_schema: { properties: Record<string, { default?: unknown }> };
      }[]
    >("/api/data_sources/types");
    const port = (type: string) =>
      types.body.find((t) => t.type === type)?.configuration_schema.properties.port.default;
    expect([
      port("redshift"),
      port("cockroach"),
      port("timescaledb"),
      port("mariadb"),
      port("rds_mysql"),
      port("tidb"),
    ]).toEqual([5439, 26257, 5432, 3306, 3306, 4000]);
  });

  async function createTestRun(type: string, options: Record<string, unknown>, sql: string) {
    const created = await admin.post<{ id: number }>("/api/data_sources", {
      name: randomName(type),
      type,
      options,
    });
    expect(created.status, created.text).toBe(200);
    const id = created.body.id;
    expect((await admin.post(`/api/data_sources/${id}/test`)).body).toEqual({
      message: "success",
      ok: true,
    });
    const resultId = await runToResult(admin, id, sql);
    const result = await admin.get(`/api/query_results/${resultId}.json`);
    expect(result.body.query_result.data.rows).toEqual([{ at: "2024-03-04", value: 7 }]);
    return id;
  }

  it.runIf(HAS_PG).each(["redshift", "cockroach", "timescaledb"])(
    "%s: created, tested, run and its schema listed on PostgreSQL",
    async (type) => {
      const id = await createTestRun(type, pgOptions, `SELECT * FROM ${schemaName}.metrics`);
      const schema = await admin.get(`/api/data_sources/${id}/schema?refresh=true`);
      expect(schema.body.schema).toContainEqual({
        name: `${schemaName}.metrics`,
        columns: [
          { name: "at", type: "date" },
          { name: "value", type: "integer" },
        ],
      });
      const bad = await admin.post<{ id: number }>("/api/data_sources", {
        name: randomName(`${type}-bad`),
        type,
        options: { ...pgOptions, port: 1 },
      });
      const failed = await admin.post(`/api/data_sources/${bad.body.id}/test`);
      expect(failed.body.ok).toBe(false);
      expect(failed.body.message).toMatch(/ECONNREFUSED/);
    },
  );

  it.runIf(HAS_MARIADB).each(["mariadb", "rds_mysql", "tidb"])(
    "%s: created, tested, run and its schema listed on MariaDB",
    async (type) => {
      const id = await createTestRun(type, myOptions, `SELECT * FROM ${myTable}`);
      const schema = await admin.get(`/api/data_sources/${id}/schema?refresh=true`);
      expect(schema.body.schema.map((t: { name: string }) => t.name)).toContain(myTable);
      const bad = await admin.post<{ id: number }>("/api/data_sources", {
        name: randomName(`${type}-bad`),
        type,
        options: { ...myOptions, passwd: "wrong-password" },
      });
      const failed = await admin.post(`/api/data_sources/${bad.body.id}/test`);
      expect(failed.body.ok).toBe(false);
      expect(failed.body.message).toMatch(/Access denied/);
    },
  );
});
