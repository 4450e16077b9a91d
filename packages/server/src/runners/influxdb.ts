// InfluxDB through InfluxQL over HTTP (influxClient.ts). Columns of a SELECT are typed from the
// measurements' keys (SHOW FIELD KEYS / SHOW TAG KEYS), not guessed from the first row; tags of
// GROUP BY series become columns; `time` is a UTC datetime. Only reading statements run.
import {
  DEFAULT_URL,
  influxEndpoint,
  influxQuery,
  influxName,
  quoteIdentifier,
  type InfluxEndpoint,
  type InfluxStatementResult,
} from "./influxClient";
import { inBatches } from "./batches";
import { hasSelect, selectSources, writingStatement } from "./influxStatements";
import { watchQuery } from "./queryWatch";
import { withinCatalogTime } from "./serverHttp";
import type {
  Cell,
  ColumnType,
  DataSourceOptions,
  QueryRun,
  RunContext,
  Runner,
  SchemaColumn,
  SchemaTable,
} from "./types";
import { buildColumns, isoTimestamp, toCell } from "./values";

/** Measurements whose keys are read to type a result (a regex FROM may name many). */
const MAX_TYPED_MEASUREMENTS = 50;

const FIELD_TYPES: Record<string, ColumnType> = {
  float: "float",
  integer: "integer",
  unsigned: "integer",
  string: "string",
  boolean: "boolean",
};

/** Each measurement's keys: field name → type, and the tag names. */
interface MeasurementKeys {
  fields: Map<string, ColumnType>;
  tags: Set<string>;
}

/** Reads the keys of the measurements (one request; statements in pairs). */
async function measurementKeys(
  endpoint: InfluxEndpoint,
  measurements: string[],
  signal: AbortSignal,
  database = endpoint.database,
): Promise<Map<string, MeasurementKeys>> {
  const keys = new Map<string, MeasurementKeys>();
  if (measurements.length === 0) return keys;
  const statements = measurements.flatMap((m) => [
    `SHOW FIELD KEYS FROM ${quoteIdentifier(m)}`,
    `SHOW TAG KEYS FROM ${quoteIdentifier(m)}`,
  ]);
  const results = await influxQuery(endpoint, statements.join("; "), signal, database);
  measurements.forEach((measurement, i) => {
    const fields = new Map<string, ColumnType>();
    const tags = new Set<string>();
    for (const series of results[i * 2]?.series ?? []) {
      for (const [name, type] of series.values ?? []) {
        fields.set(String(name), FIELD_TYPES[String(type)] ?? "string");
      }
    }
    for (const series of results[i * 2 + 1]?.series ?? []) {
      for (const [name] of series.values ?? []) tags.add(String(name));
    }
    keys.set(measurement, { fields, tags });
  });
  return keys;
}

/** A column's type from its values (for what is not a key: aggregates, SHOW answers). */
function typeOfValues(values: Iterable<unknown>): ColumnType {
  let type: ColumnType = null;
  for (const value of values) {
    if (value === null || value === undefined) continue;
    const seen: ColumnType =
      typeof value === "boolean"
        ? "boolean"
        : typeof value === "number"
          ? Number.isInteger(value)
            ? "integer"
            : "float"
          : "string";
    if (type === null) type = seen;
    else if (type !== seen) {
      if ((type === "integer" && seen === "float") || (type === "float" && seen === "integer"))
        type = "float";
      else return "string";
    }
  }
  return type ?? "string";
}

interface Table {
  columns: { name: string; type: ColumnType }[];
  rows(): Generator<Cell[]>;
}

/**
 * Statement results → one table: columns are every series' columns, then their GROUP BY tags, in
 * the order first seen (as Redash). A column is typed by the key it names in every measurement
 * it comes from, else from all its values (numbers that are all whole are integers unless a
 * fractional one appears).
 */
