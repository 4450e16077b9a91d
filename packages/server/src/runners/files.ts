import path from "node:path";
import { DuckDBInstance, type DuckDBConnection } from "@duckdb/node-api";
import { assertReadsOnly } from "./duckdbReadOnly";
import { streamDuckdbResult } from "./duckdbStreams";
import { detectFormat, parseFileQuery, type FileFormat, type FileQuery } from "./fileQuery";
import { sheetCopy } from "./fileSheets";
import { fetchFile, shownUrl } from "./fileUrl";
import { absoluteUrls } from "./outboundUrls";
import { watchQuery } from "./queryWatch";
import {
  SchemaNotSupportedError,
  type ConfigurationSchema,
  type DataSourceOptions,
  type QueryRun,
  type RunContext,
  type Runner,
} from "./types";

/**
 * Files by URL: Redash's `csv` and `excel` types. The query text names a URL (fileQuery.ts); the
 * server fetches it through the guarded outbound client into its cache (fileUrl.ts) and DuckDB
 * reads the cached copy in a fresh in-memory database that may read that one file and nothing
 * else, as the table `file`; the query's optional `query:` is SQL over it (reads only).
 */

const DEFAULT_MAX_MB = 50;
/** A download is held in memory before it is written to the cache: at most this much. */
const LARGEST_MAX_MB = 1024;
const DEFAULT_FETCH_TIMEOUT_MS = 60_000;

