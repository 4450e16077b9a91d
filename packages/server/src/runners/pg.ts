import { connect as netConnect } from "node:net";
import pg from "pg";
import Cursor from "pg-cursor";
import { BatchChannel } from "./batchChannel";
import {
  assertNoNeighbourReachAtSave,
  assertNotMetadataAddress,
  assertSafeSession,
} from "./pgSafety";
import { endStatementsOfLostClients } from "./pgLostClient";
import { watchQuery } from "./queryWatch";
import type {
  Cell,
  ColumnType,
  DataSourceOptions,
  QueryRun,
  RunContext,
  Runner,
  SchemaTable,
} from "./types";
import { schemaTables } from "./schemaTables";
import { withinCatalogTime } from "./serverHttp";
import { buildColumns, decimalCell, isoTime, isoTimestamp, toCell } from "./values";

const BATCH_SIZE = 5000;
const MULTI_STATEMENT_ERROR = "cannot insert multiple commands into a prepared statement";

/** PostgreSQL type OIDs → Redash column types. */
const COLUMN_TYPES: Record<number, ColumnType> = {
  16: "boolean",
  20: "integer",
  21: "integer",
  23: "integer",
  26: "integer",
  700: "float",
  701: "float",
  1700: "float",
  1082: "date",
  1114: "datetime",
  1184: "datetime",
};

export function pgColumnType(oid: number): ColumnType {
  return COLUMN_TYPES[oid] ?? "string";
}

/** Text from the server → JSON-safe cell. Unlisted types (json, arrays, intervals…) stay text. */
const identity = (text: string) => text;
const parsers: Record<number, (text: string) => Cell> = {
  16: (t) => t === "t",
  20: int8Cell,
  21: Number,
  23: Number,
  26: Number,
  700: (t) => decimalOrNull(t),
  701: (t) => decimalOrNull(t),
  1700: (t) => decimalCell(t),
  1083: isoTime,
  1114: isoTimestamp,
  1184: isoTimestamp,
  17: (t) => toCell(pg.types.getTypeParser(17, "text")(t)),
};

/** int8 text → number while exactly representable, else the text (PostgreSQL's own digits). */
function int8Cell(text: string): Cell {
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : text;
}

