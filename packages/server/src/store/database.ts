import SQLite from "./sqliteDriver.mjs";
import path from "node:path";
import pg from "pg";
import { Kysely, SqliteDialect, sql, type LogEvent } from "kysely";
import { MetadataPostgresDialect } from "./outage";
import type { DB } from "./schema";
import { checkpointInBackground } from "./walCheckpoints";
import { ensurePrivateFile, ensurePrivateFolder } from "../dataFolder";

export type Dialect = "sqlite" | "postgres";

export interface Database {
  db: Kysely<DB>;
  dialect: Dialect;
  /** PostgreSQL schema holding the tables, when not the default search path. */
  schema?: string;
  close(): Promise<void>;
}

// pg returns BIGINT/NUMERIC as strings; counts and sums in this store fit in a double.
pg.types.setTypeParser(20, (v) => Number(v));

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/** Prepared statements kept per SQL text; Kysely's statements are few and repeat. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * better-sqlite3 refuses JS booleans as bound parameters. Wrapping `prepare` lets the rest of the
 * store pass booleans on both dialects; boolean columns read back as 0/1 and are converted by the
 * repositories. The wrapper also reuses prepared statements (Kysely prepares every query anew,
 * which was ~10 % of the server's CPU on small requests); a statement still iterating is busy,
 * so a fresh one is prepared for that moment.
 */
export function sqliteWithBooleans(database: SQLite.Database): SQLite.Database {
  const one = (p: unknown) => (p === true ? 1 : p === false ? 0 : p);
  // Kysely passes the parameters as one array argument.
  const convert = (args: unknown[]) => args.map((a) => (Array.isArray(a) ? a.map(one) : one(a)));
  const prepare = database.prepare.bind(database);
  const wrapped = (source: string) => {
    const statement = prepare(source);
    for (const method of ["all", "get", "run", "iterate"] as const) {
      const original = statement[method].bind(statement) as (...a: unknown[]) => unknown;
      (statement as unknown as Record<string, unknown>)[method] = (...args: unknown[]) =>
        original(...convert(args));
    }
    return statement;
  };
  const cache = new Map<string, SQLite.Statement>();
  database.prepare = ((source: string) => {
    const cached = cache.get(source);
    if (cached && !cached.busy) {
      // Most recently used last, so the oldest is evicted first.
      cache.delete(source);
      cache.set(source, cached);
      return cached;
    }
    const statement = wrapped(source);
    if (!cached) {
      cache.set(source, statement);
      if (cache.size > STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
    }
    return statement;
  }) as typeof database.prepare;
  return database;
}

export interface OpenOptions {
  /** PostgreSQL only: put every table in this schema (created if missing). Used by tests. */
  pgSchema?: string;
  /** Called with every statement's SQL (tests count the statements a request needs). */
  onQuery?: (sql: string) => void;
  /**
   * PostgreSQL only: a pooled connection failed outside any statement (the server restarted, a
   * proxy closed it). The pool drops it and opens a new one when next needed; this only reports.
   */
  onConnectionError?: (error: Error) => void;
}

/** Kysely's `log` option for `onQuery`, or nothing. */
function queryLog(options: OpenOptions) {
  const onQuery = options.onQuery;
  if (!onQuery) return {};
  return {
    log: (event: LogEvent) => {
      if (event.level === "query") onQuery(event.query.sql);
    },
  };
}

/**
 * Reports lost metadata connections: the message and code only (never the connection string),
 * and each distinct message at most once a minute, as all of a pool's connections fail together.
 */
export function metadataConnectionLog(log: {
  warn: (details: object, message: string) => void;
}): (error: Error) => void {
  const lastReported = new Map<string, number>();
  return (error) => {
    const at = lastReported.get(error.message) ?? 0;
    if (Date.now() - at < 60_000) return;
    if (lastReported.size > 100) lastReported.clear();
    lastReported.set(error.message, Date.now());
    const code = (error as { code?: unknown }).code;
    log.warn(
      { err: error.message, ...(typeof code === "string" ? { code } : {}) },
      "metadata database connection lost; reconnecting when next needed",
    );
  };
}

/** Opens the metadata store: a SQLite file path or a postgres:// URL. */
export async function openDatabase(url: string, options: OpenOptions = {}): Promise<Database> {
  if (isPostgresUrl(url)) {
    const schema = options.pgSchema;
    if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema)) {
      throw new Error(`invalid schema name ${schema}`);
    }
    if (schema) {
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      await admin.end();
    }
    const pool = new pg.Pool({
      connectionString: url,
      max: 10,
      // A request waits at most this long for a connection while the server cannot be reached.
      connectionTimeoutMillis: 10_000,
      // Connections a firewall or a failover dropped silently are noticed.
      keepAlive: true,
      ...(schema ? { options: `-c search_path=${schema}` } : {}),
    });
    // Without these listeners a connection lost between statements is an "Unhandled 'error'
    // event" that ends the process. Idle connections report through the pool, connections in
    // use through themselves (their running statement fails on its own too).
    const report = options.onConnectionError ?? (() => undefined);
    pool.on("error", (error) => report(error));
    pool.on("connect", (client) => client.on("error", (error) => report(error)));
    // Fail fast with a clear error when the server is unreachable.
    const client = await pool.connect();
    client.release();
    const db = new Kysely<DB>({
      dialect: new MetadataPostgresDialect({ pool }, schema),
      ...queryLog(options),
    });
    return { db, dialect: "postgres", schema, close: () => db.destroy() };
  }
  ensurePrivateFolder(path.dirname(path.resolve(url)));
  // Created owner-only before SQLite opens it; SQLite gives its -wal and -shm files the same mode.
  ensurePrivateFile(path.resolve(url));
  const file = sqliteWithBooleans(new SQLite(url));
  const journal = file.pragma("journal_mode = WAL", { simple: true });
  // In WAL mode NORMAL syncs at checkpoints, not at every commit: still safe from corruption, and
  // a power cut loses at most the last commits (each result and event write was a disk flush).
  file.pragma("synchronous = NORMAL");
  file.pragma("foreign_keys = ON");
  file.pragma("busy_timeout = 5000");
  // The checkpoints (and their disk syncs) leave the main thread.
  const stopCheckpoints =
    journal === "wal" ? await checkpointInBackground(file, path.resolve(url)) : async () => {};
  const db = new Kysely<DB>({
    dialect: new SqliteDialect({ database: file }),
    ...queryLog(options),
  });
  const close = async () => {
    await stopCheckpoints();
    await db.destroy();
  };
  return { db, dialect: "sqlite", close };
}

/** Drops a test schema (PostgreSQL). */
export async function dropPgSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await client.end();
}

export { sql };
