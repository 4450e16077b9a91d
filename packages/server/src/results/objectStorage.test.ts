import crypto from "node:crypto";
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { purgeUnusedResults } from "./cache";
import { objectChunkStore } from "./chunkStore";
import { DEFAULT_RESULT_LIMITS } from "./limits";
import { ResultTooLargeError, writeResult } from "./resultStore";
import { useResultsStorage } from "./resultsStorage";
import { forgetResults } from "./recentResults";
import { loadConfig } from "../config";
import { metadataDatabases } from "../testing/services";
import { freePort } from "../testing/processes";
import { startTestS3, type TestS3 } from "../testing/s3Server";
import { createDataSource, type TestClient } from "../testing/httpClient";
import { runToResult, settledJob, startWithAdmin } from "../testing/apiServer";
import type { TestServer } from "../testing/testServer";

// Results kept in an S3-compatible store (s3rver, a real HTTP server) through the HTTP API, on
// both metadata stores: the metadata database holds only the result's row.

const DATABASES = await metadataDatabases();
const ROWS = 300_000; // three objects (of 20 chunks of 5,000 rows or a few more each)
const QUERY = `SELECT i AS id, 'name ' || i AS name FROM range(${ROWS}) t(i)`;

async function startWithStore(
  db: "sqlite" | "postgres",
  env: Record<string, string>,
): Promise<{ server: TestServer; admin: TestClient; dataSourceId: number }> {
  const { server, admin } = await startWithAdmin(db, env);
  fs.mkdirSync(server.config.fileDataDir!, { recursive: true });
  const dataSourceId = await createDataSource(admin, "memory", "duckdb", { dbpath: ":memory:" });
  return { server, admin, dataSourceId };
}

