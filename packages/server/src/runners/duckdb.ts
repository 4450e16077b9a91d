import { createHash } from "node:crypto";
import {
  type DuckDBConnection,
  type DuckDBDataChunk,
  type DuckDBPreparedStatement,
  type DuckDBResult,
} from "@duckdb/node-api";
import { rowBound } from "@sightline/core";
import { BatchChannel } from "./batchChannel";
import { chunkRows, columnConverter, duckdbColumnType, type Converter } from "./duckdbCells";
import { duckdbOwnFiles, MEMORY, openDuckdb, type Opened } from "./duckdbConnections";
import { JsonChunkReader, jsonRowsQuery } from "./duckdbJson";
import { watchQuery, type QueryWatch } from "./queryWatch";
import {
  JsonRows,
  type Cell,
  type CellRun,
  type DataSourceOptions,
  type JsonText,
  type QueryRun,
  type ResultColumn,
  type RunContext,
  type Runner,
} from "./types";
import { schemaTables } from "./schemaTables";
import { buildColumns } from "./values";

const BATCH_SIZE = 5000;

export const DUCKDB_READ_ONLY_REFUSED =
  "This data source is read-only: only statements that read (SELECT, SHOW, DESCRIBE, …) run here. Writing files (COPY … TO, EXPORT), ATTACH and changes to tables are refused.";

/**
 * A read-only data source runs statements that read, and nothing else (SECURITY.md rule 4). Its
 * database file is opened READ_ONLY, but no DuckDB setting makes its files folder read-only
 * (allowed_directories grants reading and writing alike), and an in-memory database cannot be
 * opened read-only at all. So DuckDB's own parser decides, before anything runs:
 * json_serialize_sql parses the text (without binding it, which for EXPORT would already create
 * its folder) and serializes only SELECT statements, which SHOW, DESCRIBE, SUMMARIZE, VALUES and
 * FROM-first queries are; COPY, EXPORT, ATTACH, CREATE, SET, PRAGMA and EXPLAIN (whose ANALYZE
 * runs its statement) are not. The engine's parse tree decides, not keywords in the text.
 */
async function assertReadsOnly(connection: DuckDBConnection, query: string): Promise<void> {
  // Comments are whitespace to the parser: texts that differ only in a leading comment (the run
  // annotation names the job) get one verdict, so a repeated query pays for the parse once.
  const key = createHash("sha256").update(withoutLeadingComments(query)).digest("base64");
  if (knownReads.has(key)) return;
  const result = await connection.runAndReadAll(
    `SELECT j->>'error_type' FROM (SELECT json_serialize_sql($1::VARCHAR) AS j)
     WHERE (j->>'error')::BOOLEAN`,
    [query],
  );
  const failed = result.getRowsJson()[0];
  if (!failed) {
    rememberReads(key);
    return;
  }
  if (failed[0] === "parser") {
    // A syntax error: DuckDB's parser says so in its own words (parsing runs nothing).
    await connection.extractStatements(query);
  }
  throw new Error(DUCKDB_READ_ONLY_REFUSED);
}

/** Hashes of texts (leading comments removed) DuckDB parsed as reads only, newest last. */
const knownReads = new Set<string>();
const KNOWN_READS_KEPT = 1000;

function rememberReads(key: string): void {
  knownReads.delete(key);
  knownReads.add(key);
  if (knownReads.size > KNOWN_READS_KEPT) knownReads.delete(knownReads.values().next().value!);
}

/** The text after its leading whitespace and block comments, nested as DuckDB nests them. */
export function withoutLeadingComments(text: string): string {
  let i = 0;
  for (;;) {
    while (i < text.length && /\s/.test(text[i]!)) i += 1;
    if (!text.startsWith("/*", i)) return text.slice(i);
    let depth = 0;
    do {
      if (text.startsWith("/*", i)) {
        depth += 1;
        i += 2;
      } else if (text.startsWith("*/", i)) {
        depth -= 1;
        i += 2;
      } else {
        i += 1;
      }
    } while (depth > 0 && i < text.length);
    // An unterminated comment: kept whole, for the parser to report.
    if (depth > 0) return text;
  }
}

/** Turns a result's chunks into batch items; `finish` gives what is left after the last chunk. */
interface ChunkReader<Item> {
  read(chunk: DuckDBDataChunk): Item[];
  finish?(): Item[];
}

