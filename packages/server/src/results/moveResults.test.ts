import { execFile } from "node:child_process";
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { objectChunkStore } from "./chunkStore";
import { moveResults } from "./moveResults";
import { useResultsStorage } from "./resultsStorage";
import { loadConfig } from "../config";
import { metadataDatabases } from "../testing/services";
import { SIGHTLINE_BIN } from "../testing/processes";
import { startTestS3, type TestS3 } from "../testing/s3Server";
import { createDataSource, type TestClient } from "../testing/httpClient";
import { runToResult, startWithAdmin } from "../testing/apiServer";
import type { TestServer } from "../testing/testServer";

// `sightline results move`: existing results' chunks go from the metadata database to object
// storage (s3rver) and back, resumably, and read the same through the HTTP API all along.

const DATABASES = await metadataDatabases();

describe.each(DATABASES)("moving results on %s", { timeout: 120_000 }, (db) => {
  let s3: TestS3;
  let server: TestServer;
  let admin: TestClient;
  let ids: number[];
  const bodies = new Map<number, string>();
  const prefix = `moves/${db}`;

  beforeAll(async () => {
    s3 = await startTestS3();
    ({ server, admin } = await startWithAdmin(db));
    fs.mkdirSync(server.config.fileDataDir!, { recursive: true });
    const source = await createDataSource(admin, "memory", "duckdb", { dbpath: ":memory:" });
    ids = [
      await runToResult(admin, source, "SELECT i AS id FROM range(20000) t(i)"),
      await runToResult(admin, source, "SELECT 'a' AS letter"),
      await runToResult(admin, source, "SELECT 2 AS two, 'b' AS bee"),
    ];
    for (const id of ids) bodies.set(id, (await admin.get(`/api/query_results/${id}.csv`)).text);
  });

  afterAll(async () => {
    await server?.close();
    await s3?.close();
  });

  const rows = () =>
    server.ctx.database.db
      .selectFrom("query_results")
      .select(["id", "chunk_location"])
      .where("id", "in", ids)
      .orderBy("id")
      .execute();
  const chunkRows = async (id: number) =>
    (
      await server.ctx.database.db
        .selectFrom("query_result_chunks")
        .select("seq")
        .where("result_id", "=", id)
        .execute()
    ).length;
  const readsTheSame = async () => {
    for (const id of ids) {
      expect((await admin.get(`/api/query_results/${id}.csv`)).text).toBe(bodies.get(id));
    }
  };

  it("moves results to object storage, resuming after an interruption, and back", async () => {
    const storage = loadConfig({
      ...s3.env,
      SIGHTLINE_RESULTS_URL: `s3://${s3.bucket}/${prefix}`,
    }).resultsStorage;
    await useResultsStorage(server.ctx.database.db, storage);
    const store = objectChunkStore(server.ctx.database.db)!;
    // A move of the second result that was cut short left a stray object behind.
    await store.put(
      server.ctx.database.db,
      { resultId: ids[1]!, location: store.newLocation(`moved-${ids[1]}`) },
      { seq: 0, rowCount: 1, data: Buffer.from('{"stale":1}') },
    );

    const progress: number[] = [];
    await expect(
      moveResults(server.ctx.database.db, {
        onMoved: (m) => {
          progress.push(m.resultId);
          throw new Error("interrupted");
        },
      }),
    ).rejects.toThrow("interrupted");
    expect(progress).toEqual([ids[0]]);
    let now = await rows();
    expect(now[0]!.chunk_location).toBe(`s3://${s3.bucket}/${prefix}/moved-${ids[0]}`);
    expect(now[1]!.chunk_location).toBeNull();
    expect(await chunkRows(ids[0]!)).toBe(0);
    await readsTheSame();

    // The rerun skips the moved result and redoes the interrupted one.
    expect(await moveResults(server.ctx.database.db)).toEqual({ moved: 2 });
    now = await rows();
    expect(now.every((r) => r.chunk_location?.startsWith(`s3://${s3.bucket}/${prefix}/`))).toBe(
      true,
    );
    for (const id of ids) expect(await chunkRows(id)).toBe(0);
    await readsTheSame();
    expect(await moveResults(server.ctx.database.db)).toEqual({ moved: 0 });

    // And back.
    expect(await moveResults(server.ctx.database.db, { toDatabase: true })).toEqual({ moved: 3 });
    expect((await rows()).every((r) => r.chunk_location === null)).toBe(true);
    expect(s3.keys().filter((k) => k.startsWith(`${prefix}/`))).toEqual([]);
    await readsTheSame();
  });

  it.skipIf(db !== "sqlite")("runs as `sightline results move`, printing progress", async () => {
    // Not spawnSync: s3rver answers from this process.
    const run = (args: string[]) =>
      new Promise<{ status: number; stdout: string; stderr: string }>((resolve) => {
        execFile(
          process.execPath,
          [SIGHTLINE_BIN, "results", "move", ...args],
          {
            env: {
              ...process.env,
              ...s3.env,
              SIGHTLINE_LOG_LEVEL: "error",
              SIGHTLINE_DATA_DIR: server.dataDir,
              SIGHTLINE_DATABASE_URL: server.config.databaseUrl,
              SIGHTLINE_RESULTS_URL: `s3://${s3.bucket}/${prefix}`,
            },
            encoding: "utf8",
            timeout: 60_000,
          },
          (error, stdout, stderr) =>
            resolve({ status: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
        );
      });
    const moved = await run([]);
    expect(moved.stderr).not.toContain("rror");
    expect(moved.status).toBe(0);
    expect(moved.stdout).toContain(`[1/3] result ${ids[0]} (`);
    expect(moved.stdout).toContain(`moved to s3://${s3.bucket}/${prefix}`);
    expect(moved.stdout).toContain("Done: 3 results moved");
    expect((await run([])).stdout).toContain("Done: 0 results moved");
    const back = await run(["--to-database"]);
    expect(back.status).toBe(0);
    expect(back.stdout).toContain("Done: 3 results moved to the metadata database.");
    expect((await run(["--bogus"])).status).toBe(2);
  });
});