export function influxTable(
  results: InfluxStatementResult[],
  keys: Map<string, MeasurementKeys>,
): Table {
  const allSeries = results.flatMap((result) => result.series ?? []);
  const names: string[] = [];
  const known = new Map<string, ColumnType>();
  const values = new Map<string, unknown[]>();
  const addName = (name: string) => {
    if (!values.has(name)) {
      names.push(name);
      values.set(name, []);
    }
  };
  for (const series of allSeries) {
    for (const column of series.columns) addName(column);
    for (const tag of Object.keys(series.tags ?? {})) addName(tag);
  }
  for (const series of allSeries) {
    const measurement = keys.get(series.name ?? "");
    for (const [index, column] of series.columns.entries()) {
      const keyType =
        column === "time"
          ? "datetime"
          : (measurement?.fields.get(column) ??
            (measurement?.tags.has(column) ? ("string" as const) : undefined));
      if (keyType !== undefined && !known.has(column)) known.set(column, keyType);
      else if (keyType === undefined) {
        const list = values.get(column)!;
        for (const row of series.values ?? []) list.push(row[index]);
      }
    }
    for (const tag of Object.keys(series.tags ?? {})) if (!known.has(tag)) known.set(tag, "string");
  }
  const columns = names.map((name) => ({
    name,
    type: known.get(name) ?? typeOfValues(values.get(name) ?? []),
  }));
  const types = columns.map((column) => column.type);
  return {
    columns,
    *rows() {
      for (const series of allSeries) {
        const positions = names.map((name) => series.columns.indexOf(name));
        const tags = series.tags ?? {};
        for (const row of series.values ?? []) {
          const cells = positions.map((position, i): Cell => {
            if (position === -1) return tags[names[i]] ?? null;
            const value = row[position];
            if (types[i] === "datetime" && typeof value === "string") return isoTimestamp(value);
            return toCell(value);
          });
          yield cells;
        }
      }
    },
  };
}

/**
 * The keys of the measurements a SELECT's series come from, each read in its database: the one
 * its FROM names (`db..m`), else the data source's. Without either, its columns are typed from
 * their values.
 */
async function keysOfSeries(
  endpoint: InfluxEndpoint,
  text: string,
  results: InfluxStatementResult[],
  signal: AbortSignal,
): Promise<Map<string, MeasurementKeys>> {
  const keys = new Map<string, MeasurementKeys>();
  if (!hasSelect(text)) return keys;
  const sources = selectSources(text);
  const names = new Set(results.flatMap((r) => (r.series ?? []).map((s) => s.name ?? "")));
  names.delete("");
  const byDatabase = new Map<string, string[]>();
  for (const name of [...names].slice(0, MAX_TYPED_MEASUREMENTS)) {
    const named = sources.find((s) => s.measurement === name && s.database !== null)?.database;
    const database = named ?? endpoint.database;
    if (!database) continue;
    byDatabase.set(database, [...(byDatabase.get(database) ?? []), name]);
  }
  for (const [database, measurements] of byDatabase) {
    const found = await measurementKeys(endpoint, measurements, signal, database);
    for (const [name, entry] of found) if (!keys.has(name)) keys.set(name, entry);
  }
  return keys;
}

async function runQuery(
  options: DataSourceOptions,
  text: string,
  ctx: RunContext,
): Promise<QueryRun> {
  if (text.trim() === "") throw new Error("Query is empty: write an InfluxQL statement.");
  const refused = writingStatement(text);
  if (refused) throw new Error(refused);
  const endpoint = influxEndpoint(options);
  const watch = watchQuery(ctx);
  let table: Table;
  try {
    const results = await influxQuery(endpoint, text, watch.signal);
    const keys = await keysOfSeries(endpoint, text, results, watch.signal).catch(
      (error: unknown) => {
        if (watch.signal.aborted) throw error;
        // Keys that cannot be read leave the columns typed from their values.
        return new Map<string, MeasurementKeys>();
      },
    );
    table = influxTable(results, keys);
  } catch (error) {
    throw watch.explain(error);
  } finally {
    watch.dispose();
  }
  return { columns: buildColumns(table.columns), batches: inBatches(table.rows()) };
}