/** A result's chunks until the end; `first`, when given, was fetched already. */
async function* chunksOf(
  result: DuckDBResult,
  first?: DuckDBDataChunk | null,
): AsyncGenerator<DuckDBDataChunk> {
  let chunk = first === undefined ? await result.fetchChunk() : first;
  while (chunk && chunk.rowCount > 0) {
    yield chunk;
    chunk = await result.fetchChunk();
  }
}

/** A result's chunks, read into items, pushed into `channel` in batches. */
function pump<Item>(
  chunks: AsyncIterable<DuckDBDataChunk>,
  channel: BatchChannel<Item[]>,
  reader: ChunkReader<Item>,
  watch: QueryWatch,
  close: () => void,
): void {
  // Stops a producer waiting for a consumer that has gone quiet.
  watch.signal.addEventListener("abort", () => channel.fail(watch.signal.reason as Error), {
    once: true,
  });
  void (async () => {
    try {
      let pending: Item[] = [];
      // Batches are sized by the rows read, whatever their items hold.
      let pendingRows = 0;
      for await (const chunk of chunks) {
        const next = reader.read(chunk);
        pendingRows += chunk.rowCount;
        if (pending.length === 0) pending = next;
        else for (const item of next) pending.push(item);
        if (pendingRows >= BATCH_SIZE) {
          if (!(await channel.push(pending))) return;
          pending = [];
          pendingRows = 0;
        }
      }
      for (const item of reader.finish?.() ?? []) pending.push(item);
      await channel.push(pending);
      channel.end();
    } catch (error) {
      channel.fail(watch.explain(error));
    } finally {
      close();
    }
  })();
}

/** A result's Sightline columns, and the conversion of each column's values to cells. */
function resultColumns(result: DuckDBResult): { columns: ResultColumn[]; converters: Converter[] } {
  const typeIds = Array.from({ length: result.columnCount }, (_, i) => result.columnTypeId(i));
  const types = typeIds.map(duckdbColumnType);
  const converters = typeIds.map((id, i) => columnConverter(id, types[i]));
  const columns = buildColumns(result.columnNames().map((name, i) => ({ name, type: types[i] })));
  return { columns, converters };
}

/**
 * Streams a DuckDB result as Sightline columns and row batches, converting column by column.
 * `close` releases the connection once the rows are read, the consumer stops, or the run ends.
 * Shared by the DuckDB and Query Results runners.
 */
export function streamDuckdbResult(
  result: DuckDBResult,
  connection: DuckDBConnection,
  watch: QueryWatch,
  close: () => void,
  first?: DuckDBDataChunk | null,
): CellRun {
  const { columns, converters } = resultColumns(result);
  const channel = new BatchChannel<Cell[][]>(() => {
    connection.interrupt();
    close();
  });
  const reader = { read: (chunk: DuckDBDataChunk) => chunkRows(chunk, converters) };
  pump(chunksOf(result, first), channel, reader, watch, close);
  return { columns, batches: channel };
}

/** Streams the row JSON of a query rewritten by jsonRowsQuery. */
function streamJsonRows(
  result: DuckDBResult,
  columns: ResultColumn[],
  connection: DuckDBConnection,
  watch: QueryWatch,
  close: () => void,
): QueryRun {
  const channel = new BatchChannel<JsonText[]>(() => {
    connection.interrupt();
    close();
  });
  pump(chunksOf(result), channel, new JsonChunkReader(), watch, close);
  return { columns, batches: jsonBatches(channel) };
}

async function* jsonBatches(channel: BatchChannel<JsonText[]>): AsyncGenerator<JsonRows> {
  for await (const texts of channel) yield new JsonRows(texts);
}

/**
 * What a run streams: DuckDB's own columns (with the first chunk if it was fetched already), or
 * row JSON for `columns` from the re-run on `connection`.
 */
type Started =
  | { kind: "cells"; result: DuckDBResult; first?: DuckDBDataChunk | null }
  | { kind: "json"; result: DuckDBResult; columns: ResultColumn[]; connection: DuckDBConnection };

/**
 * A query first runs as written. When its first chunk is full (more rows are likely to follow)
 * and came quickly, it is re-run rewritten so that DuckDB writes the rows' JSON itself
 * (duckdbJson.ts), which halves the time of big results; the first run is stopped and its rows
 * dropped. Small results, the usual case, pay nothing for this; a re-run repeats at most
 * RERUN_WITHIN_MS of DuckDB's work. A query that draws from a sequence is never run twice.
 */
