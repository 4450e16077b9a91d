import fs from "node:fs";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "../config";
import { runToResult, startWithAdmin } from "../testing/apiServer";
import { createDataSource, type TestClient } from "../testing/httpClient";
import { metadataDatabases } from "../testing/services";
import { startTestS3, type TestS3 } from "../testing/s3Server";
import type { TestServer } from "../testing/testServer";
import { DEFAULT_RESULT_LIMITS } from "./limits";
import { forgetResults } from "./recentResults";
import { writeResult } from "./resultStore";
import { useResultsStorage } from "./resultsStorage";

// Object storage going away while a result is written or read (s3rver stopped mid-way): the
// person gets a clear message or a download cut short, never a hang, a 500 or a stack.

const DATABASES = await metadataDatabases();
// 200,000 wide rows of hex digits that compress only ~2× (~44 MB of CSV, 6 or more objects of at
// most 4 MB): far more than the sockets' buffers hold, so the server is still reading objects
// when the store goes away.
const ROWS = 200_000;
const HEX = Array.from({ length: 6 }, (_, n) => `md5(i::varchar || '-${n}')`).join(" || ");
const QUERY = `SELECT i AS id, 'name ' || i || ${HEX} AS name FROM range(${ROWS}) t(i)`;

describe.each(DATABASES)("object storage failing mid-way on %s", { timeout: 90_000 }, (db) => {
  let server: TestServer;
  let admin: TestClient;
  let dataSourceId: number;
  let s3: TestS3;
  let s3Closed = false;

  beforeAll(async () => {
    ({ server, admin } = await startWithAdmin(db));
    fs.mkdirSync(server.config.fileDataDir!, { recursive: true });
    dataSourceId = await createDataSource(admin, "memory", "duckdb", { dbpath: ":memory:" });
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(async () => {
    s3 = await startTestS3();
    s3Closed = false;
    const storage = loadConfig({
      ...s3.env,
      SIGHTLINE_RESULTS_URL: `s3://${s3.bucket}/outage`,
    }).resultsStorage;
    await useResultsStorage(server.ctx.database.db, storage);
  });
  afterEach(async () => {
    await useResultsStorage(server.ctx.database.db, null);
    if (!s3Closed) await s3.close();
  });
  const stopStore = async () => {
    s3Closed = true;
    await s3.kill();
  };

  it("answers 503 with the store's message when it is gone before a download starts", async () => {
    const id = await runToResult(admin, dataSourceId, QUERY);
    const small = await runToResult(admin, dataSourceId, "SELECT 1 AS one");
    forgetResults(server.ctx.database.db, [small]);
    await stopStore();
    const downloads: [string, Record<string, string>][] = [
      [`/api/query_results/${id}.csv`, {}],
      [`/api/query_results/${id}.tsv`, {}],
      [`/api/query_results/${id}.json`, { "accept-encoding": "gzip" }],
      [`/api/query_results/${id}.json`, { "accept-encoding": "identity" }],
      [`/api/query_results/${id}`, {}],
      [`/api/query_results/${small}.csv`, {}],
    ];
    for (const [url, headers] of downloads) {
      const answer = await admin.request<{ message: string }>("GET", url, { headers });
      expect(answer.status, url).toBe(503);
      expect(answer.headers.get("content-type"), url).toMatch(/^application\/json/);
      expect(answer.body.message, url).toMatch(
        /^Could not read the result's rows in object storage \(s3:\/\/results\/outage\): /,
      );
      expect(answer.text, url).not.toMatch(/\n\s+at |S3RVER/);
    }
    expect((await admin.get("/api/session")).status).toBe(200);
  });

  it("cuts a download short, without hanging, when the store goes away in the middle", async () => {
    const id = await runToResult(admin, dataSourceId, QUERY);
    for (const encoding of ["identity", "gzip"]) {
      if (s3Closed) {
        // A store again for the second download: the same objects are gone, so write anew.
        s3 = await startTestS3();
        s3Closed = false;
        await useResultsStorage(
          server.ctx.database.db,
          loadConfig({ ...s3.env, SIGHTLINE_RESULTS_URL: `s3://${s3.bucket}/outage` })
            .resultsStorage,
        );
      }
      const resultId =
        encoding === "identity" ? id : await runToResult(admin, dataSourceId, `${QUERY} -- again`);
      const url = `/api/query_results/${resultId}.${encoding === "identity" ? "csv" : "json"}`;
      const cookie = [...admin.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
      const response = await fetch(admin.baseUrl + url, {
        headers: { cookie, "accept-encoding": encoding },
      });
      expect(response.status).toBe(200);
      const reader = response.body!.getReader();
      let bytes = (await reader.read()).value?.byteLength ?? 0;
      await stopStore();
      const started = Date.now();
      const rest = (async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return bytes;
          bytes += value.byteLength;
        }
      })();
      // The answer ends in an error (its end is missing), not as a complete file, and soon.
      await expect(rest).rejects.toThrow();
      expect(Date.now() - started).toBeLessThan(30_000);
      expect(bytes).toBeLessThan(40_000_000);
    }
    expect((await admin.get("/api/session")).status).toBe(200);
  });

  it("fails a write with a clear message when the store goes away in the middle", async () => {
    const orgId = (
      await server.ctx.database.db
        .selectFrom("organizations")
        .select("id")
        .executeTakeFirstOrThrow()
    ).id;
    let batches = 0;
    async function* rows() {
      for (let start = 0; start < 400_000; start += 20_000) {
        // Two objects (100,000 rows each) are stored, then the store goes away.
        if (batches === 11) await stopStore();
        batches += 1;
        yield Array.from({ length: 20_000 }, (_, i) => [start + i, `row ${start + i}`]);
      }
    }
    const write = writeResult(server.ctx.database.db, {
      orgId,
      dataSourceId,
      queryHash: "outage",
      query: "written while the store goes away",
      columns: [
        { name: "id", friendly_name: "id", type: "integer" },
        { name: "name", friendly_name: "name", type: "string" },
      ],
      batches: rows(),
      startedAt: Date.now(),
      limits: DEFAULT_RESULT_LIMITS,
    });
    await expect(write).rejects.toThrow(
      /^Could not store the result's rows in object storage \(s3:\/\/results\/outage\): /,
    );
    expect(batches).toBeGreaterThan(11);
    // No result anyone can see: at most a pending row that the cleanup deletes once the store
    // is back (its objects could not be deleted now).
    const left = await server.ctx.database.db
      .selectFrom("query_results")
      .select("query_hash")
      .where("query", "=", "written while the store goes away")
      .execute();
    for (const row of left) expect(row.query_hash).toMatch(/^pending:/);
  });
});
