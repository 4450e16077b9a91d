import {
  DuckDBBlobValue,
  DuckDBConnection,
  DuckDBDateValue,
  DuckDBDecimalValue,
  DuckDBInstance,
  DuckDBTimestampTZValue,
  DuckDBTypeId,
  type DuckDBTimestampValue,
  type DuckDBDataChunk,
  type DuckDBPreparedStatement,
  type DuckDBResult,
  type DuckDBValue,
} from "@duckdb/node-api";
import { BatchChannel } from "./batchChannel";
import { allowedFolder, folderHoldsForbidden, resolveDataFile } from "./dataFiles";
import { JsonChunkReader, jsonRowsQuery } from "./duckdbJson";
import { watchQuery, type QueryWatch } from "./queryWatch";
import {
  JsonRows,
  type Cell,
  type CellRun,
  type ColumnType,
  type DataSourceOptions,
  type JsonText,
  type QueryRun,
  type ResultColumn,
  type RunContext,
  type Runner,
} from "./types";
import {
  bigintCell,
  buildColumns,
  bytesCell,
  decimalCell,
  isoDateFromDays,
  isoTimestamp,
  microsTimestampFormatter,
  numberCell,
} from "./values";

const BATCH_SIZE = 5000;
const MEMORY = ":memory:";

export function duckdbColumnType(typeId: DuckDBTypeId): ColumnType {
  switch (typeId) {
    case DuckDBTypeId.BOOLEAN:
      return "boolean";
    case DuckDBTypeId.TINYINT:
    case DuckDBTypeId.SMALLINT:
    case DuckDBTypeId.INTEGER:
    case DuckDBTypeId.BIGINT:
    case DuckDBTypeId.UTINYINT:
    case DuckDBTypeId.USMALLINT:
    case DuckDBTypeId.UINTEGER:
    case DuckDBTypeId.UBIGINT:
    case DuckDBTypeId.HUGEINT:
    case DuckDBTypeId.UHUGEINT:
      return "integer";
    case DuckDBTypeId.FLOAT:
    case DuckDBTypeId.DOUBLE:
    case DuckDBTypeId.DECIMAL:
      return "float";
    case DuckDBTypeId.DATE:
      return "date";
    case DuckDBTypeId.TIMESTAMP:
    case DuckDBTypeId.TIMESTAMP_S:
    case DuckDBTypeId.TIMESTAMP_MS:
    case DuckDBTypeId.TIMESTAMP_NS:
    case DuckDBTypeId.TIMESTAMP_TZ:
      return "datetime";
    default:
      return "string";
  }
}

function duckdbCell(value: DuckDBValue, type: ColumnType): Cell {
  if (value === null) return null;
  if (typeof value === "number") return numberCell(value);
  if (typeof value === "bigint") return bigintCell(value);
  if (typeof value === "boolean" || typeof value === "string") return value;
  if (value instanceof DuckDBDecimalValue) return decimalCell(value.toString());
  if (value instanceof DuckDBBlobValue) return bytesCell(value.bytes);
  if (value instanceof DuckDBDateValue) return dateText(value);
  const text = value.toString();
  return type === "datetime" ? isoTimestamp(text) : text;
}

/** A date as DuckDB writes it; the driver's own text shows the infinities as far-off days. */
function dateText(value: DuckDBDateValue): string {
  if (value.isFinite) return value.toString();
  return value.days > 0 ? "infinity" : "-infinity";
}

/** Converts one non-null value of a column. */
type Converter = (value: DuckDBValue) => Cell;

const same: Converter = (value) => value as Cell;

/**
 * The converter of a column, chosen once per result from its type: the common types skip the
 * per-value type tests, and timestamps and dates are written from their numbers directly.
 */
