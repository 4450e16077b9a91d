import type { DuckDBConnection } from "@duckdb/node-api";
import { rowBound } from "@sightline/core";
import { chunkRows } from "./duckdbCells";
import { DRAWS_FROM_SEQUENCE } from "./duckdbStreamStarts";
import { resultColumns } from "./duckdbStreams";
import type { QueryWatch } from "./queryWatch";
import type { Cell, CellRun } from "./types";

/**
 * A result known to fit in one vector (2048 rows) is run materialized: one trip to the thread
 * pool instead of four (prepare, execute, and two fetches), which is most of a small query's
 * time. DuckDB holds such a result whole either way, as a stream's first chunk. The text tells:
 * a final `LIMIT n` (auto-limited queries), or a SELECT that reads no table, run with a guard
 * LIMIT and streamed as usual in the rare case that it returns more.
 */
const ONE_VECTOR = 2048;

export interface SmallRun {
  text: string;
  /** False when `text` is the query with a guard LIMIT: more rows than ONE_VECTOR mean more exist. */
  complete: boolean;
}

export function smallRun(query: string): SmallRun | null {
  const bound = rowBound(query);
  if (bound?.kind === "limit")
    return bound.rows <= ONE_VECTOR ? { text: query, complete: true } : null;
  // A guarded query may run twice, which a sequence would notice.
  if (bound?.kind !== "tableless" || DRAWS_FROM_SEQUENCE.test(query)) return null;
  return { text: `${bound.statement}\nLIMIT ${ONE_VECTOR + 1}`, complete: false };
}

/** Runs a small query materialized; null when a guarded one failed or returned too many rows. */
export async function runSmall(
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
