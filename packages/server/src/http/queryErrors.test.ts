import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metadataDatabases } from "../testing/services";
import type { TestServer } from "../testing/testServer";
import type { TestClient } from "../testing/httpClient";
import { settledJob, startWithDuckdb } from "../testing/apiServer";

// A database's error reaches the user as the database wrote it (its line breaks too), without the
// `/* Username: … Query Hash … */` comment Sightline puts in front of the text for database logs.

const DATABASES = await metadataDatabases();

describe.each(DATABASES)("query errors through the API on %s", (db) => {
  let server: TestServer;
  let admin: TestClient;
  let dataSourceId: number;

  beforeAll(async () => {
    ({ server, admin, dataSourceId } = await startWithDuckdb(db));
  });

  afterAll(async () => {
    await server?.close();
  });

  /** The failed job's error for a text. */
  async function errorOf(query: string): Promise<string> {
    const res = await admin.post("/api/query_results", {
      data_source_id: dataSourceId,
      query,
      max_age: 0,
    });
    const job = await settledJob(admin, res.body);
    expect(job.status).toBe(4);
    return job.error;
  }

  it("keeps DuckDB's lines and caret, without the annotation", async () => {
    const error = await errorOf("selec 1");
    expect(error).not.toMatch(/Username|Query Hash|Scheduled|\*\//);
    expect(error).toBe(
      'Parser Error: syntax error at or near "selec"\n\nLINE 1: selec 1\n        ^',
    );
  });

  it("keeps the caret under the error further along the first line", async () => {
    const error = await errorOf("select nope from range(3)");
    expect(error).not.toMatch(/Username|Query Hash|\*\//);
    const lines = error.split("\n");
    const line = lines.findIndex((l) => l.startsWith("LINE 1: "));
    expect(lines[line]).toBe("LINE 1: select nope from range(3)");
    expect(lines[line + 1].indexOf("^")).toBe(lines[line].indexOf("nope"));
  });
});
