// The PostgreSQL family presets against the machine's PostgreSQL (same protocol): create/test/run
// and schema for each; Redshift's svv_columns query checked for its shape and its fallback.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresAvailable, TEST_PG_URL } from "../testing/services";
import { pgSourceOptions } from "../testing/sourceOptions";
import { cockroachRunner, REDSHIFT_COLUMNS_SQL, redshiftRunner, timescaleRunner } from "./pgFamily";
import { withPresetDefaults } from "./presets";
import { runAll, testContext } from "./testSupport";

const options = pgSourceOptions(TEST_PG_URL);
const schema = `sl_family_${Math.random().toString(36).slice(2, 8)}`;
const internal = `_timescaledb_${schema}`;
const ctx = testContext();
const available = await postgresAvailable();
let admin: pg.Client;

beforeAll(async () => {
  if (!available) return;
  admin = new pg.Client({ connectionString: TEST_PG_URL });
  await admin.connect();
  await admin.query(`
    CREATE SCHEMA ${schema};
    CREATE TABLE ${schema}.readings (at timestamptz, device text, value double precision);
    INSERT INTO ${schema}.readings VALUES ('2024-01-02T03:04:05Z', 'd1', 1.5);
    CREATE SCHEMA ${internal};
    CREATE TABLE ${internal}._hyper_1_1_chunk (x int);
  `);
});

afterAll(async () => {
  if (!available) return;
  await admin.query(
    `DROP SCHEMA IF EXISTS ${schema} CASCADE; DROP SCHEMA IF EXISTS ${internal} CASCADE`,
  );
  await admin.end();
});

describe("PostgreSQL family presets", () => {
  it("are types of their own with their hosts' defaults", () => {
    expect(redshiftRunner.type).toBe("redshift");
    expect(redshiftRunner.configurationSchema.properties.port.default).toBe(5439);
    expect(redshiftRunner.configurationSchema.properties.sslmode.default).toBe("require");
    expect(redshiftRunner.configurationSchema.required).toEqual([
      "dbname",
      "user",
      "password",
      "host",
      "port",
    ]);
    expect(redshiftRunner.configurationSchema.extra_options).toContain("adhoc_query_group");
    expect(cockroachRunner.type).toBe("cockroach");
    expect(cockroachRunner.configurationSchema.properties.port.default).toBe(26257);
    expect(timescaleRunner.type).toBe("timescaledb");
    // Stored options without a key get the preset's default (a Redash export may omit the port).
    expect(withPresetDefaults({ host: "h", port: "" }, { port: 5439 })).toEqual({
      host: "h",
      port: 5439,
    });
    expect(withPresetDefaults({ use_ssl: false }, { use_ssl: true })).toEqual({ use_ssl: false });
  });

  it("reads Redshift's schema from svv_columns, filtered by the account's privileges", () => {
    expect(REDSHIFT_COLUMNS_SQL).toMatch(/FROM svv_columns/);
    expect(REDSHIFT_COLUMNS_SQL).toMatch(/has_schema_privilege\(table_schema, 'USAGE'\)/);
    expect(REDSHIFT_COLUMNS_SQL).toMatch(/svv_external_schemas/);
    expect(REDSHIFT_COLUMNS_SQL).toMatch(/has_table_privilege\(.*'SELECT'\)/);
    expect(REDSHIFT_COLUMNS_SQL).toMatch(/ORDER BY table_schema, table_name, ordinal_position$/);
  });

  for (const runner of [redshiftRunner, cockroachRunner, timescaleRunner]) {
    it(`${runner.name}: tests, runs and lists the schema on a PostgreSQL server`, async (t) => {
      if (!available) return t.skip();
      await runner.test(options, ctx);
      const { columns, rows } = await runAll(
        runner.run(options, `SELECT device, value, at FROM ${schema}.readings`, ctx),
      );
      expect(columns.map((c) => c.type)).toEqual(["string", "float", "datetime"]);
      expect(rows).toEqual([["d1", 1.5, "2024-01-02T03:04:05Z"]]);
      // On plain PostgreSQL Redshift's svv_columns is missing: the pg catalog is read instead.
      const tables = await runner.getSchema(options, ctx);
      expect(tables.find((table) => table.name === `${schema}.readings`)?.columns).toEqual([
        { name: "at", type: "timestamp with time zone" },
        { name: "device", type: "text" },
        { name: "value", type: "double precision" },
      ]);
      const hidesChunks = runner === timescaleRunner;
      expect(tables.some((table) => table.name.startsWith(`${internal}.`))).toBe(!hidesChunks);
      expect((await runner.listDatabases!(options, ctx)).includes(internal)).toBe(!hidesChunks);
      expect(await runner.listTables!(options, schema, ctx)).toEqual(["readings"]);
    });
  }

  it("says what failed in the driver's words", async (t) => {
    if (!available) return t.skip();
    await expect(redshiftRunner.test({ ...options, dbname: "sl_no_such_db" }, ctx)).rejects.toThrow(
      /database "sl_no_such_db" does not exist/,
    );
  });
});
