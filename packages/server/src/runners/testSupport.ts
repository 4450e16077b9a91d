// Helpers shared by the runner tests.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createOutboundClient } from "../outbound/client";
import { JsonRows, type Cell, type QueryRun, type RunContext } from "./types";

export function testContext(overrides: Partial<RunContext> = {}): RunContext {
  return {
    signal: new AbortController().signal,
    timeoutMs: null,
    fileDataDir: null,
    forbiddenPaths: [],
    metadataDatabaseUrl: null,
    outbound: createOutboundClient(),
    ...overrides,
  };
}

export async function collect(run: QueryRun): Promise<{ rows: Cell[][]; batches: number }> {
  const rows: Cell[][] = [];
  let batches = 0;
  const names = run.columns.map((c) => c.name);
  for await (const batch of run.batches) {
    batches += 1;
    if (batch instanceof JsonRows) {
      // Row JSON (DuckDB) is compared as the cells it holds.
      for (const { text, rows: count } of batch.texts) {
        const objects = JSON.parse(`[${text}]`) as Record<string, Cell>[];
        if (objects.length !== count)
          throw new Error(`${count} rows announced, ${objects.length} read`);
        for (const object of objects) {
          rows.push(names.map((name) => (name in object ? object[name] : "<missing>")));
        }
      }
    } else {
      for (const row of batch) rows.push(row);
    }
  }
  return { rows, batches };
}

/** Runs a query to the end and returns its columns and rows. */
export async function runAll(
  run: Promise<QueryRun>,
): Promise<{ columns: QueryRun["columns"]; rows: Cell[][]; batches: number }> {
  const result = await run;
  return { columns: result.columns, ...(await collect(result)) };
}

/** Aborts after `ms` and reports how long the rejection took. */
export async function timeRejection(
  promise: Promise<unknown>,
): Promise<{ error: Error; ms: number }> {
  const started = Date.now();
  try {
    await promise;
  } catch (error) {
    return { error: error as Error, ms: Date.now() - started };
  }
  throw new Error("expected the query to fail");
}

/**
 * Runs `work` against an HTTP server on 127.0.0.1 (`port` its port) that answers with `handler`,
 * or never answers when there is none (a stand-in for a slow server); closes it afterwards.
 */
export async function withHttpServer<T>(
  handler: http.RequestListener | null,
  work: (port: number, server: http.Server) => Promise<T>,
): Promise<T> {
  const server = http.createServer(handler ?? (() => undefined));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    return await work((server.address() as AddressInfo).port, server);
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

export function abortAfter(ms: number): AbortSignal {
  const controller = new AbortController();
  setTimeout(() => controller.abort(), ms);
  return controller.signal;
}

/**
 * DuckDB SQL for a table `t` of sample timestamps `ts`: random instants over years 2–9800 (the
 * formatter's fast path and the far past/future), whole seconds and milliseconds, NULL, the
 * infinities, the first day of year 1, the epoch and a day BC.
 */
export const DUCKDB_TIMESTAMP_SAMPLES = `WITH t AS (
    SELECT make_timestamp((hash(i) % 310000000000000000)::BIGINT - 62100000000000000) AS ts
    FROM range(3000) r(i)
    UNION ALL SELECT date_trunc('second', make_timestamp((hash(i) % 4000000000000000)::BIGINT))
    FROM range(500) r(i)
    UNION ALL SELECT date_trunc('millisecond', make_timestamp((hash(i) % 4000000000000000)::BIGINT))
    FROM range(500, 1000) r(i)
    UNION ALL SELECT NULL UNION ALL SELECT 'infinity'::TIMESTAMP UNION ALL SELECT '-infinity'::TIMESTAMP
    UNION ALL SELECT TIMESTAMP '0001-01-01 00:00:00' UNION ALL SELECT TIMESTAMP '1970-01-01'
    UNION ALL SELECT TIMESTAMP '0044-03-15 (BC) 12:00:00')`;
