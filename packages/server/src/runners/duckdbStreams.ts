import type { DuckDBConnection, DuckDBDataChunk, DuckDBResult } from "@duckdb/node-api";
import { BatchChannel } from "./batchChannel";
import { chunkRows, columnConverter, duckdbColumnType, type Converter } from "./duckdbCells";
import { JsonChunkReader } from "./duckdbJson";
import type { QueryWatch } from "./queryWatch";
import {
  JsonRows,
  type Cell,
  type CellRun,
  type JsonText,
  type QueryRun,
  type ResultColumn,
} from "./types";
import { buildColumns } from "./values";

/**
 * Streaming a started DuckDB result to its consumer: its chunks read into cells (or row JSON) and
 * pushed in batches, with the connection released when the rows end or the consumer stops.
 */

const BATCH_SIZE = 5000;

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
      // An interrupted query's result just ends early, as if it were complete: a run stopped by
      // a cancel or its time limit (even one stopped before this listened) fails, never passes
      // for a whole result.
      if (watch.signal.aborted) throw watch.signal.reason;
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
export function resultColumns(result: DuckDBResult): {
  columns: ResultColumn[];
  converters: Converter[];
} {
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
export function streamJsonRows(
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
