import { readFileSync } from "node:fs";
import mysql from "mysql2";
import { BatchChannel } from "./batchChannel";
import { assertReadOnlyAccount } from "./mysqlSafety";
import { watchQuery } from "./queryWatch";
import {
  DataSourceRefusedError,
  type Cell,
  type ColumnType,
  type DataSourceOptions,
  type QueryRun,
  type RunContext,
  type Runner,
} from "./types";
import { schemaTables } from "./schemaTables";
import { withinCatalogTime } from "./serverHttp";
import { bigintCell, buildColumns, decimalCell, isoTimestamp, toCell } from "./values";

const BATCH_SIZE = 5000;
const SYSTEM_DATABASES = ["information_schema", "performance_schema", "mysql", "sys"];

/** MySQL protocol column types → Redash column types. */
const COLUMN_TYPES: Record<number, ColumnType> = {
  0: "float",
  1: "integer",
  2: "integer",
  3: "integer",
  4: "float",
  5: "float",
  7: "datetime",
  8: "integer",
  9: "integer",
  10: "date",
  12: "datetime",
  13: "integer",
  15: "string",
  16: "integer",
  246: "float",
  253: "string",
  254: "string",
};

export function mysqlColumnType(code: number | undefined): ColumnType {
  return code === undefined ? null : (COLUMN_TYPES[code] ?? "string");
}

function mysqlCell(value: unknown, code: number | undefined, type: ColumnType): Cell {
  if (typeof value === "string") {
    if (code === 0 || code === 246) return decimalCell(value);
    if (type === "integer" && /^-?\d+$/.test(value)) return bigintCell(BigInt(value));
    if (type === "datetime") return isoTimestamp(value);
  }
  return toCell(value, type);
}

function text(options: DataSourceOptions, key: string): string | undefined {
  const value = options[key];
  return typeof value === "string" && value !== "" ? value : undefined;
}

function connectionOptions(options: DataSourceOptions): mysql.ConnectionOptions {
  const seconds = (key: string, fallback?: number) => {
    const value = Number(options[key] ?? fallback);
    return Number.isFinite(value) && value > 0 ? value * 1000 : undefined;
  };
  let ssl: mysql.SslOptions | undefined;
  if (options.use_ssl === true && text(options, "ssl_mode") !== "disabled") {
    const file = (key: string) =>
      text(options, key) ? readFileSync(text(options, key)!) : undefined;
    const verify = ["verify-ca", "verify-identity"].includes(text(options, "ssl_mode") ?? "");
    ssl = {
      ca: file("ssl_cacert"),
      cert: file("ssl_cert"),
      key: file("ssl_key"),
      rejectUnauthorized: verify,
    };
  }
  return {
    host: text(options, "host") ?? "127.0.0.1",
    port: Number(options.port ?? 3306) || 3306,
    user: text(options, "user"),
    password: text(options, "passwd"),
    database: text(options, "db"),
    charset: text(options, "charset") ?? "utf8mb4",
    connectTimeout: seconds("connect_timeout", 60),
    ssl,
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: true,
    decimalNumbers: false,
    // One statement per run: a read-only transaction cannot be committed and left.
    multipleStatements: false,
  };
}

function connect(options: DataSourceOptions): Promise<mysql.Connection> {
  return new Promise((resolve, reject) => {
    const connection = mysql.createConnection(connectionOptions(options));
    // A connection lost with no statement waiting (a server restart while a result is paused)
    // would otherwise be an unhandled 'error' event that ends the process; the statements in
    // flight get the error themselves.
    connection.on("error", () => undefined);
    connection.connect((error) => (error ? reject(error) : resolve(connection)));
  });
}

/** The server's own limit runs this long after Sightline's, which stops the statement first. */
const SERVER_LIMIT_GRACE_MS = 2000;

/**
 * Gives the session a time limit the server enforces itself, so a statement ends even when the
 * process that ran it is gone (a worker killed mid-query). MariaDB limits every statement
 * (max_statement_time, seconds); MySQL 5.7+ limits SELECTs (max_execution_time, ms). A server
 * with neither keeps Sightline's own limit only.
 */
async function limitStatementTime(
  connection: mysql.Connection,
  timeoutMs: number | null,
): Promise<void> {
  if (!timeoutMs || timeoutMs <= 0) return;
  const limitMs = Math.ceil(timeoutMs) + SERVER_LIMIT_GRACE_MS;
  try {
    await exec(connection, "SET SESSION max_statement_time = ?", [limitMs / 1000]);
  } catch {
    await exec(connection, "SET SESSION max_execution_time = ?", [limitMs]).catch(() => undefined);
  }
}

