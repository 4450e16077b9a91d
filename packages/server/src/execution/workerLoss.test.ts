import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setUpAndLogin, type TestClient } from "../testing/httpClient";
import {
  TEST_PG_URL,
  TEST_REDIS_URL,
  postgresAvailable,
  redisAvailable,
  deleteRedisKeys,
} from "../testing/services";
import { startTestServer, type TestServer } from "../testing/testServer";
import { WORKER_LOST_MESSAGE } from "./types";

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../bin/sightline.js");

const READY = (await redisAvailable()) && (await postgresAvailable());

/**
 * Scaled mode, issue 14: the only worker, a real `sightline worker` process, is killed with
 * SIGKILL in the middle of a query. No other worker is left to run BullMQ's stalled-job check;
 * the API server itself must notice the lapsed job lock when the job is polled.
 */
describe.runIf(READY)("a worker killed mid-query", { timeout: 150_000 }, () => {
  const prefix = `sltest_kill_${crypto.randomBytes(4).toString("hex")}`;
  let server: TestServer;
  let admin: TestClient;
  let worker: ChildProcess | null = null;
  let sourceId: number;

  beforeAll(async () => {
    server = await startTestServer("sqlite", {
      SIGHTLINE_REDIS_URL: TEST_REDIS_URL,
      SIGHTLINE_REDIS_PREFIX: prefix,
    });
    admin = await setUpAndLogin(server.url);
    const pg = new URL(TEST_PG_URL);
    const source = await admin.post("/api/data_sources", {
      name: "warehouse",
      type: "pg",
      options: {
        host: pg.hostname,
        port: Number(pg.port || 5432),
        user: decodeURIComponent(pg.username),
        password: decodeURIComponent(pg.password),
        dbname: pg.pathname.slice(1),
        sslmode: "disable",
      },
    });
    expect(source.status).toBe(200);
    sourceId = source.body.id;
    // The worker shares the server's metadata file, key and Redis; its job lock lasts 3 s
    // (renewed about every second while it lives) so the test need not wait the default 20 s.
    worker = spawn(process.execPath, [BIN, "worker"], {
      env: {
        ...process.env,
        SIGHTLINE_DATA_DIR: server.dataDir,
        SIGHTLINE_SECRET_KEY: server.config.secretKey!,
        SIGHTLINE_REDIS_URL: TEST_REDIS_URL,
        SIGHTLINE_REDIS_PREFIX: prefix,
        SIGHTLINE_WORKER_LOCK_SECONDS: "3",
        SIGHTLINE_LOG_LEVEL: "error",
      },
      stdio: "ignore",
    });
  });

  afterAll(async () => {
    if (worker && worker.exitCode === null && worker.signalCode === null) worker.kill("SIGKILL");
    await server?.close();
    await deleteRedisKeys(prefix);
  });

  it("fails its job with a clear message within 30 s, with no other worker alive", async () => {
    const text = `SELECT pg_sleep(60) AS slept -- ${prefix}`;
    const run = await admin.post("/api/query_results", {
      data_source_id: sourceId,
      query: text,
      max_age: 0,
    });
    expect(run.status).toBe(200);
    const jobId: string = run.body.job.id;
    // The worker process starts (tsx compiles on start: slow on a loaded machine) and takes it.
    await expect
      .poll(async () => (await admin.get(`/api/jobs/${jobId}`)).body.job.status, {
        timeout: 90_000,
        interval: 250,
      })
      .toBe(2);

    const exited = new Promise((resolve) => worker!.once("exit", resolve));
    worker!.kill("SIGKILL");
    await exited;

    await expect
      .poll(async () => (await admin.get(`/api/jobs/${jobId}`)).body.job, {
        timeout: 30_000,
        interval: 500,
      })
      .toMatchObject({ status: 4, error: WORKER_LOST_MESSAGE, query_result_id: null });

    // The same text runs again as a new job, not joined to the lost one.
    const again = await admin.post("/api/query_results", {
      data_source_id: sourceId,
      query: text,
      max_age: 0,
    });
    expect(again.body.job.id).not.toBe(jobId);
    expect(again.body.job.status).toBe(1);
    expect((await admin.delete(`/api/jobs/${again.body.job.id}`)).status).toBe(200);
  });
});
