import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDataSource, setUpAndLogin, type TestClient } from "../testing/httpClient";
import {
  freePort,
  startProcess,
  startSightline,
  waitUntil,
  type ChildHandle,
} from "../testing/processes";
import { TEST_PG_URL, postgresAvailable } from "../testing/services";
import { startTestServer, type TestServer } from "../testing/testServer";

const REDIS_SERVER = "/usr/bin/redis-server";
const READY = fs.existsSync(REDIS_SERVER) && (await postgresAvailable());

/** A throwaway Redis without persistence: a restart loses every key, as the probe's did. */
function startRedis(port: number, dir: string): ChildHandle {
  return startProcess(
    REDIS_SERVER,
    [
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
      "--dir",
      dir,
    ],
    { PATH: process.env.PATH, HOME: dir },
  );
}

async function waitForRedis(handle: ChildHandle): Promise<void> {
  await waitUntil(
    () => handle.output().includes("Ready to accept connections"),
    10_000,
    "redis-server",
  );
}

/**
 * Issue 24: Redis restarts (losing its keys) while a real `sightline worker` process runs a
 * query. The worker finishes and stores the result; the poll must then answer done with that
 * result, not 404 "Job not found".
 */
describe.runIf(READY)("a Redis restart during a run", { timeout: 400_000 }, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sightline-redis-"));
  let redisPort = 0;
  let redis: ChildHandle | null = null;
  let server: TestServer;
  let worker: ChildHandle | null = null;
  let admin: TestClient;
  let sourceId: number;

  beforeAll(async () => {
    redisPort = await freePort();
    redis = startRedis(redisPort, dir);
    await waitForRedis(redis);
    const redisUrl = `redis://127.0.0.1:${redisPort}`;
    server = await startTestServer("sqlite", { SIGHTLINE_REDIS_URL: redisUrl });
    admin = await setUpAndLogin(server.url);
    const pg = new URL(TEST_PG_URL);
    sourceId = await createDataSource(admin, "warehouse", "pg", {
      host: pg.hostname,
      port: Number(pg.port || 5432),
      user: decodeURIComponent(pg.username),
      password: decodeURIComponent(pg.password),
      dbname: pg.pathname.slice(1),
      sslmode: "disable",
    });
    worker = startSightline("worker", {
      SIGHTLINE_DATA_DIR: server.dataDir,
      SIGHTLINE_SECRET_KEY: server.config.secretKey!,
      SIGHTLINE_REDIS_URL: redisUrl,
      SIGHTLINE_LOG_LEVEL: "warn",
    });
  });

  afterAll(async () => {
    await worker?.stop();
    await server?.close();
    await redis?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("answers done with the stored result once the worker has finished", async () => {
    const text = `SELECT pg_sleep(4), 42 AS answer -- ${crypto.randomBytes(4).toString("hex")}`;
    const run = await admin.post("/api/query_results", {
      data_source_id: sourceId,
      query: text,
      max_age: 0,
    });
    expect(run.status, run.text).toBe(200);
    const jobId: string = run.body.job.id;
    // The worker process starts (tsx compiles on start: slow on a loaded machine) and takes it.
    await waitUntil(
      async () => (await admin.get(`/api/jobs/${jobId}`)).body.job?.status === 2,
      180_000,
      "the worker to take the job",
    );

    // Redis restarts on the same port with nothing in it.
    await redis!.stop();
    redis = startRedis(redisPort, dir);
    await waitForRedis(redis);

    let last: { status: number; text: string } = { status: 0, text: "" };
    await waitUntil(
      async () => {
        const poll = await admin.get(`/api/jobs/${jobId}`);
        last = poll;
        return poll.status === 200 && poll.body.job.status === 3;
      },
      30_000,
      "the job to answer done",
    ).catch((error: Error) => {
      throw new Error(`${error.message}: ${last.status} ${last.text}\n${worker!.output()}`);
    });
    const done = await admin.get(`/api/jobs/${jobId}`);
    expect(done.body.job).toMatchObject({ id: jobId, status: 3, error: "" });
    const resultId: number = done.body.job.query_result_id;
    expect(resultId).toBeGreaterThan(0);
    const result = await admin.get(`/api/query_results/${resultId}`);
    expect(result.status).toBe(200);
    expect(result.body.query_result.data.rows[0].answer).toBe(42);

    // The worker lived through it and takes new work.
    expect(worker!.alive(), worker!.output()).toBe(true);
    const again = await admin.post("/api/query_results", {
      data_source_id: sourceId,
      query: `SELECT 7 AS n -- ${crypto.randomBytes(4).toString("hex")}`,
      max_age: 0,
    });
    expect(again.status, again.text).toBe(200);
    if (!again.body.query_result) {
      await waitUntil(
        async () => (await admin.get(`/api/jobs/${again.body.job.id}`)).body.job.status === 3,
        30_000,
        "a new run after the restart",
      );
    }
  });
});