function columnConverter(typeId: DuckDBTypeId, type: ColumnType): Converter {
  const general: Converter = (value) => duckdbCell(value, type);
  switch (typeId) {
    case DuckDBTypeId.BOOLEAN:
    case DuckDBTypeId.VARCHAR:
    case DuckDBTypeId.TINYINT:
    case DuckDBTypeId.SMALLINT:
    case DuckDBTypeId.INTEGER:
    case DuckDBTypeId.UTINYINT:
    case DuckDBTypeId.USMALLINT:
    case DuckDBTypeId.UINTEGER:
      return same;
    case DuckDBTypeId.FLOAT:
    case DuckDBTypeId.DOUBLE:
      return (value) => numberCell(value as number);
    case DuckDBTypeId.BIGINT:
    case DuckDBTypeId.UBIGINT:
    case DuckDBTypeId.HUGEINT:
    case DuckDBTypeId.UHUGEINT:
      return (value) => bigintCell(value as bigint);
    case DuckDBTypeId.DATE:
      return (value) => isoDateFromDays((value as DuckDBDateValue).days) ?? general(value);
    case DuckDBTypeId.TIMESTAMP: {
      const format = microsTimestampFormatter();
      return (value) => format((value as DuckDBTimestampValue).micros) ?? general(value);
    }
    case DuckDBTypeId.TIMESTAMP_TZ: {
      // As the driver writes them: in the server's time zone, with its offset.
      const format = microsTimestampFormatter(DuckDBTimestampTZValue.timezoneOffsetInMinutes);
      return (value) => format((value as DuckDBTimestampTZValue).micros) ?? general(value);
    }
    default:
      return general;
  }
}

/** A chunk's rows, filled column by column. */
function chunkRows(chunk: DuckDBDataChunk, converters: Converter[]): Cell[][] {
  const count = chunk.rowCount;
  const rows: Cell[][] = [];
  for (let r = 0; r < count; r += 1) rows.push([]);
  for (let c = 0; c < converters.length; c += 1) {
    const vector = chunk.getColumnVector(c);
    const convert = converters[c];
    for (let r = 0; r < count; r += 1) {
      const value = vector.getItem(r);
      rows[r].push(value === null ? null : convert(value));
    }
  }
  return rows;
}

async function isLocked(connection: DuckDBConnection): Promise<boolean> {
  const result = await connection.run("SELECT current_setting('lock_configuration')");
  const rows = await result.getRows();
  return rows[0]?.[0] === true;
}

/**
 * Limits file access to the allowed folder, then locks the configuration so queries cannot undo
 * it. Settings are per database instance; file instances are shared within the process (DuckDB
 * must not open one file twice), so an instance that is already locked was sandboxed before.
 */
