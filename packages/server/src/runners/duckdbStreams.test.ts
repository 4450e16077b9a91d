// A stream of a stopped query never passes for a whole result: the rows a cancelled or timed-out
// query managed to produce end in its error, even when the stop came before the stream listened.
import { DuckDBInstance } from "@duckdb/node-api";
import { describe, expect, it } from "vitest";
import { streamDuckdbResult } from "./duckdbStreams";
import { watchQuery } from "./queryWatch";
import { collect } from "./testSupport";

describe("DuckDB streams of stopped queries", () => {
  it("fails a run cancelled after it started and before its rows were streamed", async () => {
    const instance = await DuckDBInstance.create(":memory:");
    const connection = await instance.connect();
    const cancel = new AbortController();
    const watch = watchQuery({ signal: cancel.signal, timeoutMs: null });
    const result = await connection.stream("SELECT 1 AS one");
    cancel.abort();
    const run = streamDuckdbResult(result, connection, watch, () => connection.closeSync());
    try {
      await expect(collect(run)).rejects.toThrow("Query cancelled by user.");
    } finally {
      instance.closeSync();
    }
  });
});