function decimalOrNull(text: string): Cell {
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

const TYPES = {
  getTypeParser: (oid: number) => parsers[oid] ?? identity,
} as unknown as pg.CustomTypesConfig;

function fileOption(options: DataSourceOptions, key: string): Buffer | undefined {
  const value = options[key];
  return typeof value === "string" && value ? Buffer.from(value, "base64") : undefined;
}

/** libpq's sslmode → node-postgres' ssl setting ("prefer"/"allow" connect without TLS). */
function sslConfig(options: DataSourceOptions): pg.ClientConfig["ssl"] {
  const mode = typeof options.sslmode === "string" ? options.sslmode : "prefer";
  if (mode === "disable" || mode === "allow" || mode === "prefer") return false;
  const tls = {
    ca: fileOption(options, "sslrootcertFile"),
    cert: fileOption(options, "sslcertFile"),
    key: fileOption(options, "sslkeyFile"),
  };
  if (mode === "require") return { ...tls, rejectUnauthorized: false };
  if (mode === "verify-ca")
    return { ...tls, rejectUnauthorized: true, checkServerIdentity: () => undefined };
  return { ...tls, rejectUnauthorized: true };
}

function clientConfig(options: DataSourceOptions, timeoutMs: number | null): pg.ClientConfig {
  return {
    host: typeof options.host === "string" && options.host ? options.host : "127.0.0.1",
    port: Number(options.port ?? 5432) || 5432,
    user: typeof options.user === "string" ? options.user : undefined,
    password: typeof options.password === "string" ? options.password : undefined,
    database: typeof options.dbname === "string" ? options.dbname : undefined,
    ssl: sslConfig(options),
    application_name: "Sightline",
    connectionTimeoutMillis: 30_000,
    // A backstop: Sightline cancels at the limit itself, the server stops a little later.
    statement_timeout: timeoutMs && timeoutMs > 0 ? timeoutMs + 2000 : undefined,
  };
}

/** Sends PostgreSQL's cancel request for the query running on `client`'s backend. */
function sendCancel(config: pg.ClientConfig, client: pg.Client): void {
  const { processID, secretKey } = client as unknown as {
    processID: number | null;
    secretKey: number | null;
  };
  if (processID === null || secretKey === null) return;
  const packet = Buffer.alloc(16);
  packet.writeInt32BE(16, 0);
  packet.writeInt32BE(80877102, 4);
  packet.writeInt32BE(processID, 8);
  packet.writeInt32BE(secretKey, 12);
  const socket = netConnect({ host: String(config.host), port: Number(config.port) }, () =>
    socket.end(packet),
  );
  socket.on("error", () => socket.destroy());
  socket.setTimeout(5000, () => socket.destroy());
}

function readCursor(cursor: Cursor<Cell[]>, count: number) {
  return new Promise<{ rows: Cell[][]; fields: pg.FieldDef[] }>((resolve, reject) => {
    cursor.read(count, (error, rows, result) =>
      error ? reject(error) : resolve({ rows, fields: result.fields ?? [] }),
    );
  });
}

function columnsOf(fields: pg.FieldDef[]) {
  return buildColumns(fields.map((f) => ({ name: f.name, type: pgColumnType(f.dataTypeID) })));
}

async function runQuery(
  options: DataSourceOptions,
  query: string,
  ctx: RunContext,
): Promise<QueryRun> {
  const readOnly = options.read_only === true;
  const watch = watchQuery(ctx);
  const config = clientConfig(options, ctx.timeoutMs);
  const client = new pg.Client(config);
  client.on("error", () => undefined);
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    watch.dispose();
    void client.end().catch(() => undefined);
  };
  watch.signal.addEventListener(
    "abort",
    () => {
      sendCancel(config, client);
      // A query still connecting has nothing to cancel; ending the client stops it.
      if (!(client as unknown as { processID: number | null }).processID) close();
    },
    { once: true },
  );

  try {
    await client.connect();
    await assertSafeSession(client, { metadataDatabaseUrl: ctx.metadataDatabaseUrl, readOnly });
    await endStatementsOfLostClients(client);
    if (watch.signal.aborted) throw watch.signal.reason;
    if (readOnly) {
      // The first query takes the snapshot, after which the transaction can no longer be
      // switched to read-write; the single-statement protocol below prevents a COMMIT escape.
      await client.query("BEGIN TRANSACTION READ ONLY");
      await client.query("SELECT 1");
    }
    const cursor = client.query(
      new Cursor<Cell[]>(query, undefined, { rowMode: "array", types: TYPES }),
    );
    let first: { rows: Cell[][]; fields: pg.FieldDef[] };
    try {
      first = await readCursor(cursor, BATCH_SIZE);
    } catch (error) {
      if (!readOnly && (error as Error).message === MULTI_STATEMENT_ERROR) {
        return await runMultiStatement(client, query, close);
      }
      throw error;
    }
    if (first.fields.length === 0) throw new Error("Query completed but it returned no data.");

    const channel = new BatchChannel(close);
    // Stops a producer waiting for a consumer that has gone quiet.
    watch.signal.addEventListener("abort", () => channel.fail(watch.signal.reason as Error), {
      once: true,
    });
    void (async () => {
      try {
        let rows = first.rows;
        for (;;) {
          if (rows.length > 0 && !(await channel.push(rows))) return;
          if (rows.length < BATCH_SIZE) break;
          rows = (await readCursor(cursor, BATCH_SIZE)).rows;
        }
        channel.end();
      } catch (error) {
        channel.fail(watch.explain(error));
      } finally {
        close();
      }
    })();
    return { columns: columnsOf(first.fields), batches: channel };
  } catch (error) {
    const explained = watch.explain(error);
    close();
    throw explained;
  }
}

/**
 * Several statements need the simple protocol, which cannot stream: the last result that has
 * columns is returned (as Redash does), held in memory.
 */
async function runMultiStatement(
  client: pg.Client,
  query: string,
  close: () => void,
): Promise<QueryRun> {
  try {
    const raw = (await client.query({ text: query, rowMode: "array", types: TYPES })) as unknown;
    const results = (Array.isArray(raw) ? raw : [raw]) as pg.QueryResult<Cell[]>[];
    const last = [...results].reverse().find((r) => r.fields && r.fields.length > 0);
    if (!last) throw new Error("Query completed but it returned no data.");
    const rows = last.rows;
    async function* batches() {
      for (let i = 0; i < rows.length; i += BATCH_SIZE) yield rows.slice(i, i + BATCH_SIZE);
    }
    return { columns: columnsOf(last.fields), batches: batches() };
  } finally {
    close();
  }
}

/** Runs a catalog query with parameters and returns its rows. */
export async function catalogRows(
  options: DataSourceOptions,
  sql: string,
  params: unknown[],
  ctx: RunContext,
  what = "the catalog",
): Promise<Cell[][]> {
  const config = clientConfig(options, ctx.timeoutMs);
  const server = `PostgreSQL at ${config.host}:${config.port}`;
  return withinCatalogTime(ctx, what, server, async (signal) => {
    const client = new pg.Client(config);
    client.on("error", () => undefined);
    const onAbort = () => void client.end().catch(() => undefined);
    signal.addEventListener("abort", onAbort, { once: true });
    try {
      await client.connect();
      await assertSafeSession(client, {
        metadataDatabaseUrl: ctx.metadataDatabaseUrl,
        readOnly: options.read_only === true,
      });
      const result = await client.query<Cell[]>({
        text: sql,
        values: params,
        rowMode: "array",
        types: TYPES,
      });
      return result.rows;
    } catch (error) {
      // Closed on a timeout or cancel: say that, not "Connection terminated".
      if (signal.aborted) throw signal.reason;
      throw error;
    } finally {
      signal.removeEventListener("abort", onAbort);
      await client.end().catch(() => undefined);
    }
  });
}