async function sandbox(
  connection: DuckDBConnection,
  root: string,
  inMemory: boolean,
): Promise<void> {
  if (await isLocked(connection)) return;
  const folder = `${root.replace(/\/+$/, "")}/`.replace(/'/g, "''");
  try {
    await connection.run(`SET allowed_directories = ['${folder}']`);
    if (inMemory) await connection.run("SET temp_directory = ''");
    await connection.run("SET enable_external_access = false");
    await connection.run("SET lock_configuration = true");
  } catch (error) {
    // Another query sandboxed the same instance at the same moment.
    if (!(await isLocked(connection))) throw error;
  }
}

/** A run's connections to one database: the first, and one opened to re-run it as JSON. */
interface Opened {
  connection: DuckDBConnection;
  /** Another new connection to the same database, closed with the first. */
  another(): Promise<DuckDBConnection>;
  close(): void;
}

function opened(
  first: DuckDBConnection,
  connect: () => Promise<DuckDBConnection>,
  closeInstance?: () => void,
): Opened {
  const connections = [first];
  return {
    connection: first,
    async another() {
      const connection = await connect();
      connections.push(connection);
      return connection;
    },
    close() {
      for (const connection of connections) connection.closeSync();
      closeInstance?.();
    },
  };
}

async function open(options: DataSourceOptions, ctx: RunContext): Promise<Opened> {
  const dbpath =
    typeof options.dbpath === "string" && options.dbpath.trim() ? options.dbpath.trim() : MEMORY;
  const accessMode = options.read_only === true ? "READ_ONLY" : "READ_WRITE";
  // A warm instance passed the folder checks below with these same inputs, and holding it keeps
  // the file it checked open: it is reused without the file-system lookups.
  const key = JSON.stringify([accessMode, dbpath, ctx.fileDataDir, ctx.forbiddenPaths]);
  const warm = dbpath === MEMORY ? undefined : recentlySandboxed.get(key);
  if (warm) {
    keepWarm(key, warm.instance);
    return opened(await freshConnection(warm), () => freshConnection(warm));
  }
  const root = allowedFolder(ctx);
  if (folderHoldsForbidden(root, ctx)) {
    throw new Error(
      "DuckDB data sources are disabled: the allowed data folder contains Sightline's own data.",
    );
  }
  const engineOptions = {
    autoinstall_known_extensions: "false",
    autoload_known_extensions: "false",
    allow_community_extensions: "false",
  };
  if (dbpath === MEMORY) {
    // A fresh database per query: nothing is shared between data sources or runs.
    const instance = await DuckDBInstance.create(MEMORY, engineOptions);
    const close = () => instance.closeSync();
    try {
      const connection = await instance.connect();
      await sandbox(connection, root, true);
      return opened(connection, () => instance.connect(), close);
    } catch (error) {
      close();
      throw error;
    }
  }
  const file = resolveDataFile(dbpath, ctx);
  const instance = await DuckDBInstance.fromCache(file, {
    ...engineOptions,
    access_mode: accessMode,
  });
  const connection = await instance.connect();
  try {
    await sandbox(connection, root, false);
  } catch (error) {
    connection.closeSync();
    throw error;
  }
  keepWarm(key, instance);
  return opened(connection, () => instance.connect());
}

/**
 * File instances sandboxed by this process, held for a while after their last query so that the
 * next run skips the `lock_configuration` check (a query of ~1 ms). Holding the instance keeps the
 * same, locked database open; once released, DuckDB may close it and the check runs again.
 * Each holds a spare connection, opened in the background after a query took the previous one:
 * every query still gets a connection of its own, never used before, without waiting for it.
 */
interface WarmInstance {
  instance: DuckDBInstance;
  timer?: NodeJS.Timeout;
  spare: Promise<DuckDBConnection | null> | null;
}
const recentlySandboxed = new Map<string, WarmInstance>();
const KEEP_WARM_MS = 60_000;

function keepWarm(key: string, instance: DuckDBInstance): void {
  let entry = recentlySandboxed.get(key);
  if (entry) clearTimeout(entry.timer);
  if (entry && entry.instance !== instance) {
    void closeSpare(entry);
    entry = undefined;
  }
  const held: WarmInstance = entry ?? { instance, spare: null };
  held.timer = setTimeout(() => {
    if (recentlySandboxed.get(key) === held) recentlySandboxed.delete(key);
    void closeSpare(held);
  }, KEEP_WARM_MS);
  held.timer.unref();
  recentlySandboxed.set(key, held);
}

/** The warm instance's spare connection (a new one is opened for the next query), or a new one. */
async function freshConnection(warm: WarmInstance): Promise<DuckDBConnection> {
  const spare = warm.spare;
  warm.spare = warm.instance.connect().catch(() => null);
  return (await spare) ?? warm.instance.connect();
}

async function closeSpare(entry: WarmInstance): Promise<void> {
  const spare = entry.spare;
  entry.spare = null;
  (await spare)?.closeSync();
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
  const typeIds = Array.from({ length: result.columnCount }, (_, i) => result.columnTypeId(i));
  const types = typeIds.map(duckdbColumnType);
  const converters = typeIds.map((id, i) => columnConverter(id, types[i]));
  const columns = buildColumns(result.columnNames().map((name, i) => ({ name, type: types[i] })));
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
    if (!quick || !first || first.rowCount < FULL_CHUNK_ROWS)
      return { kind: "cells", result, first };
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
    opened = await open(options, ctx);

    const connection = opened.connection;
    let running = connection;
    watch.signal.addEventListener("abort", () => running.interrupt(), { once: true });
    if (watch.signal.aborted) throw watch.signal.reason;
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
    },
    order: ["dbpath", "read_only"],
    required: ["dbpath"],
  },

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
    const tables = new Map<string, { name: string; type: string | null }[]>();
    for (const [, schema, table, column, type] of rows) {
      const name = schema === "main" ? String(table) : `${schema}.${table}`;
      const columns = tables.get(name) ?? [];
      columns.push({ name: String(column), type: type === null ? null : String(type) });
      tables.set(name, columns);
    }
    return [...tables]
      .map(([name, columns]) => ({ name, columns }))
      .sort((a, b) => a.name.localeCompare(b.name));
  },
};