describe.each(DATABASES)("results in object storage on %s", { timeout: 60_000 }, (db) => {
  let s3: TestS3;
  let server: TestServer;
  let admin: TestClient;
  let dataSourceId: number;
  const prefix = `sightline/${db}`;

  beforeAll(async () => {
    s3 = await startTestS3();
    ({ server, admin, dataSourceId } = await startWithStore(db, {
      ...s3.env,
      SIGHTLINE_RESULTS_URL: `s3://${s3.bucket}/${prefix}/`,
      SIGHTLINE_RESULT_DISPLAY_ROWS: "1000",
    }));
  });

  afterAll(async () => {
    await server?.close();
    await s3?.close();
  });

  const rowOf = (id: number) =>
    server.ctx.database.db
      .selectFrom("query_results")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirst();
  const getsUnder = (key: string) =>
    s3.requests.filter((r) => r.startsWith(`GET /${s3.bucket}/${key}/`)).length;
  const objectsUnder = (key: string) => s3.keys().filter((k) => k.startsWith(`${key}/`));

  it("writes a multi-chunk result as objects and reads it back as JSON and CSV", async () => {
    const id = await runToResult(admin, dataSourceId, QUERY);
    const row = (await rowOf(id))!;
    expect(row.chunk_location).toMatch(new RegExp(`^s3://${s3.bucket}/${prefix}/[0-9a-f-]{36}$`));
    const key = row.chunk_location!.slice(`s3://${s3.bucket}/`.length);
    // Objects numbered from 0, each holding several chunks.
    const objects = objectsUnder(key);
    expect(objects.length).toBeGreaterThanOrEqual(3);
    expect(objects).toEqual(Array.from({ length: objects.length }, (_, s) => `${key}/${s}`).sort());
    expect(row.chunk_count).toBeGreaterThan(objects.length);
    const inDatabase = await server.ctx.database.db
      .selectFrom("query_result_chunks")
      .select("seq")
      .where("result_id", "=", id)
      .execute();
    expect(inDatabase).toEqual([]);

    const json = await admin.get<{ query_result: { data: { rows: unknown[] } } }>(
      `/api/query_results/${id}.json`,
    );
    expect(json.status).toBe(200);
    const rows = json.body.query_result.data.rows;
    expect(rows).toHaveLength(ROWS);
    expect(rows[0]).toEqual({ id: 0, name: "name 0" });
    expect(rows[ROWS - 1]).toEqual({ id: ROWS - 1, name: `name ${ROWS - 1}` });

    const csv = await admin.get(`/api/query_results/${id}.csv`);
    expect(csv.status).toBe(200);
    const lines = csv.text.split("\r\n");
    expect(lines[0]).toBe("id,name");
    expect(lines[ROWS]).toBe(`${ROWS - 1},name ${ROWS - 1}`);
    expect(lines).toHaveLength(ROWS + 2);

    // System Status counts it in object storage, with its JSON size.
    const status = await admin.get("/status.json");
    const storage = status.body.query_results_storage;
    expect(storage.new_results_in).toBe("object_storage");
    expect(storage.object_storage.count).toBeGreaterThanOrEqual(1);
    expect(storage.object_storage.size).toBeGreaterThanOrEqual(Number(row.byte_size));
    expect(storage.object_storage.stored_size).toBeNull();
    expect(storage.metadata_database.stored_size).toBe(0);
    expect(status.body.database_metrics.metrics).toContainEqual([
      "Query Results in Object Storage",
      storage.object_storage.size,
    ]);
  });

  it("reads only the first object for the first page of a big result", async () => {
    const id = await runToResult(admin, dataSourceId, QUERY);
    const row = (await rowOf(id))!;
    const key = row.chunk_location!.slice(`s3://${s3.bucket}/`.length);
    const before = getsUnder(key);
    const page = await admin.get<{ query_result: { data: { rows: unknown[] } } }>(
      `/api/query_results/${id}`,
    );
    expect(page.status).toBe(200);
    expect(page.body.query_result.data.rows).toHaveLength(1000);
    expect(getsUnder(key) - before).toBe(1);
    // The whole download reads them all, one request each.
    await admin.get(`/api/query_results/${id}.json`);
    expect(getsUnder(key) - before).toBe(1 + objectsUnder(key).length);
  });

  it("reads an object's first chunks alone with ranged requests", async () => {
    const db = server.ctx.database.db;
    const store = objectChunkStore(db)!;
    const place = { resultId: 0, location: store.newLocation() };
    const key = place.location!.slice(`s3://${s3.bucket}/`.length);
    // Three chunks of 1,000 rows (random bytes: the store does not look inside), one object.
    const chunks = [200_000, 400_000, 300_000].map((bytes, seq) => ({
      seq,
      rowCount: 1000,
      data: crypto.randomBytes(bytes),
    }));
    const digest = (data: Uint8Array) => crypto.createHash("sha256").update(data).digest("hex");
    const writer = store.writer(db, place);
    for (const chunk of chunks) await writer.put(chunk);
    await writer.finish();
    expect(objectsUnder(key)).toEqual([`${key}/0`]);
    const read = async (maxRows: number) => {
      const before = getsUnder(key);
      const got: string[] = [];
      for await (const chunk of store.read(db, place, chunks.length, maxRows)) {
        got.push(digest(chunk.data));
      }
      return { got, gets: getsUnder(key) - before };
    };
    const data = chunks.map((c) => digest(c.data));
    // A few rows: the first range (256 KB) holds the first chunk.
    expect(await read(10)).toEqual({ got: data.slice(0, 1), gets: 1 });
    // The second chunk ends past it: one more ranged request, from the first chunk's end.
    expect(await read(1500)).toEqual({ got: data.slice(0, 2), gets: 2 });
    expect(await read(Number.POSITIVE_INFINITY)).toEqual({ got: data, gets: 1 });
    await store.remove(db, [place]);
    expect(objectsUnder(key)).toEqual([]);
  });

  it("deletes the objects of results the cleanup removes", async () => {
    const id = await runToResult(admin, dataSourceId, QUERY);
    const key = (await rowOf(id))!.chunk_location!.slice(`s3://${s3.bucket}/`.length);
    expect(objectsUnder(key).length).toBeGreaterThanOrEqual(3);
    const later = new Date(Date.now() + 30 * 86_400_000);
    expect(await purgeUnusedResults(server.ctx.database.db, { now: later })).toBeGreaterThan(0);
    expect(await rowOf(id)).toBeUndefined();
    expect(s3.keys().filter((k) => k.startsWith(`${key}/`))).toEqual([]);
  });

  it("deletes a deleted data source's result objects", async () => {
    const doomed = await createDataSource(admin, "doomed", "duckdb", { dbpath: ":memory:" });
    const id = await runToResult(admin, doomed, QUERY);
    const key = (await rowOf(id))!.chunk_location!.slice(`s3://${s3.bucket}/`.length);
    expect(objectsUnder(key).length).toBeGreaterThanOrEqual(3);
    expect((await admin.delete(`/api/data_sources/${doomed}`)).status).toBe(204);
    expect(await rowOf(id)).toBeUndefined();
    expect(s3.keys().filter((k) => k.startsWith(`${key}/`))).toEqual([]);
  });

  it("leaves no objects behind when a write fails after some chunks were uploaded", async () => {
    const before = s3.keys();
    async function* rows() {
      for (let start = 0; start < 400_000; start += 1000) {
        yield Array.from({ length: 1000 }, (_, i) => [start + i, `row ${start + i}`]);
      }
    }
    await expect(
      writeResult(server.ctx.database.db, {
        orgId: (
          await server.ctx.database.db
            .selectFrom("organizations")
            .select("id")
            .executeTakeFirstOrThrow()
        ).id,
        dataSourceId,
        queryHash: "too-big",
        query: "too big",
        columns: [
          { name: "id", friendly_name: "id", type: "integer" },
          { name: "name", friendly_name: "name", type: "string" },
        ],
        batches: rows(),
        startedAt: Date.now(),
        limits: { ...DEFAULT_RESULT_LIMITS, maxBytes: 8_000_000 },
      }),
    ).rejects.toThrow(ResultTooLargeError);
    // Objects of 100,000 rows (~3.3 MB of text) were uploaded before the cap was met.
    expect(s3.requests.some((r) => r.startsWith("PUT ") && r.includes("/1?"))).toBe(true);
    expect(s3.keys()).toEqual(before);
    expect(
      await server.ctx.database.db
        .selectFrom("query_results")
        .select("id")
        .where("query", "=", "too big")
        .execute(),
    ).toEqual([]);
  });

  it("answers a clear error when the store cannot be reached, and keeps serving", async () => {
    const big = await runToResult(admin, dataSourceId, QUERY);
    // A small result, forgotten from memory so that it is read from the store.
    const small = await runToResult(admin, dataSourceId, "SELECT 1 AS one");
    forgetResults(server.ctx.database.db, [small]);
    const unreachable = loadConfig({
      ...s3.env,
      AWS_ENDPOINT_URL: `http://127.0.0.1:${await freePort()}`,
      SIGHTLINE_RESULTS_URL: `s3://${s3.bucket}/${prefix}`,
    }).resultsStorage;
    await useResultsStorage(server.ctx.database.db, unreachable);
    try {
      const read = await admin.get<{ message: string }>(`/api/query_results/${small}.json`);
      expect(read.status).toBe(503);
      expect(read.body.message).toContain("Could not read the result's rows in object storage");
      // A big one is streamed, but only after its first object was read: a 503 too.
      const bigRead = await admin.get<{ message: string }>(`/api/query_results/${big}.csv`);
      expect(bigRead.status).toBe(503);
      expect(bigRead.body.message).toContain("Could not read the result's rows in object storage");
      const run = await admin.post("/api/query_results", {
        data_source_id: dataSourceId,
        query: `${QUERY} -- unreachable`,
        max_age: 0,
      });
      const job = await settledJob(admin, run.body);
      expect(job.status).toBe(4);
      expect(job.error).toContain("Could not store the result's rows in object storage");
      expect(job.error).not.toContain("S3RVER");
      expect((await admin.get("/api/session")).status).toBe(200);
    } finally {
      await useResultsStorage(server.ctx.database.db, server.config.resultsStorage);
    }
    // Nothing was left behind by the failed write.
    expect(
      await server.ctx.database.db
        .selectFrom("query_results")
        .select("id")
        .where("query", "like", "%unreachable%")
        .execute(),
    ).toEqual([]);
  });
});

