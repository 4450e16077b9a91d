import type { OutboundClient } from "../outbound/client";

/** Redash's column types. */
export type ColumnType = "integer" | "float" | "boolean" | "string" | "datetime" | "date" | null;

export interface ResultColumn {
  name: string;
  friendly_name: string;
  type: ColumnType;
}

/** A result cell: JSON-safe scalars only. */
export type Cell = string | number | boolean | null;

/** Some rows as Redash's row-object JSON, comma-separated (`{"a":1},{"a":2}`), and how many. */
export interface JsonText {
  text: string;
  rows: number;
}

/**
 * Rows the database already wrote as Redash's row-object JSON, keyed by the result's column
 * names and holding the values the cells would hold (DuckDB, see runners/duckdbJson.ts).
 */
export class JsonRows {
  /** The number of rows. */
  readonly length: number;

  constructor(readonly texts: JsonText[]) {
    let rows = 0;
    for (const text of texts) rows += text.rows;
    this.length = rows;
  }

  /** The first `count` rows. */
  slice(count: number): JsonRows {
    const kept: JsonText[] = [];
    let rows = 0;
    for (const text of this.texts) {
      if (rows + text.rows <= count) {
        kept.push(text);
        rows += text.rows;
        continue;
      }
      // The cut falls inside a group of rows: only then is the text parsed, to split it.
      const objects = (JSON.parse(`[${text.text}]`) as unknown[]).slice(0, count - rows);
      if (objects.length > 0) {
        kept.push({ text: JSON.stringify(objects).slice(1, -1), rows: objects.length });
      }
      break;
    }
    return new JsonRows(kept);
  }
}

/** Rows in column order, or the same rows as JSON text. */
export type RowBatch = Cell[][] | JsonRows;

export interface QueryRun {
  columns: ResultColumn[];
  /** Rows in batches, so a big result is streamed and never held whole. */
  batches: AsyncIterable<RowBatch>;
}

/** A run whose batches are always cells (what schema listings and tests read). */
export interface CellRun extends QueryRun {
  batches: AsyncIterable<Cell[][]>;
}

export interface RunContext {
  /** Abort = cancel: the runner stops the query in the database. */
  signal: AbortSignal;
  /** Per-data-source query timeout. */
  timeoutMs: number | null;
  /** The operator's allowed folder for SQLite/DuckDB files (null = file sources disabled). */
  fileDataDir: string | null;
  /** Sightline's own files (metadata database, data folder): never openable. */
  forbiddenPaths: string[];
  /** Sightline's own PostgreSQL metadata database (null on SQLite metadata): never reachable. */
  metadataDatabaseUrl: string | null;
  /** Sightline's own Redis (its queue, scaled mode; else null): never reachable as a data source. */
  queueRedisUrl?: string | null;
  /** A folder of Sightline's own where runners keep downloads (files by URL); null: a temp folder. */
  cacheDir?: string | null;
  /**
   * The data source's own folder of uploaded files (the `uploads` type; runs and schema reads of
   * one data source); null or absent where no data source is at hand (checks before saving).
   */
  uploadsDir?: string | null;
  /** The guarded HTTP client (JSON runner). */
  outbound: OutboundClient;
  /** The stored results the run's principal may read (the Query Results runner's input). */
  results?: ReadableResults;
}

/** A stored query result a run may read: its columns, and its rows chunk by chunk. */
export interface ReadableResult {
  columns: ResultColumn[];
  rows(): AsyncIterable<Cell[][]>;
}

/**
 * The stored query results one principal may read, handed to the runners that read them (Query
 * Results); the execution layer implements it over the metadata store and its policies.
 */
export interface ReadableResults {
  /**
   * The latest result of each query (null: none stored yet). Throws ResultRefusedError when a
   * query is missing or its result may not be read, including what that result was made from.
   */
  latest(queryIds: number[]): Promise<Map<number, ReadableResult | null>>;
}

/** A stored result the principal may not read; the message is for the user. */
export class ResultRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ResultRefusedError";
  }
}

/** Who a job runs for: a user (scheduled runs: the query's owner) or an API key. */
export interface RunPrincipal {
  orgId: number;
  /** The user, or null for a query or dashboard API key. */
  userId: number | null;
  groupIds: number[];
  isAdmin: boolean;
  /** A query or dashboard share key; null for users (also users calling with their own key). */
  apiKey: { key: string; object: { type: "queries" | "dashboards"; id: number } } | null;
}

