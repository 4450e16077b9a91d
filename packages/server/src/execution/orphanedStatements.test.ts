import crypto from "node:crypto";
import mysql from "mysql2/promise";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDataSource, setUpAndLogin, type TestClient } from "../testing/httpClient";
import { startSightline, waitUntil, type ChildHandle } from "../testing/processes";
import {
  TEST_MYSQL_URL,
  TEST_PG_URL,
  TEST_REDIS_URL,
  deleteRedisKeys,
  postgresAvailable,
  redisAvailable,
} from "../testing/services";
import { startTestServer, type TestServer } from "../testing/testServer";

const READY = (await redisAvailable()) && (await postgresAvailable());

async function pgStatements(marker: string): Promise<number> {
  const client = new pg.Client({ connectionString: TEST_PG_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      "SELECT COUNT(*) AS n FROM pg_stat_activity WHERE state = 'active' AND query LIKE $1 AND pid <> pg_backend_pid()",
      [`%${marker}%`],
    );
    return Number(rows[0]!.n);
  } finally {
    await client.end();
  }
}

async function mysqlStatements(marker: string): Promise<number> {
  const connection = await mysql.createConnection(TEST_MYSQL_URL);
  try {
    const [rows] = await connection.query(
      "SELECT COUNT(*) AS n FROM information_schema.processlist WHERE command = 'Query' AND info LIKE ? AND id <> CONNECTION_ID()",
      [`%${marker}%`],
    );
    return Number((rows as { n: number }[])[0]!.n);
  } finally {
    await connection.end();
  }
}

/** Ends what a failing run left behind (a computation would go on for hours). */
async function killStatements(marker: string): Promise<void> {
  const connection = await mysql.createConnection(TEST_MYSQL_URL);
  try {
    const [rows] = await connection.query(
      "SELECT id FROM information_schema.processlist WHERE info LIKE ? AND id <> CONNECTION_ID()",
      [`%${marker}%`],
    );
    for (const { id } of rows as { id: number }[]) {
      await connection.query(`KILL QUERY ${Number(id)}`).catch(() => undefined);
    }
  } finally {
    await connection.end();
  }
}

/**
 * Issue 24: a real `sightline worker` process is killed in the middle of a query. Nobody is left
 * to cancel the statement, so the data source's database must end it itself: PostgreSQL when it
 * sees the client gone, MySQL/MariaDB at the query's time limit.
 */
describe.runIf(READY)("a worker killed mid-query leaves no statement behind", () => {
  const prefix = `sltest_orphan_${crypto.randomBytes(4).toString("hex")}`;
  let server: TestServer;
  let admin: TestClient;
  const workers: ChildHandle[] = [];

  beforeAll(async () => {
    server = await startTestServer("sqlite", {
      SIGHTLINE_REDIS_URL: TEST_REDIS_URL,
      SIGHTLINE_REDIS_PREFIX: prefix,
    });
    admin = await setUpAndLogin(server.url);
  });

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await server?.close();
    await deleteRedisKeys(prefix);
  });

  /** Runs `text` through a new worker process, kills it once the statement runs, and answers
   * how long after the kill the database still ran the statement (ms). */
  async function killMidQuery(
    sourceId: number,
    text: string,
    running: () => Promise<number>,
  ): Promise<number> {
    const worker = startSightline("worker", {
      SIGHTLINE_DATA_DIR: server.dataDir,
      SIGHTLINE_SECRET_KEY: server.config.secretKey!,
      SIGHTLINE_REDIS_URL: TEST_REDIS_URL,
      SIGHTLINE_REDIS_PREFIX: prefix,
      SIGHTLINE_WORKER_LOCK_SECONDS: "3",
      SIGHTLINE_LOG_LEVEL: "error",
    });
    workers.push(worker);
    const run = await admin.post("/api/query_results", {
      data_source_id: sourceId,
      query: text,
      max_age: 0,
    });
    expect(run.status, run.text).toBe(200);
    // The worker process starts (tsx compiles on start: slow on a loaded machine) and runs it.
    await waitUntil(async () => (await running()) > 0, 180_000, "the statement to run").catch(
      (error: Error) => {
        throw new Error(`${error.message}\n${worker.output()}`);
      },
    );
    worker.child.kill("SIGKILL");
    const killedAt = Date.now();
    await waitUntil(async () => (await running()) === 0, 30_000, "the statement to end");
    return Date.now() - killedAt;
  }

  it(
    "PostgreSQL ends the statement of a killed worker within seconds, long before its time limit",
    {
      timeout: 400_000,
    },
    async () => {
      const url = new URL(TEST_PG_URL);
      const sourceId = await createDataSource(admin, "warehouse", "pg", {
        host: url.hostname,
        port: Number(url.port || 5432),
        user: decodeURIComponent(url.username),
        password: decodeURIComponent(url.password),
        dbname: url.pathname.slice(1),
        sslmode: "disable",
        timeout: 300,
      });
      const marker = `orphan_pg_${crypto.randomBytes(4).toString("hex")}`;
      const ranOnFor = await killMidQuery(sourceId, `SELECT pg_sleep(60) AS ${marker}`, () =>
        pgStatements(marker),
      );
      expect(ranOnFor).toBeLessThan(15_000);
    },
  );

  it(
    "MySQL/MariaDB ends the statement of a killed worker at the query's time limit",
    {
      timeout: 400_000,
    },
    async () => {
      const url = new URL(TEST_MYSQL_URL);
      const sourceId = await createDataSource(admin, "shop", "mysql", {
        host: url.hostname,
        port: Number(url.port || 3306),
        user: decodeURIComponent(url.username),
        passwd: decodeURIComponent(url.password),
        db: url.pathname.slice(1),
        timeout: 4,
      });
      const marker = `orphan_my_${crypto.randomBytes(4).toString("hex")}`;
      try {
        // Busy work, not SLEEP(): MariaDB ends a SLEEP() whose client left, but not a computation.
        const ranOnFor = await killMidQuery(
          sourceId,
          `SELECT BENCHMARK(100000000000, MD5('x')) AS ${marker}`,
          () => mysqlStatements(marker),
        );
        // The limit is the query's 4 s plus 2 s of grace, counted from the statement's start.
        expect(ranOnFor).toBeLessThan(15_000);
      } finally {
        await killStatements(marker);
      }
    },
  );
});