describe("SIGHTLINE_RESULTS_URL", () => {
  it("reads the bucket, prefix and AWS settings, and refuses bad values", () => {
    expect(loadConfig({}).resultsStorage).toBeNull();
    expect(
      loadConfig({
        SIGHTLINE_RESULTS_URL: "s3://my-bucket/a/b/",
        AWS_ENDPOINT_URL: "http://127.0.0.1:9000",
        AWS_REGION: "eu-west-1",
      }).resultsStorage,
    ).toEqual({
      url: "s3://my-bucket/a/b/",
      bucket: "my-bucket",
      prefix: "a/b",
      endpoint: "http://127.0.0.1:9000",
      region: "eu-west-1",
      accessKeyId: null,
      secretAccessKey: null,
    });
    expect(loadConfig({ SIGHTLINE_RESULTS_URL: "s3://bucket" }).resultsStorage?.prefix).toBe("");
    expect(() => loadConfig({ SIGHTLINE_RESULTS_URL: "https://bucket/x" })).toThrow(
      'SIGHTLINE_RESULTS_URL must look like s3://bucket/prefix, got "https://bucket/x"',
    );
    expect(() =>
      loadConfig({ SIGHTLINE_RESULTS_URL: "s3://bucket", AWS_ENDPOINT_URL: "minio:9000" }),
    ).toThrow("AWS_ENDPOINT_URL must be an http(s) URL");
  });
});