/** One property of a configuration form (Redash's JSON-schema subset). */
export interface ConfigurationProperty {
  type: "string" | "number" | "boolean" | "object" | "array";
  title?: string;
  default?: string | number | boolean;
  enum?: (string | number)[];
  extendedEnum?: { value: string | number; name: string }[];
}

export interface ConfigurationSchema {
  type: "object";
  properties: Record<string, ConfigurationProperty>;
  required?: string[];
  order?: string[];
  secret?: string[];
  extra_options?: string[];
}

export type DataSourceOptions = Record<string, unknown>;

export interface SchemaColumn {
  name: string;
  type: string | null;
}

export interface SchemaTable {
  name: string;
  columns: SchemaColumn[];
}

export interface Runner {
  /** Redash identifier: "sqlite", "duckdb", "pg", "mysql", "json". */
  type: string;
  /** Display name, e.g. "PostgreSQL". */
  name: string;
  /**
   * Editor mode hint (Redash: "sql"; the JSON runner says "yaml"; "text" for languages the SQL
   * formatter would break, such as PromQL and Redis commands: the editor offers no Format).
   */
  syntax: "sql" | "json" | "yaml" | "text";
  supportsAutoLimit: boolean;
  /**
   * False when the query language has no comments to put Redash's annotation in (Redash's
   * should_annotate_query): the text runs as written.
   */
  annotateQuery?: boolean;
  configurationSchema: ConfigurationSchema;
  /**
   * Checks what can be checked without connecting (create, save, test): throws an Error saying
   * why the options reach something no data source may reach.
   */
  checkOptions?(options: DataSourceOptions, ctx: RunContext): Promise<void>;
  /**
   * File-based types: the files and folders the data source opens, resolved and checked against
   * the allowed folder (throws an Error naming it when they are not inside it or not there).
   */
  ownFiles?(options: DataSourceOptions, ctx: RunContext): OwnFiles;
  run(options: DataSourceOptions, query: string, ctx: RunContext): Promise<QueryRun>;
  /**
   * Types whose query text names addresses the server fetches through the outbound guard (JSON,
   * files by URL): those absolute http(s) addresses, so a save can refuse what a run would
   * (SECURITY.md rule 12). Text that does not parse names none: saving unfinished text is
   * allowed, and its run says what is wrong.
   */
  outboundUrls?(query: string): string[];
  /** Throws an Error carrying the database's message when the connection does not work. */
  test(options: DataSourceOptions, ctx: RunContext): Promise<void>;
  /** Throws SchemaNotSupportedError when the type has no schema. */
  getSchema(options: DataSourceOptions, ctx: RunContext): Promise<SchemaTable[]>;
  /**
   * Checked before a cached result or a running identical job is handed out (SECURITY.md rule 5):
   * the reason the principal may not run `query`, or null. Only runners whose answer depends on
   * who runs them (Query Results) have it.
   */
  authorize?(query: string, results: ReadableResults): Promise<string | null>;
  /** Lazy schema for sources with several databases/schemas. */
  listDatabases?(options: DataSourceOptions, ctx: RunContext): Promise<string[]>;
  listTables?(options: DataSourceOptions, database: string, ctx: RunContext): Promise<string[]>;
  listColumns?(
    options: DataSourceOptions,
    database: string,
    table: string,
    ctx: RunContext,
  ): Promise<SchemaColumn[]>;
}

/** A file-based data source's own files: its database file and its files folder, resolved. */
export interface OwnFiles {
  files: string[];
  folders: string[];
}

/** The options point at something no data source may reach (the metadata database...). */
export class DataSourceRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DataSourceRefusedError";
  }
}

/** The user (or a job cancel) stopped the query. */
export class QueryCancelledError extends Error {
  constructor() {
    super("Query cancelled by user.");
    this.name = "QueryCancelledError";
  }
}

/** The data source's time limit was reached; the query was stopped. */
export class QueryTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`Query exceeded the time limit of ${formatSeconds(timeoutMs)} and was stopped.`);
    this.name = "QueryTimeoutError";
  }
}

/** Redash's job error code 1: the type cannot list a schema. */
export class SchemaNotSupportedError extends Error {
  constructor() {
    super("Data source type does not support retrieving schema");
    this.name = "SchemaNotSupportedError";
  }
}

function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} second${seconds === 1 ? "" : "s"}`;
}
