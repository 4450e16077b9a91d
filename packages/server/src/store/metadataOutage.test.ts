import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDataSource, setUpAndLogin, type TestClient } from "../testing/httpClient";
import {
  freePort,
  startSightline,
  waitForServer,
  waitUntil,
  type ChildHandle,
} from "../testing/processes";
import {
  TEST_PG_URL,
  TEST_REDIS_URL,
  deleteRedisKeys,
  postgresAvailable,
  redisAvailable,
} from "../testing/services";
import { METADATA_UNAVAILABLE_MESSAGE } from "./outage";

const READY = (await postgresAvailable()) && (await redisAvailable());

interface Save {
  status: number;
  body: { id?: number; message?: string } | string;
  name: string;
  /** When the request was sent and when its answer came (ms). */
  started: number;
  at: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A statement on the test database (never on the one the test takes down). */
async function adminQuery(text: string, values: unknown[] = []): Promise<pg.QueryResult> {
  const admin = new pg.Client({ connectionString: TEST_PG_URL });
  await admin.connect();
  try {
    return await admin.query(text, values);
  } finally {
    await admin.end();
  }
}

/** Ends every connection to `database` but the caller's; the number ended. */
async function terminateBackends(database: string): Promise<number> {
  const result = await adminQuery(
    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
    [database],
  );
  return result.rowCount ?? 0;
}

/**
 * Issue 24: a scaled deployment (`sightline server`, `worker` and `scheduler`, real processes) on
 * its own PostgreSQL metadata database loses every metadata connection in the middle of a stream
 * of saves and runs, as a database restart, a failover or a proxy's idle timeout does. Nothing may
 * crash, requests in the gap answer 503 with a message, and the service answers again by itself.
 */
describe.runIf(READY)("losing the metadata database's connections", { timeout: 600_000 }, () => {
  const suffix = crypto.randomBytes(4).toString("hex");
  const database = `sightline_outage_test_${suffix}`;
  const prefix = `sltest_outage_${suffix}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sightline-outage-"));
  let server: ChildHandle | null = null;
  let worker: ChildHandle | null = null;
  let scheduler: ChildHandle | null = null;
  let url = "";
  let admin: TestClient;
  let sourceId: number;
  const secretKey = crypto.randomBytes(32).toString("hex");

  beforeAll(async () => {
    await adminQuery(`CREATE DATABASE ${database}`);
    const metadataUrl = new URL(TEST_PG_URL);
    metadataUrl.pathname = `/${database}`;
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    const env = {
      SIGHTLINE_DATABASE_URL: metadataUrl.toString(),
      SIGHTLINE_DATA_DIR: dataDir,
      SIGHTLINE_SECRET_KEY: secretKey,
      SIGHTLINE_REDIS_URL: TEST_REDIS_URL,
      SIGHTLINE_REDIS_PREFIX: prefix,
      SIGHTLINE_PORT: String(port),
      SIGHTLINE_HOST: "127.0.0.1",
      SIGHTLINE_LOG_LEVEL: "warn",
    };
    server = startSightline("server", env);
    await waitForServer(url, server, 240_000);
    // Started once the server has migrated the new database.
    worker = startSightline("worker", env);
    scheduler = startSightline("scheduler", env);
    admin = await setUpAndLogin(url);
    sourceId = await createDataSource(admin, "results", "results", {});
  }, 300_000);

  afterAll(async () => {
    await Promise.all([server?.stop(), worker?.stop(), scheduler?.stop()]);
    await adminQuery(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await deleteRedisKeys(prefix);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** Runs a new query text through the worker and waits for its result. */
  async function runThroughWorker(label: string): Promise<void> {
    const run = await admin.post("/api/query_results", {
      data_source_id: sourceId,
      query: `SELECT '${label}' AS label`,
      max_age: 0,
    });
    expect(run.status, run.text).toBe(200);
    if (run.body.query_result) return;
    const jobId: string = run.body.job.id;
    let last: unknown = null;
    await waitUntil(
      async () => {
        const job = (await admin.get(`/api/jobs/${jobId}`)).body.job;
        last = job;
        return job.status === 3;
      },
      180_000,
      `job ${jobId} (${label})`,
    ).catch((error: Error) => {
      throw new Error(`${error.message}: ${JSON.stringify(last)}\n${worker?.output()}`);
    });
  }

  /** Saves queries from `loops` clients at once until stopped; every answer is kept. */
  function saveTraffic(loops: number) {
    const saves: Save[] = [];
    let stopped = false;
    let counter = 0;
    const loop = async () => {
      while (!stopped) {
        const name = `outage ${counter++}`;
        const started = Date.now();
        try {
          const res = await admin.post("/api/queries", {
            name,
            query: "SELECT 1 AS n",
            data_source_id: sourceId,
          });
          saves.push({
            status: res.status,
            body: res.body as Save["body"],
            name,
            started,
            at: Date.now(),
          });
          if (res.status !== 200) await sleep(50);
        } catch {
          saves.push({ status: 0, body: "no answer", name, started, at: Date.now() });
          await sleep(50);
        }
        // Runs keep the worker busy with metadata writes at the moment of the cut.
        if (counter % 5 === 0) {
          await admin
            .post("/api/query_results", {
              data_source_id: sourceId,
              query: `SELECT ${counter} AS n`,
              max_age: 0,
            })
            .catch(() => undefined);
        }
      }
    };
    const running = Array.from({ length: loops }, loop);
    return {
      saves,
      /** Goes on until an answer matches (or the time is up; the checks after say what failed). */
      until: (match: (save: Save) => boolean, ms: number) =>
        waitUntil(() => saves.some(match), ms, "a matching answer").catch(() => undefined),
      async stop() {
        stopped = true;
        await Promise.all(running);
      },
    };
  }

  /** Every answer was a success or a 503 with the message: never a 500 or a dropped connection. */
  function expectOnly200Or503(saves: Save[]) {
    const unexpected = saves.filter((s) => s.status !== 200 && s.status !== 503);
    expect(unexpected, server!.output()).toEqual([]);
    for (const save of saves.filter((s) => s.status === 503)) {
      expect(save.body).toEqual({ message: METADATA_UNAVAILABLE_MESSAGE });
    }
  }

  function expectAlive() {
    for (const handle of [server!, worker!, scheduler!]) {
      expect(handle.alive(), handle.output()).toBe(true);
    }
  }

  async function expectReadable(saves: Save[]) {
    const acknowledged = saves.filter((s) => s.status === 200);
    expect(acknowledged.length).toBeGreaterThan(0);
    for (const save of acknowledged) {
      const id = (save.body as { id: number }).id;
      const read = await admin.get(`/api/queries/${id}`);
      expect(read.status, read.text).toBe(200);
      expect(read.body.name).toBe(save.name);
    }
  }

  it("keeps every process alive when the connections are cut mid-traffic, and loses no acknowledged save", async () => {
    // The worker is up (tsx compiles on start: slow on a loaded machine).
    await runThroughWorker("before the cut");
    const traffic = saveTraffic(3);
    await sleep(1500);

    const cutAt = Date.now();
    let terminated = await terminateBackends(database);
    // Twice: the pools may have opened new connections meanwhile.
    await sleep(300);
    terminated += await terminateBackends(database);
    expect(terminated).toBeGreaterThan(0);
    await traffic.until((s) => s.status === 200 && s.started > cutAt + 500, 30_000);
    await traffic.stop();

    expectAlive();
    expectOnly200Or503(traffic.saves);
    // Saves succeed again within seconds of the cut.
    const firstAfter = traffic.saves.find((s) => s.status === 200 && s.at > cutAt + 500);
    expect(firstAfter).toBeDefined();
    // Generous for a loaded test machine; about a second on an idle one.
    expect(firstAfter!.at - cutAt).toBeLessThan(15_000);
    await expectReadable(traffic.saves);
    // The worker reconnected too: a new run goes through it.
    await runThroughWorker("after the cut");
  });

  it("answers 503 while the database refuses connections, and recovers by itself when it is back", async () => {
    const traffic = saveTraffic(2);
    await sleep(1000);
    // Closed to every new connection, and the open ones ended: as while a server restarts.
    await adminQuery(`ALTER DATABASE ${database} ALLOW_CONNECTIONS false`);
    const downAt = Date.now();
    await terminateBackends(database);
    await sleep(3000);
    await adminQuery(`ALTER DATABASE ${database} ALLOW_CONNECTIONS true`);
    const upAt = Date.now();
    await traffic.until((s) => s.status === 200 && s.started > upAt, 30_000);
    await traffic.stop();

    expectAlive();
    expectOnly200Or503(traffic.saves);
    const during = traffic.saves.filter((s) => s.started > downAt + 500 && s.at < upAt);
    expect(during.length).toBeGreaterThan(0);
    expect(during.every((s) => s.status === 503)).toBe(true);
    const firstAfter = traffic.saves.find((s) => s.status === 200 && s.at > upAt);
    expect(firstAfter).toBeDefined();
    expect(firstAfter!.at - upAt).toBeLessThan(15_000);
    await expectReadable(traffic.saves);
    await runThroughWorker("after the outage");

    // The outage is logged, without the secret key.
    const logs = server!.output() + worker!.output() + scheduler!.output();
    expect(server!.output()).toContain("metadata database");
    expect(logs).not.toContain(secretKey);
  });
});
