import type {
  DuckDBConnection,
  DuckDBDataChunk,
  DuckDBPreparedStatement,
  DuckDBResult,
} from "@duckdb/node-api";
import { duckdbColumnType } from "./duckdbCells";
import type { Opened } from "./duckdbConnections";
import { jsonRowsQuery } from "./duckdbJson";
import type { ResultColumn } from "./types";
import { buildColumns } from "./values";

/**
 * Starting a streamed DuckDB run: the query as written, read as cells, or (for big results)
 * re-run rewritten so that DuckDB writes the rows' JSON. runners/duckdb.ts picks the mode.
 */

/**
 * What a run streams: DuckDB's own columns (with the first chunk if it was fetched already), or
 * row JSON for `columns` from the re-run on `connection`.
 */
export type Started =
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
export const DRAWS_FROM_SEQUENCE = /\bnextval\s*\(/i;

/** How a run reads its rows: always as cells, as JSON when big (see above), or always as JSON. */
export type RowMode = "cells" | "json-when-big" | "json";

/**
 * One statement, the usual case, is prepared directly: a trip to the thread pool fewer than
 * extracting the statements first, which matters for small queries. DuckDB refuses to prepare
 * several statements at once; those run through extraction (all but the last are executed).
 */
export async function startStreaming(run: Opened, query: string, mode: RowMode): Promise<Started> {
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