const FULL_CHUNK_ROWS = 2048;
const RERUN_WITHIN_MS = 20;
const DRAWS_FROM_SEQUENCE = /\bnextval\s*\(/i;

/** How a run reads its rows: always as cells, as JSON when big (see above), or always as JSON. */
type RowMode = "cells" | "json-when-big" | "json";

/**
 * One statement, the usual case, is prepared directly: a trip to the thread pool fewer than
 * extracting the statements first, which matters for small queries. DuckDB refuses to prepare
 * several statements at once; those run through extraction (all but the last are executed).
 */
async function startStreaming(run: Opened, query: string, mode: RowMode): Promise<Started> {
  const { connection } = run;
  let prepared: DuckDBPreparedStatement;
  try {
    prepared = await connection.prepare(query);
  } catch (error) {
    if (/multiple statements|No statement to prepare/.test(String(error))) {
      return { kind: "cells", result: await connection.stream(query) };
    }
    throw error;
  }
  try {
    if (mode === "json") {
      const rerun = await startJsonRerun(run, query, prepared);
      if (rerun) return rerun;
    }
    const startedAt = performance.now();
    const result = await prepared.stream();
    if (mode !== "json-when-big" || DRAWS_FROM_SEQUENCE.test(query)) {
      return { kind: "cells", result };
    }
    const first = await result.fetchChunk();
    const quick = performance.now() - startedAt <= RERUN_WITHIN_MS;
    if (!quick || !first || first.rowCount < FULL_CHUNK_ROWS) {
      return { kind: "cells", result, first };
    }
    const rerun = await startJsonRerun(run, query, prepared);
    if (!rerun) return { kind: "cells", result, first };
    connection.interrupt();
    return rerun;
  } finally {
    prepared.destroySync();
  }
}

/** The query rewritten as JSON, started on a connection of its own; null if not possible. */
async function startJsonRerun(
  run: Opened,
  query: string,
  prepared: DuckDBPreparedStatement,
): Promise<Started | null> {
  const columns = preparedColumns(prepared);
  const rewritten = jsonRowsQuery(
    query,
    prepared,
    columns.map((c) => c.name),
  );
  if (!rewritten) return null;
  // The first run's result stays readable until the rewritten text is known to work.
  const connection = await run.another();
  const jsonPrepared = await connection.prepare(rewritten).catch(() => null);
  if (!jsonPrepared) return null;
  try {
    return { kind: "json", result: await jsonPrepared.stream(), columns, connection };
  } finally {
    jsonPrepared.destroySync();
  }
}

/** The result columns a prepared statement will have (names de-duplicated as Redash does). */
function preparedColumns(prepared: DuckDBPreparedStatement): ResultColumn[] {
  const fields = Array.from({ length: prepared.columnCount }, (_, i) => ({
    name: prepared.columnName(i),
    type: duckdbColumnType(prepared.columnTypeId(i)),
  }));
  return buildColumns(fields);
}

/**
 * A result known to fit in one vector (2048 rows) is run materialized: one trip to the thread
 * pool instead of four (prepare, execute, and two fetches), which is most of a small query's
 * time. DuckDB holds such a result whole either way, as a stream's first chunk. The text tells:
 * a final `LIMIT n` (auto-limited queries), or a SELECT that reads no table, run with a guard
 * LIMIT and streamed as usual in the rare case that it returns more.
 */
const ONE_VECTOR = 2048;

interface SmallRun {
  text: string;
  /** False when `text` is the query with a guard LIMIT: more rows than ONE_VECTOR mean more exist. */
  complete: boolean;
}

function smallRun(query: string): SmallRun | null {
  const bound = rowBound(query);
  if (bound?.kind === "limit")
    return bound.rows <= ONE_VECTOR ? { text: query, complete: true } : null;
  // A guarded query may run twice, which a sequence would notice.
  if (bound?.kind !== "tableless" || DRAWS_FROM_SEQUENCE.test(query)) return null;
  return { text: `${bound.statement}\nLIMIT ${ONE_VECTOR + 1}`, complete: false };
}

/** Runs a small query materialized; null when a guarded one failed or returned too many rows. */
async function runSmall(
  connection: DuckDBConnection,
  plan: SmallRun,
  watch: QueryWatch,
): Promise<CellRun | null> {
  let result;
  try {
    result = await connection.run(plan.text);
  } catch (error) {
    // The guard may not fit the query's syntax; the query itself decides.
    if (plan.complete || watch.signal.aborted) throw error;
    return null;
  }
  if (!plan.complete && result.rowCount > ONE_VECTOR) return null;
  const { columns, converters } = resultColumns(result);
  const rows: Cell[][] = [];
  for (let i = 0; i < result.chunkCount; i += 1) {
    for (const row of chunkRows(result.getChunk(i), converters)) rows.push(row);
  }
  return { columns, batches: oneBatch(rows) };
}

async function* oneBatch(rows: Cell[][]): AsyncGenerator<Cell[][]> {
  if (rows.length > 0) yield rows;
}

async function streamQuery(
  options: DataSourceOptions,
  query: string,
  ctx: RunContext,
  mode: RowMode,
): Promise<QueryRun> {
  const watch = watchQuery(ctx);
  let opened: Opened | null = null;
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    watch.dispose();
    opened?.close();
  };
  try {
    opened = await openDuckdb(options, ctx);

    const connection = opened.connection;
    let running = connection;
    watch.signal.addEventListener("abort", () => running.interrupt(), { once: true });
    if (watch.signal.aborted) throw watch.signal.reason;
    if (options.read_only === true) await assertReadsOnly(connection, query);
    const plan = mode === "json-when-big" ? smallRun(query) : null;
    const small = plan && (await runSmall(connection, plan, watch));
    if (small) {
      close();
      return small;
    }
    const started = await startStreaming(opened, query, mode);
    if (started.kind === "cells") {
      return streamDuckdbResult(started.result, connection, watch, close, started.first);
    }
    running = started.connection;
    if (watch.signal.aborted) running.interrupt();
    return streamJsonRows(started.result, started.columns, running, watch, close);
  } catch (error) {
    const explained = watch.explain(error);
    close();
    throw explained;
  }
}

