import crypto from "node:crypto";
import mysql from "mysql2/promise";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CANCELLED_MESSAGE, TIMEOUT_MESSAGE } from "../execution/types";
import { postgresAvailable, TEST_MYSQL_URL, TEST_PG_URL } from "../testing/services";
import { setUpAndLogin, type TestClient } from "../testing/httpClient";
import { startTestServer, type TestServer } from "../testing/testServer";

/**
 * Cancel and time limit end to end: a job on a real PostgreSQL or MariaDB data source, stopped
 * through DELETE /api/jobs/<id> or by the data source's `timeout`, is gone from the database.
 */

interface Engine {
  name: string;
  available: () => Promise<boolean>;
  type: string;
  options: Record<string, unknown>;
  sleep: (marker: string) => string;
  /** How many statements carrying the marker the database is running (other sessions). */
  running: (marker: string) => Promise<number>;
  close: () => Promise<void>;
}

const pgUrl = new URL(TEST_PG_URL);
let pgClient: Promise<pg.Client> | null = null;
const postgres: Engine = {
  name: "PostgreSQL",
  available: postgresAvailable,
  type: "pg",
  options: {
    host: pgUrl.hostname,
    port: Number(pgUrl.port || 5432),
    user: decodeURIComponent(pgUrl.username),
    password: decodeURIComponent(pgUrl.password),
    dbname: pgUrl.pathname.slice(1),
    sslmode: "disable",
  },
  sleep: (marker) => `SELECT pg_sleep(30) AS ${marker}`,
  async running(marker) {
    pgClient ??= (async () => {
      const client = new pg.Client({ connectionString: TEST_PG_URL });
      await client.connect();
      return client;
    })();
    const result = await (
      await pgClient
    ).query(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND state = 'active' AND query LIKE $1",
      [`%${marker}%`],
    );
    return result.rows[0].n as number;
  },
  close: async () => {
    await (await pgClient)?.end();
  },
};

const myUrl = new URL(TEST_MYSQL_URL);
let myConnection: mysql.Connection | null = null;
const mariadb: Engine = {
  name: "MySQL",
  async available() {
    try {
      const probe = await mysql.createConnection({ uri: TEST_MYSQL_URL, connectTimeout: 3000 });
      await probe.end();
      return true;
    } catch (error) {
      if (process.env.CI === "true") throw error;
      return false;
    }
  },
  type: "mysql",
  options: {
    host: myUrl.hostname,
    port: Number(myUrl.port || 3306),
    user: decodeURIComponent(myUrl.username),
    passwd: decodeURIComponent(myUrl.password),
    db: myUrl.pathname.slice(1),
  },
  sleep: (marker) => `SELECT SLEEP(30) AS ${marker}`,
  async running(marker) {
    myConnection ??= await mysql.createConnection({ uri: TEST_MYSQL_URL });
    const [rows] = await myConnection.query(
      "SELECT count(*) AS n FROM information_schema.processlist WHERE id <> CONNECTION_ID() AND command = 'Query' AND info LIKE ?",
      [`%${marker}%`],
    );
    return Number((rows as { n: number }[])[0]!.n);
  },
  close: async () => {
    await myConnection?.end();
  },
};

const ENGINES: Engine[] = [];
for (const engine of [postgres, mariadb]) if (await engine.available()) ENGINES.push(engine);

describe.runIf(ENGINES.length > 0).each(ENGINES)("jobs on a real $name data source", (engine) => {
  let server: TestServer;
  let admin: TestClient;
  let sourceId: number;
  let limitedId: number;

  async function addSource(name: string, options: Record<string, unknown>): Promise<number> {
    const res = await admin.post("/api/data_sources", { name, type: engine.type, options });
    expect(res.status).toBe(200);
    return res.body.id as number;
  }

  async function startSleep(dataSourceId: number, marker: string): Promise<string> {
    const res = await admin.post("/api/query_results", {
      data_source_id: dataSourceId,
      query: engine.sleep(marker),
      max_age: 0,
    });
    expect(res.status).toBe(200);
    return res.body.job.id as string;
  }

  async function jobStatus(jobId: string) {
    return (await admin.get(`/api/jobs/${jobId}`)).body.job as { status: number; error: string };
  }

  beforeAll(async () => {
    server = await startTestServer("sqlite");
    admin = await setUpAndLogin(server.url);
    sourceId = await addSource(`${engine.type} main`, engine.options);
    limitedId = await addSource(`${engine.type} one second`, { ...engine.options, timeout: 1 });
  });

  afterAll(async () => {
    await server?.close();
    await engine.close();
  });

  it("DELETE /api/jobs/<id> stops the running statement in the database", async () => {
    const marker = `sl_cancel_${crypto.randomBytes(4).toString("hex")}`;
    const jobId = await startSleep(sourceId, marker);
    await expect.poll(() => jobStatus(jobId).then((j) => j.status), { timeout: 10_000 }).toBe(2);
    await expect.poll(() => engine.running(marker), { timeout: 10_000 }).toBe(1);

    const cancel = await admin.delete(`/api/jobs/${jobId}`);
    expect(cancel.status).toBe(200);
    expect(await jobStatus(jobId)).toMatchObject({ status: 4, error: CANCELLED_MESSAGE });
    // Not merely forgotten by Sightline: the database no longer runs it.
    await expect.poll(() => engine.running(marker), { timeout: 5000 }).toBe(0);
  });

  it("a data source with timeout: 1 stops the statement after a second", async () => {
    const marker = `sl_timeout_${crypto.randomBytes(4).toString("hex")}`;
    const started = Date.now();
    const jobId = await startSleep(limitedId, marker);
    await expect.poll(() => jobStatus(jobId).then((j) => j.status), { timeout: 15_000 }).toBe(4);
    expect(await jobStatus(jobId)).toMatchObject({ status: 4, error: TIMEOUT_MESSAGE });
    expect(Date.now() - started).toBeLessThan(10_000);
    await expect.poll(() => engine.running(marker), { timeout: 5000 }).toBe(0);
  });
});