function exec(
  connection: mysql.Connection,
  sql: string,
  values: unknown[] = [],
): Promise<Cell[][]> {
  return new Promise((resolve, reject) => {
    connection.query({ sql, values, rowsAsArray: true }, (error, rows) =>
      error ? reject(error) : resolve(Array.isArray(rows) ? (rows as Cell[][]) : []),
    );
  });
}

/** Stops the running statement from a second connection, as the MySQL client does. */
async function killQuery(options: DataSourceOptions, threadId: number): Promise<void> {
  let killer: mysql.Connection | null = null;
  try {
    killer = await connect(options);
    await exec(killer, `KILL QUERY ${Number(threadId)}`);
  } catch {
    // The statement may already be over.
  } finally {
    killer?.destroy();
  }
}

function mysqlError(error: unknown): Error {
  const e = error as { sqlMessage?: string; message?: string };
  return new Error(e.sqlMessage ?? e.message ?? String(error));
}

async function runQuery(
  options: DataSourceOptions,
  query: string,
  ctx: RunContext,
): Promise<QueryRun> {
  const watch = watchQuery(ctx);
  let connection: mysql.Connection | null = null;
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    watch.dispose();
    connection?.destroy();
  };
  let killed: Promise<void> | null = null;
  const kill = () => {
    if (connection && !killed) killed = killQuery(options, connection.threadId);
  };
  watch.signal.addEventListener("abort", kill, { once: true });

  try {
    connection = await connect(options);
    if (watch.signal.aborted) throw watch.signal.reason;
    await limitStatementTime(connection, ctx.timeoutMs);
    if (options.read_only === true) {
      const session = connection;
      await assertReadOnlyAccount((sql) => exec(session, sql));
      await exec(connection, "SET SESSION TRANSACTION READ ONLY");
      await exec(connection, "START TRANSACTION READ ONLY");
    }
  } catch (error) {
    close();
    throw watch.explain(error instanceof DataSourceRefusedError ? error : mysqlError(error));
  }
  const conn = connection;

  return new Promise<QueryRun>((resolve, reject) => {
    const channel = new BatchChannel(() => {
      kill();
      void (killed ?? Promise.resolve()).then(close);
    });
    let started = false;
    let codes: (number | undefined)[] = [];
    let types: ColumnType[] = [];
    let pending: Cell[][] = [];
    const fail = (error: Error) => {
      const explained = watch.explain(error);
      if (started) channel.fail(explained);
      else reject(explained);
      void (killed ?? Promise.resolve()).then(close);
    };

    watch.signal.addEventListener("abort", () => channel.fail(watch.signal.reason as Error), {
      once: true,
    });
    const q = conn.query({ sql: query, rowsAsArray: true });
    q.on("fields", (fields: mysql.FieldPacket[]) => {
      codes = fields.map((f) => f.columnType ?? f.type);
      types = codes.map(mysqlColumnType);
      started = true;
      resolve({
        columns: buildColumns(fields.map((f, i) => ({ name: f.name, type: types[i] }))),
        batches: channel,
      });
    });
    q.on("result", (row: unknown) => {
      if (!started) return; // an OK packet from a statement without rows
      const values = row as unknown[];
      pending.push(values.map((v, i) => mysqlCell(v, codes[i], types[i])));
      if (pending.length >= BATCH_SIZE) {
        const batch = pending;
        pending = [];
        conn.pause();
        void channel.push(batch).then((more) => {
          if (more) conn.resume();
          else void (killed ?? Promise.resolve()).then(close);
        });
      }
    });
    q.on("error", (error: Error) => fail(mysqlError(error)));
    q.on("end", () => {
      // A killed SLEEP() ends normally, so a stopped query is recognised by its signal.
      if (watch.signal.aborted) return fail(watch.signal.reason as Error);
      if (!started) {
        close();
        reject(watch.explain(new Error("No data was returned.")));
        return;
      }
      void channel.push(pending).then(() => {
        channel.end();
        close();
      });
    });
  });
}

async function catalogRows(
  options: DataSourceOptions,
  ctx: Pick<RunContext, "signal" | "timeoutMs">,
  what: string,
  sql: string,
  values: unknown[] = [],
): Promise<Cell[][]> {
  const { host, port } = connectionOptions(options);
  return withinCatalogTime(ctx, what, `the MySQL server at ${host}:${port}`, async (signal) => {
    const connection = mysql.createConnection(connectionOptions(options));
    connection.on("error", () => undefined);
    // Closed on a timeout or cancel, while it connects too.
    const onAbort = () => connection.destroy();
    signal.addEventListener("abort", onAbort, { once: true });
    try {
      await new Promise<void>((resolve, reject) =>
        connection.connect((error) => (error ? reject(mysqlError(error)) : resolve())),
      );
      return await exec(connection, sql, values).catch((error) => {
        throw mysqlError(error);
      });
    } finally {
      signal.removeEventListener("abort", onAbort);
      connection.destroy();
    }
  });
}