/** A catalog call within the schema's time, naming what timed out. */
async function catalog<T>(
  options: DataSourceOptions,
  ctx: RunContext,
  what: string,
  work: (endpoint: InfluxEndpoint, signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const endpoint = influxEndpoint(options);
  return withinCatalogTime(ctx, what, `InfluxDB at ${endpoint.base.origin}`, (signal) =>
    work(endpoint, signal),
  );
}

function firstColumn(results: InfluxStatementResult[], index = 0): string[] {
  return (results[index]?.series ?? []).flatMap((series) =>
    (series.values ?? []).map((row) => String(row[0])),
  );
}

async function listDatabases(options: DataSourceOptions, ctx: RunContext): Promise<string[]> {
  return catalog(options, ctx, "the databases (SHOW DATABASES)", async (endpoint, signal) =>
    firstColumn(await influxQuery(endpoint, "SHOW DATABASES", signal, "")).filter(
      (name) => name !== "_internal",
    ),
  );
}

function schemaColumns(keys: MeasurementKeys): SchemaColumn[] {
  return [
    { name: "time", type: "time" },
    ...[...keys.tags].sort().map((name) => ({ name, type: "tag" })),
    ...[...keys.fields].map(([name, type]) => ({ name, type: `field ${type ?? "string"}` })),
  ];
}

/**
 * The data source's database (every database when none is set): its measurements with their tags
 * and fields, in one request per database. Each is named as a query names it, so the schema
 * browser inserts text that runs: `cpu`, `"disk.io"`, and `telegraf..cpu` (the database's
 * default retention policy) when no database is set; `telegraf.cpu` would read as a retention
 * policy.
 */
async function getSchema(options: DataSourceOptions, ctx: RunContext): Promise<SchemaTable[]> {
  const configured = influxEndpoint(options).database;
  const databases = configured ? [configured] : await listDatabases(options, ctx);
  const tables: SchemaTable[] = [];
  for (const database of databases) {
    const keys = await catalog(
      options,
      ctx,
      `the measurements and keys of database "${database}" (SHOW MEASUREMENTS, SHOW FIELD KEYS, SHOW TAG KEYS)`,
      async (endpoint, signal) => {
        const results = await influxQuery(
          endpoint,
          "SHOW MEASUREMENTS; SHOW FIELD KEYS; SHOW TAG KEYS",
          signal,
          database,
        );
        const byName = new Map<string, MeasurementKeys>(
          firstColumn(results, 0).map((name) => [name, { fields: new Map(), tags: new Set() }]),
        );
        for (const series of results[1]?.series ?? []) {
          const entry = byName.get(series.name ?? "");
          for (const [name, type] of series.values ?? [])
            entry?.fields.set(String(name), FIELD_TYPES[String(type)] ?? "string");
        }
        for (const series of results[2]?.series ?? []) {
          const entry = byName.get(series.name ?? "");
          for (const [name] of series.values ?? []) entry?.tags.add(String(name));
        }
        return byName;
      },
    );
    for (const [name, entry] of keys) {
      tables.push({
        name: configured ? influxName(name) : `${influxName(database)}..${influxName(name)}`,
        columns: schemaColumns(entry),
      });
    }
  }
  return tables.sort((a, b) => a.name.localeCompare(b.name));
}

export const influxdbRunner: Runner = {
  type: "influxdb",
  name: "InfluxDB",
  syntax: "sql",
  supportsAutoLimit: false,
  annotateQuery: false,
  configurationSchema: {
    type: "object",
    properties: {
      url: {
        type: "string",
        title: "URL (influxdb://host:8086/database, or http(s)://host:8086)",
        default: DEFAULT_URL,
      },
      db: { type: "string", title: "Database (instead of the URL's path)" },
      user: { type: "string", title: "User" },
      password: { type: "string", title: "Password" },
      token: { type: "string", title: "Token (InfluxDB 2.x/3.x, instead of user and password)" },
      verify_ssl: { type: "boolean", title: "Verify SSL certificate", default: true },
    },
    required: ["url"],
    order: ["url", "db", "user", "password", "token"],
    secret: ["password", "token"],
    extra_options: ["token", "verify_ssl"],
  },

  async checkOptions(options) {
    influxEndpoint(options);
  },

  run: runQuery,

  async test(options, ctx) {
    // Redash's check (its noop query); InfluxDB 1.x answers it on a missing database too, so
    // the databases the account sees are listed as well.
    await catalog(options, ctx, "SHOW DATABASES", async (endpoint, signal) => {
      if (endpoint.database) await influxQuery(endpoint, "SHOW MEASUREMENTS LIMIT 1", signal);
      const databases = firstColumn(await influxQuery(endpoint, "SHOW DATABASES", signal, ""));
      if (endpoint.database && !databases.includes(endpoint.database)) {
        throw new Error(
          `InfluxDB: database not found: ${endpoint.database} (or this account may not read it)`,
        );
      }
    });
  },

  getSchema,
  listDatabases,

  async listTables(options, database, ctx) {
    return catalog(
      options,
      ctx,
      `the measurements of database "${database}" (SHOW MEASUREMENTS)`,
      async (endpoint, signal) =>
        firstColumn(await influxQuery(endpoint, "SHOW MEASUREMENTS", signal, database)),
    );
  },

  async listColumns(options, database, table, ctx) {
    return catalog(
      options,
      ctx,
      `the keys of measurement "${database}.${table}" (SHOW FIELD KEYS, SHOW TAG KEYS)`,
      async (endpoint, signal) => {
        const keys = await measurementKeys(endpoint, [table], signal, database);
        return schemaColumns(keys.get(table)!);
      },
    );
  },
};