/** Runs a query reading cells only (schema listings; tests compare both ways). */
export async function runDuckdbCells(
  options: DataSourceOptions,
  query: string,
  ctx: RunContext,
): Promise<CellRun> {
  return (await streamQuery(options, query, ctx, "cells")) as CellRun;
}

/** Runs a query rewritten as JSON whatever its size, where possible (tests compare both ways). */
export function runDuckdbJson(
  options: DataSourceOptions,
  query: string,
  ctx: RunContext,
): Promise<QueryRun> {
  return streamQuery(options, query, ctx, "json");
}

async function rowsOf(
  options: DataSourceOptions,
  query: string,
  ctx: RunContext,
): Promise<Cell[][]> {
  const run = await runDuckdbCells(options, query, ctx);
  const rows: Cell[][] = [];
  for await (const batch of run.batches) rows.push(...batch);
  return rows;
}

export const duckdbRunner: Runner = {
  type: "duckdb",
  name: "DuckDB",
  syntax: "sql",
  supportsAutoLimit: true,
  configurationSchema: {
    type: "object",
    properties: {
      dbpath: { type: "string", title: "Database Path", default: MEMORY },
      read_only: { type: "boolean", title: "Read only (enforced by the database)", default: false },
      files_folder: {
        type: "string",
        title: "Files Folder (CSV and Parquet files this data source may read, in the data folder)",
      },
    },
    order: ["dbpath", "files_folder", "read_only"],
    required: ["dbpath"],
  },

  ownFiles: duckdbOwnFiles,

  run: (options, query, ctx) => streamQuery(options, query, ctx, "json-when-big"),

  async test(options, ctx) {
    await rowsOf(options, "SELECT 1", ctx);
  },

  async getSchema(options, ctx) {
    const rows = await rowsOf(
      options,
      `SELECT table_catalog, table_schema, table_name, column_name, data_type
       FROM information_schema.columns
       WHERE table_schema NOT IN ('information_schema', 'pg_catalog')
       ORDER BY table_catalog, table_schema, table_name, ordinal_position`,
      ctx,
    );
    return schemaTables(
      rows.map(([, schema, table, column, type]) => [
        schema === "main" ? String(table) : `${schema}.${table}`,
        column,
        type,
      ]),
    );
  },
};