const USER_DATABASES = `LOWER(table_schema) NOT IN (${SYSTEM_DATABASES.map((d) => `'${d}'`).join(", ")})`;

export const mysqlRunner: Runner = {
  type: "mysql",
  name: "MySQL",
  syntax: "sql",
  supportsAutoLimit: true,
  configurationSchema: {
    type: "object",
    properties: {
      host: { type: "string", default: "127.0.0.1" },
      user: { type: "string" },
      passwd: { type: "string", title: "Password" },
      db: { type: "string", title: "Database name" },
      port: { type: "number", default: 3306 },
      connect_timeout: { type: "number", default: 60, title: "Connection Timeout" },
      charset: { type: "string", default: "utf8mb4" },
      read_only: {
        type: "boolean",
        title:
          "Read only (enforced by the database; needs an account without the FILE or SUPER privilege)",
        default: false,
      },
      ssl_mode: {
        type: "string",
        title: "SSL Mode",
        default: "preferred",
        extendedEnum: [
          { value: "disabled", name: "Disabled" },
          { value: "preferred", name: "Preferred" },
          { value: "required", name: "Required" },
          { value: "verify-ca", name: "Verify CA" },
          { value: "verify-identity", name: "Verify Identity" },
        ],
      },
      use_ssl: { type: "boolean", title: "Use SSL" },
      ssl_cacert: {
        type: "string",
        title: "Path to CA certificate file to verify peer against (SSL)",
      },
      ssl_cert: { type: "string", title: "Path to client certificate file (SSL)" },
      ssl_key: { type: "string", title: "Path to private key file (SSL)" },
    },
    order: ["host", "port", "user", "passwd", "db", "read_only", "connect_timeout", "charset"],
    required: ["db"],
    secret: ["passwd"],
    extra_options: [
      "connect_timeout",
      "charset",
      "ssl_mode",
      "use_ssl",
      "ssl_cacert",
      "ssl_cert",
      "ssl_key",
    ],
  },

  run: runQuery,

  async test(options) {
    const connection = await connect(options).catch((error) => {
      throw mysqlError(error);
    });
    try {
      await exec(connection, "SELECT 1").catch((error) => {
        throw mysqlError(error);
      });
      if (options.read_only === true) await assertReadOnlyAccount((sql) => exec(connection, sql));
    } finally {
      connection.destroy();
    }
  },

  async getSchema(options, ctx) {
    const rows = await catalogRows(
      options,
      ctx,
      "the tables and columns (information_schema.columns)",
      `SELECT table_schema, table_name, column_name, column_type FROM information_schema.columns
       WHERE ${USER_DATABASES} ORDER BY table_schema, table_name, ordinal_position`,
    );
    return schemaTables(
      rows.map(([schema, table, column, type]) => [
        schema === options.db ? String(table) : `${schema}.${table}`,
        column,
        type,
      ]),
    );
  },

  async listDatabases(options, ctx) {
    const rows = await catalogRows(
      options,
      ctx,
      "the databases (information_schema.schemata)",
      `SELECT schema_name FROM information_schema.schemata
       WHERE LOWER(schema_name) NOT IN (${SYSTEM_DATABASES.map((d) => `'${d}'`).join(", ")}) ORDER BY 1`,
    );
    return rows.map(([name]) => String(name));
  },

  async listTables(options, database, ctx) {
    const rows = await catalogRows(
      options,
      ctx,
      `the tables of database \`${database}\` (information_schema.tables)`,
      "SELECT table_name FROM information_schema.tables WHERE table_schema = ? ORDER BY 1",
      [database],
    );
    return rows.map(([name]) => String(name));
  },

  async listColumns(options, database, table, ctx) {
    const rows = await catalogRows(
      options,
      ctx,
      `the columns of \`${database}\`.\`${table}\` (information_schema.columns)`,
      `SELECT column_name, column_type FROM information_schema.columns
       WHERE table_schema = ? AND table_name = ? ORDER BY ordinal_position`,
      [database, table],
    );
    return rows.map(([name, type]) => ({
      name: String(name),
      type: type === null ? null : String(type),
    }));
  },
};