const USER_SCHEMAS = `n.nspname NOT IN ('pg_catalog', 'information_schema')
  AND n.nspname NOT LIKE 'pg_toast%' AND n.nspname NOT LIKE 'pg_temp%'`;
const RELATION_KINDS = `c.relkind IN ('r', 'v', 'm', 'f', 'p')`;

function qualified(schema: string, table: string): string {
  return `${schema}.${table.includes(".") ? `"${table}"` : table}`;
}

export const pgRunner: Runner = {
  type: "pg",
  name: "PostgreSQL",
  syntax: "sql",
  supportsAutoLimit: true,
  configurationSchema: {
    type: "object",
    properties: {
      user: { type: "string" },
      password: { type: "string" },
      host: { type: "string", default: "127.0.0.1" },
      port: { type: "number", default: 5432 },
      dbname: { type: "string", title: "Database Name" },
      sslmode: {
        type: "string",
        title: "SSL Mode",
        default: "prefer",
        extendedEnum: [
          { value: "disable", name: "Disable" },
          { value: "allow", name: "Allow" },
          { value: "prefer", name: "Prefer" },
          { value: "require", name: "Require" },
          { value: "verify-ca", name: "Verify CA" },
          { value: "verify-full", name: "Verify Full" },
        ],
      },
      sslrootcertFile: { type: "string", title: "SSL Root Certificate" },
      sslcertFile: { type: "string", title: "SSL Client Certificate" },
      sslkeyFile: { type: "string", title: "SSL Client Key" },
      read_only: {
        type: "boolean",
        title: "Read only (enforced by the database; needs an account that is not a superuser)",
        default: false,
      },
    },
    order: ["host", "port", "user", "password", "dbname", "read_only"],
    required: ["dbname"],
    secret: ["password", "sslrootcertFile", "sslcertFile", "sslkeyFile"],
    extra_options: ["sslmode", "sslrootcertFile", "sslcertFile", "sslkeyFile"],
  },

  async checkOptions(options, ctx) {
    await assertNotMetadataAddress(clientConfig(options, null), ctx.metadataDatabaseUrl);
    await assertNoNeighbourReachAtSave(clientConfig(options, null), ctx.metadataDatabaseUrl);
  },

  run: runQuery,

  async test(options, ctx) {
    await catalogRows(options, "SELECT 1", [], ctx, "the answer to SELECT 1");
  },

  async getSchema(options, ctx): Promise<SchemaTable[]> {
    const rows = await catalogRows(
      options,
      `SELECT n.nspname, c.relname, a.attname, format_type(a.atttypid, a.atttypmod)
       FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
       WHERE ${RELATION_KINDS} AND ${USER_SCHEMAS}
       ORDER BY n.nspname, c.relname, a.attnum`,
      [],
      ctx,
      "the tables and columns (pg_attribute)",
    );
    const fullNames = new Set(
      rows.map(([schema, table]) => qualified(String(schema), String(table))),
    );
    return schemaTables(
      rows.map(([schema, table, column, type]) => {
        const full = qualified(String(schema), String(table));
        // Redash omits "public." unless that would clash with a table of another schema.
        const name = schema === "public" && !fullNames.has(String(table)) ? String(table) : full;
        return [name, column, type];
      }),
    );
  },

  async listDatabases(options, ctx) {
    const rows = await catalogRows(
      options,
      `SELECT n.nspname FROM pg_namespace n WHERE ${USER_SCHEMAS} ORDER BY 1`,
      [],
      ctx,
      "the schemas (pg_namespace)",
    );
    return rows.map(([schema]) => String(schema));
  },

  async listTables(options, schema, ctx) {
    const rows = await catalogRows(
      options,
      `SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE ${RELATION_KINDS} AND n.nspname = $1 ORDER BY 1`,
      [schema],
      ctx,
      `the tables of schema "${schema}" (pg_class)`,
    );
    return rows.map(([table]) => String(table));
  },

  async listColumns(options, schema, table, ctx) {
    const rows = await catalogRows(
      options,
      `SELECT a.attname, format_type(a.atttypid, a.atttypmod)
       FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = $1 AND c.relname = $2 AND a.attnum > 0 AND NOT a.attisdropped
       ORDER BY a.attnum`,
      [schema, table],
      ctx,
      `the columns of "${schema}.${table}" (pg_attribute)`,
    );
    return rows.map(([name, type]) => ({
      name: String(name),
      type: type === null ? null : String(type),
    }));
  },
};