function sqlText(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

function sqlList(values: string[]): string {
  return `[${values.map(sqlText).join(", ")}]`;
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** DuckDB's reader call for the file, with the query's reader options. */
export function readerCall(file: string, format: FileFormat, query: FileQuery): string {
  if (format === "parquet") return `read_parquet(${sqlText(file)})`;
  if (format === "json") return `read_json(${sqlText(file)}, format = 'auto')`;
  if (format === "jsonl") return `read_json(${sqlText(file)}, format = 'newline_delimited')`;
  const options: string[] = [`header = ${query.header}`];
  const sep = query.sep ?? (format === "tsv" ? "\t" : undefined);
  if (sep !== undefined && format !== "xlsx") options.push(`delim = ${sqlText(sep)}`);
  if (format === "xlsx") options.push("delim = ','", "quote = '\"'");
  if (query.names) options.push(`names = ${sqlList(query.names)}`);
  if (query.skiprows && format !== "xlsx") options.push(`skip = ${query.skiprows}`);
  if (query.quotechar) options.push(`quote = ${sqlText(query.quotechar)}`);
  if (query.escapechar) options.push(`escape = ${sqlText(query.escapechar)}`);
  if (query.encoding) options.push(`encoding = ${sqlText(query.encoding)}`);
  if (query.decimal) options.push(`decimal_separator = ${sqlText(query.decimal)}`);
  if (query.naValues) options.push(`nullstr = ${sqlList(query.naValues)}`);
  return `read_csv(${sqlText(file)}, ${options.join(", ")})`;
}

/** The view `file`: the reader's rows, with `usecols` and `nrows` applied. */
function fileView(reader: string, query: FileQuery): string {
  const columns = query.usecols ? query.usecols.map(quoteIdent).join(", ") : "*";
  const limit = query.nrows !== undefined ? ` LIMIT ${query.nrows}` : "";
  return `CREATE VIEW file AS SELECT ${columns} FROM ${reader}${limit}`;
}

function maxBytes(options: DataSourceOptions): number {
  const mb = Number(options.max_file_mb);
  return (
    Math.min(Number.isFinite(mb) && mb > 0 ? mb : DEFAULT_MAX_MB, LARGEST_MAX_MB) * 1024 * 1024
  );
}

/**
 * A fresh in-memory DuckDB that may read only `files` and the folders `directories` (given with
 * a trailing slash), and nothing else, for good.
 */
export async function sandboxedDuckdb(
  files: string[],
  directories: string[] = [],
): Promise<{
  instance: DuckDBInstance;
  connection: DuckDBConnection;
}> {
  const instance = await DuckDBInstance.create(":memory:", {
    autoinstall_known_extensions: "false",
    autoload_known_extensions: "false",
    allow_community_extensions: "false",
  });
  try {
    const connection = await instance.connect();
    await connection.run("SET temp_directory = ''");
    await connection.run(`SET allowed_directories = ${sqlList(directories)}`);
    await connection.run(`SET allowed_paths = ${sqlList(files)}`);
    await connection.run("SET enable_external_access = false");
    await connection.run("SET lock_configuration = true");
    return { instance, connection };
  } catch (error) {
    instance.closeSync();
    throw error;
  }
}

/**
 * DuckDB's reading error in its own words, naming the URL instead of the cached copy's path and
 * without the generated SQL it quotes (the view over the cache is Sightline's, not the user's).
 */
function explainReadError(error: unknown, format: FileFormat, file: string, url: string): Error {
  const message = (error instanceof Error ? error.message : String(error))
    .split(/\n\s*LINE \d+:/)[0]
    .split(file)
    .join(shownUrl(url))
    .trim();
  return new Error(`The file could not be read as ${format.toUpperCase()}: ${message}`, {
    cause: error,
  });
}

async function runFileQuery(
  options: DataSourceOptions,
  text: string,
  ctx: RunContext,
  fallback: FileFormat,
): Promise<QueryRun> {
  const query = parseFileQuery(text);
  const watch = watchQuery(ctx);
  let opened: { instance: DuckDBInstance; connection: DuckDBConnection } | null = null;
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    watch.dispose();
    const held = opened;
    if (held) {
      setImmediate(() => {
        held.connection.closeSync();
        held.instance.closeSync();
      });
    }
  };
  try {
    const fetched = await fetchFile(query.url, ctx, {
      maxBytes: maxBytes(options),
      timeoutMs: ctx.timeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS,
      signal: watch.signal,
      headers: query.userAgent ? { "user-agent": query.userAgent } : undefined,
    });
    const format = detectFormat(query, fetched.contentType, fallback);
    let readPath = fetched.path;
    if (format === "xlsx") {
      // Named after the cache entry, so pruning the entry removes its sheets' copies too.
      const folder = path.dirname(fetched.path);
      readPath = await sheetCopy(
        fetched.path,
        query.sheet,
        query.skiprows ?? 0,
        folder,
        `${fetched.key}.`,
      );
    }
    if (watch.signal.aborted) throw watch.signal.reason;
    opened = await sandboxedDuckdb([readPath]);
    const connection = opened.connection;
    watch.signal.addEventListener("abort", () => connection.interrupt(), { once: true });
    try {
      await connection.run(fileView(readerCall(readPath, format, query), query));
      // Binding reads the file's header and detects the types: reading errors show here.
      await connection.run("DESCRIBE file");
    } catch (error) {
      throw explainReadError(error, format, readPath, query.url);
    }
    const sql = query.sql ?? "SELECT * FROM file";
    if (query.sql) await assertReadsOnly(connection, sql);
    let result;
    try {
      result = await connection.stream(sql);
    } catch (error) {
      if (query.sql) throw error;
      throw explainReadError(error, format, readPath, query.url);
    }
    return streamDuckdbResult(result, connection, watch, close);
  } catch (error) {
    const explained = watch.explain(error);
    close();
    throw explained;
  }
}

function configuration(): ConfigurationSchema {
  return {
    type: "object",
    properties: {
      max_file_mb: {
        type: "number",
        title: `Largest file to fetch (MB, at most ${LARGEST_MAX_MB})`,
        default: DEFAULT_MAX_MB,
      },
    },
    order: ["max_file_mb"],
  };
}

function fileRunner(type: string, name: string, fallback: FileFormat): Runner {
  return {
    type,
    name,
    syntax: "yaml",
    supportsAutoLimit: false,
    annotateQuery: false,
    configurationSchema: configuration(),
    run: (options, query, ctx) => runFileQuery(options, query, ctx, fallback),
    outboundUrls(query) {
      try {
        return absoluteUrls([parseFileQuery(query).url]);
      } catch {
        return [];
      }
    },
    async test() {
      // Each query names its own URL: there is nothing to connect to beforehand.
    },
    async getSchema() {
      throw new SchemaNotSupportedError();
    },
  };
}

/** Redash's `csv` type: CSV by default; TSV, JSON, JSON lines, Parquet and XLSX by format. */
export const csvRunner = fileRunner("csv", "CSV", "csv");
/** Redash's `excel` type: XLSX by default; the other formats by format or extension. */
export const excelRunner = fileRunner("excel", "Excel", "xlsx");
