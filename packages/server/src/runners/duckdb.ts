import { duckdbOwnFiles, MEMORY, openDuckdb, type Opened } from "./duckdbConnections";
import { assertReadsOnly } from "./duckdbReadOnly";
import { runSmall, smallRun } from "./duckdbSmallRuns";
import { startStreaming, type RowMode } from "./duckdbStreamStarts";
import { streamDuckdbResult, streamJsonRows } from "./duckdbStreams";
import { watchQuery } from "./queryWatch";
import type { Cell, CellRun, DataSourceOptions, QueryRun, RunContext, Runner } from "./types";
import { schemaTables } from "./schemaTables";

/**
 * The DuckDB runner. A run opens its database (duckdbConnections.ts), refuses writes on read-only
 * sources (duckdbReadOnly.ts), then runs a small query materialized (duckdbSmallRuns.ts) or
 * starts it streamed (duckdbStreamStarts.ts) and streams its rows in batches (duckdbStreams.ts).
 */

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
