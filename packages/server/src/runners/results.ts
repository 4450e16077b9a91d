import { DuckDBInstance, type DuckDBConnection } from "@duckdb/node-api";
import { streamDuckdbResult } from "./duckdbStreams";
import { watchQuery } from "./queryWatch";
import {
  ResultRefusedError,
  SchemaNotSupportedError,
  type ColumnType,
  type QueryRun,
  type ReadableResult,
  type ResultColumn,
  type RunContext,
  type Runner,
} from "./types";

/**
 * Query Results (Redash's `results` type): SQL over other queries' stored results. Every
 * `query_<id>` or `cached_query_<id>` after FROM or JOIN becomes a table holding that query's
 * latest result, in a fresh in-memory DuckDB that can reach no file and no network. Which results
 * the run may read, and their rows, come from the run context (ctx.results): the execution layer
 * decides access (execution/readableResults.ts), this module only loads and queries.
 */

export interface TableReference {
  table: string;
  queryId: number;
}

/** Comments and string literals, which never name a table. */
const NOT_CODE = /'(?:[^']|'')*'|--[^\n]*|\/\*[\s\S]*?\*\//g;

/** The query tables the text reads (Redash's rule: a name right after FROM or JOIN). */
export function referencedTables(text: string): TableReference[] {
  const code = text.replace(NOT_CODE, " ");
  const found = new Map<string, TableReference>();
  for (const match of code.matchAll(/\b(?:from|join)\s+((?:cached_)?query_(\d{1,15}))\b/gi)) {
    const table = match[1]!.toLowerCase();
    found.set(table, { table, queryId: Number(match[2]) });
  }
  return [...found.values()];
}

/** The Redash type of Query Results data sources. */
export const RESULTS_TYPE = "results";

/** Thrown with the message the job reports. */
class QueryResultsError extends Error {}

/** The refusal's message when `check` is refused a result, else null; other errors are thrown. */
async function refusalOf(check: () => Promise<unknown>): Promise<string | null> {
  try {
    await check();
    return null;
  } catch (error) {
    if (error instanceof ResultRefusedError) return error.message;
    throw error;
  }
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** DuckDB names are case-insensitive: "a" and "A" would clash, so the second becomes "A1". */
function tableColumnNames(columns: ResultColumn[]): string[] {
  const used = new Set<string>();
  return columns.map((column) => {
    let name = column.name;
    for (let n = 1; used.has(name.toLowerCase()); n += 1) name = `${column.name}${n}`;
    used.add(name.toLowerCase());
    return name;
  });
}

/** The types a stored column is tried as, best first; it stays text when none fits every value. */
function typeCandidates(type: ColumnType): string[] {
  switch (type) {
    case "integer":
      return ["BIGINT", "DOUBLE"];
    case "float":
      return ["DOUBLE"];
    case "boolean":
      return ["BOOLEAN"];
    case "date":
      return ["DATE"];
    case "datetime":
      return ["TIMESTAMP"];
    default:
      return [];
  }
}

/**
 * Loads one stored result into a table. Rows are appended as text (one chunk in memory at a
 * time), then each column is converted to its stored type where every value allows it.
 */
async function loadTable(
  connection: DuckDBConnection,
  reference: TableReference,
  stored: ReadableResult | null,
  signal: AbortSignal,
): Promise<void> {
  if (!stored) {
    throw new QueryResultsError(`No cached result available for query ${reference.queryId}.`);
  }
  if (stored.columns.length === 0) {
    throw new QueryResultsError(`The result of query id ${reference.queryId} has no columns.`);
  }
  const names = tableColumnNames(stored.columns);
  const table = quote(reference.table);
  await connection.run(
    `CREATE TABLE ${table} (${names.map((n) => `${quote(n)} VARCHAR`).join(", ")})`,
  );
  const appender = await connection.createAppender(reference.table);
  try {
    for await (const rows of stored.rows()) {
      if (signal.aborted) throw signal.reason;
      for (const row of rows) {
        for (let i = 0; i < names.length; i += 1) {
          const cell = row[i];
          if (cell === null || cell === undefined) appender.appendNull();
          else appender.appendVarchar(String(cell));
        }
        appender.endRow();
      }
      appender.flushSync();
    }
  } finally {
    appender.closeSync();
  }
  for (let i = 0; i < names.length; i += 1) {
    for (const type of typeCandidates(stored.columns[i]!.type)) {
      const converted = await connection
        .run(`ALTER TABLE ${table} ALTER ${quote(names[i]!)} TYPE ${type}`)
        .then(() => true)
        .catch(() => false);
      if (converted) break;
    }
  }
}

/** A fresh database per run, closed to files, extensions and the network. */
async function openSandbox(): Promise<{ instance: DuckDBInstance; connection: DuckDBConnection }> {
  // Applied in this order: no temp directory can be set once external access is off.
  const instance = await DuckDBInstance.create(":memory:", {
    temp_directory: "",
    autoinstall_known_extensions: "false",
    autoload_known_extensions: "false",
    allow_community_extensions: "false",
    enable_external_access: "false",
    lock_configuration: "true",
  });
  try {
    return { instance, connection: await instance.connect() };
  } catch (error) {
    instance.closeSync();
    throw error;
  }
}

async function run(query: string, ctx: RunContext): Promise<QueryRun> {
  const references = referencedTables(query);
  if (references.length > 0 && !ctx.results) {
    throw new Error("Query Results data sources run only in Sightline's query engine.");
  }
  const results =
    references.length > 0
      ? await ctx.results!.latest(references.map((r) => r.queryId))
      : new Map<number, ReadableResult | null>();

  const watch = watchQuery(ctx);
  let opened: Awaited<ReturnType<typeof openSandbox>> | null = null;
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    watch.dispose();
    opened?.connection.closeSync();
    opened?.instance.closeSync();
  };
  try {
    opened = await openSandbox();
    const connection = opened.connection;
    watch.signal.addEventListener("abort", () => connection.interrupt(), { once: true });
    for (const reference of references) {
      // The result checked above is the one loaded.
      await loadTable(connection, reference, results.get(reference.queryId)!, watch.signal);
    }
    if (watch.signal.aborted) throw watch.signal.reason;
    const result = await connection.stream(query);
    return streamDuckdbResult(result, connection, watch, close);
  } catch (error) {
    const explained = error instanceof QueryResultsError ? error : watch.explain(error);
    close();
    throw explained;
  }
}

export const resultsRunner: Runner = {
  type: RESULTS_TYPE,
  name: "Query Results",
  syntax: "sql",
  supportsAutoLimit: false,
  configurationSchema: { type: "object", properties: {} },

  run: (_options, query, ctx) => run(query, ctx),

  async test(_options, ctx) {
    const { batches } = await run("SELECT 1", ctx);
    for await (const _batch of batches) void _batch;
  },

  async getSchema() {
    throw new SchemaNotSupportedError();
  },

  async authorize(query, results) {
    const ids = referencedTables(query).map((r) => r.queryId);
    return refusalOf(() => results.latest(ids));
  },
};
