import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { readDataSourceOptions, writeDataSourceOptions } from "./dataSourceOptions";

describe("data source options at rest", () => {
  const ctx = { keys: { encryption: crypto.randomBytes(32) } } as Parameters<
    typeof readDataSourceOptions
  >[0];

  it("reads what was written, a new object each time, and a changed value once saved again", () => {
    const stored = writeDataSourceOptions(ctx, { dbpath: "a.duckdb", password: "s3cret" });
    expect(stored).not.toContain("s3cret");
    const first = readDataSourceOptions(ctx, { encrypted_options: stored });
    expect(first).toEqual({ dbpath: "a.duckdb", password: "s3cret" });
    first.dbpath = "changed by a caller";
    expect(readDataSourceOptions(ctx, { encrypted_options: stored }).dbpath).toBe("a.duckdb");

    const saved = writeDataSourceOptions(ctx, { dbpath: "b.duckdb" });
    expect(readDataSourceOptions(ctx, { encrypted_options: saved })).toEqual({
      dbpath: "b.duckdb",
    });
  });

  it("refuses text encrypted with another key, even after reading it with its own", () => {
    const stored = writeDataSourceOptions(ctx, { dbpath: "a.duckdb" });
    readDataSourceOptions(ctx, { encrypted_options: stored });
    const other = { keys: { encryption: crypto.randomBytes(32) } } as typeof ctx;
    expect(() => readDataSourceOptions(other, { encrypted_options: stored })).toThrow();
  });
});
