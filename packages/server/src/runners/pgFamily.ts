// PostgreSQL-protocol systems as types of their own on the pg runner: Redshift (schema from
// svv_columns), CockroachDB, TimescaleDB. Type names are Redash's where Redash has one.
import { catalogRows, pgRunner } from "./pg";
import { preset } from "./presets";
import { schemaTables } from "./schemaTables";
import type { DataSourceOptions, RunContext, SchemaTable } from "./types";

/**
 * Redshift's columns from svv_columns (local, late-binding views and Spectrum tables), only of
 * schemas and tables the account may use. Public tables are shown without "public.".
 */
export const REDSHIFT_COLUMNS_SQL = `SELECT table_schema, table_name, column_name, data_type
FROM svv_columns
WHERE table_schema NOT IN ('pg_internal', 'pg_catalog', 'information_schema', 'pg_automv')
  AND table_schema NOT LIKE 'pg_temp_%'
  AND has_schema_privilege(table_schema, 'USAGE')
  AND (
    table_schema IN (SELECT schemaname FROM svv_external_schemas)
    OR has_table_privilege(quote_ident(table_schema) || '.' || quote_ident(table_name), 'SELECT')
  )
ORDER BY table_schema, table_name, ordinal_position`;

/** PostgreSQL's "relation does not exist": svv_columns outside Redshift. */
const UNDEFINED_TABLE = "42P01";

export async function redshiftSchema(
  options: DataSourceOptions,
  ctx: RunContext,
): Promise<SchemaTable[]> {
  let rows;
  try {
    rows = await catalogRows(
      options,
      REDSHIFT_COLUMNS_SQL,
      [],
      ctx,
      "the tables and columns (svv_columns)",
    );
  } catch (error) {
    // Not Redshift (a PostgreSQL server, or a Redshift-compatible proxy): its catalog instead.
    if ((error as { code?: string }).code === UNDEFINED_TABLE)
      return pgRunner.getSchema(options, ctx);
    throw error;
  }
  return schemaTables(
    rows.map(([schema, table, column, type]) => [
      schema === "public" ? String(table) : `${schema}.${table}`,
      column,
      type,
    ]),
  );
}

export const redshiftRunner = preset(pgRunner, {
  type: "redshift",
  name: "Redshift",
  // Redshift accepts TLS on every cluster; "require" encrypts without checking the certificate
  // (Amazon's CA bundle is not shipped: give it as SSL Root Certificate with "verify-full").
  defaults: { port: 5439, sslmode: "require", dbname: "dev" },
  required: ["dbname", "user", "password", "host", "port"],
  properties: {
    adhoc_query_group: {
      type: "string",
      title: "Query Group for Adhoc Queries (kept from Redash; not applied)",
      default: "default",
    },
    scheduled_query_group: {
      type: "string",
      title: "Query Group for Scheduled Queries (kept from Redash; not applied)",
      default: "default",
    },
  },
  extraOptions: ["adhoc_query_group", "scheduled_query_group"],
  override: { getSchema: redshiftSchema },
});

/** CockroachDB's own catalogs, which its pg_catalog emulation lists beside the user's schemas. */
const COCKROACH_SYSTEM_SCHEMAS = ["crdb_internal", "pg_extension"];

function withoutSchemas(tables: SchemaTable[], hidden: string[]): SchemaTable[] {
  return tables.filter((table) => !hidden.some((schema) => table.name.startsWith(`${schema}.`)));
}

export const cockroachRunner = preset(pgRunner, {
  type: "cockroach",
  name: "CockroachDB",
  // CockroachDB Cloud requires verified TLS; a local insecure node needs "disable".
  defaults: { port: 26257, sslmode: "verify-full", user: "root", dbname: "defaultdb" },
  override: {
    getSchema: async (options, ctx) =>
      withoutSchemas(await pgRunner.getSchema(options, ctx), COCKROACH_SYSTEM_SCHEMAS),
    listDatabases: async (options, ctx) =>
      (await pgRunner.listDatabases!(options, ctx)).filter(
        (schema) => !COCKROACH_SYSTEM_SCHEMAS.includes(schema),
      ),
  },
});

/** TimescaleDB's catalog and chunk schemas: its hypertables show in their own schemas. */
const isTimescaleInternal = (schema: string) =>
  schema.startsWith("_timescaledb_") || schema.startsWith("timescaledb_");

export const timescaleRunner = preset(pgRunner, {
  type: "timescaledb",
  name: "TimescaleDB",
  defaults: { port: 5432 },
  override: {
    getSchema: async (options, ctx) =>
      (await pgRunner.getSchema(options, ctx)).filter(
        (table) => !isTimescaleInternal(table.name.split(".")[0]),
      ),
    listDatabases: async (options, ctx) =>
      (await pgRunner.listDatabases!(options, ctx)).filter(
        (schema) => !isTimescaleInternal(schema),
      ),
  },
});
