import fs from "node:fs";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDataSource, type TestClient } from "../testing/httpClient";
import { saveAndRun, settledJob, startWithAdmin } from "../testing/apiServer";
import { freePort, waitUntil } from "../testing/processes";
import {
  TEST_PG_URL,
  TEST_REDIS_URL,
  deleteRedisKeys,
  metadataDatabases,
  postgresAvailable,
  randomName,
  redisAvailable,
} from "../testing/services";
import { startTestServer, type TestServer } from "../testing/testServer";
import { METADATA_UNREACHABLE, REDIS_UNREACHABLE } from "./health";

const DATABASES = await metadataDatabases();
const TOKEN = "metrics-token-0123456789abcdef";

async function get(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string; headers: Headers }> {
  const response = await fetch(url, { headers });
  return { status: response.status, text: await response.text(), headers: response.headers };
}

/** The value of one series in a Prometheus text exposition, or null. */
function series(text: string, name: string, labels: string): number | null {
  const prefix = labels === "" ? `${name} ` : `${name}{${labels}}`;
  const line = text.split("\n").find((l) => l.startsWith(prefix));
  return line ? Number(line.slice(line.lastIndexOf(" ") + 1)) : null;
}

describe.each(DATABASES)("health and metrics on %s", (db) => {
  describe("without a metrics token", () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer(db);
    });
    afterAll(async () => {
      await server.close();
    });

    it("answers /healthz and /readyz, uncached and without a session", async () => {
      const health = await get(`${server.url}/healthz`);
      expect(health.status).toBe(200);
      expect(JSON.parse(health.text)).toEqual({ status: "ok" });
      expect(health.headers.get("cache-control")).toBe("no-store");
      // No session is started: probes leave no cookies behind.
      expect(health.headers.getSetCookie()).toEqual([]);
      const ready = await get(`${server.url}/readyz`);
      expect(ready.status).toBe(200);
      expect(JSON.parse(ready.text)).toEqual({ status: "ok" });
      expect(ready.headers.get("cache-control")).toBe("no-store");
      // Load balancers often probe with HEAD.
      for (const probe of ["/healthz", "/readyz"]) {
        expect((await fetch(`${server.url}${probe}`, { method: "HEAD" })).status).toBe(200);
      }
    });

    it("keeps /metrics off (404), whatever token is sent", async () => {
      const attempts: Record<string, string>[] = [{}, { authorization: `Bearer ${TOKEN}` }];
      for (const headers of attempts) {
        const response = await get(`${server.url}/metrics`, headers);
        expect(response.status).toBe(404);
        expect(JSON.parse(response.text).message).toMatch(/not found/);
      }
    });
  });

  describe("with a metrics token", () => {
    let server: TestServer;
    let admin: TestClient;
    let dataSourceId: number;
    beforeAll(async () => {
      ({ server, admin } = await startWithAdmin(db, { SIGHTLINE_METRICS_TOKEN: TOKEN }));
      fs.mkdirSync(server.config.fileDataDir!, { recursive: true });
      dataSourceId = await createDataSource(admin, "memory", "duckdb", { dbpath: ":memory:" });
    });
    afterAll(async () => {
      await server.close();
    });

    it("refuses a missing or wrong token with 401", async () => {
      const attempts: Record<string, string>[] = [
        {},
        { authorization: "Bearer wrong-token-0123456789abcdef" },
        { authorization: `Bearer ${TOKEN}x` },
        { authorization: `Key ${TOKEN}` },
      ];
      for (const headers of attempts) {
        const response = await get(`${server.url}/metrics`, headers);
        expect(response.status).toBe(401);
        expect(JSON.parse(response.text).message).toMatch(/SIGHTLINE_METRICS_TOKEN/);
        expect(response.text).not.toContain(TOKEN);
      }
    });

    it("counts requests by route pattern and status, and jobs by state and data source type", async () => {
      const { query } = await saveAndRun<{ id: number }>(admin, dataSourceId, "SELECT 42 AS n");
      const failing = await admin.post("/api/query_results", {
        data_source_id: dataSourceId,
        query: "SELECT * FROM no_such_table",
        max_age: 0,
      });
      expect((await settledJob(admin, failing.body))?.status).toBe(4);
      for (let i = 0; i < 3; i++) {
        expect((await admin.get(`/api/queries/${query.id}`)).status).toBe(200);
      }
      expect((await admin.get("/api/queries/999999")).status).toBe(404);
      const scrape = () => get(`${server.url}/metrics`, { authorization: `Bearer ${TOKEN}` });
      // The job is counted once it ended; its data source's type is read right after.
      let text = "";
      await waitUntil(
        async () => {
          text = (await scrape()).text;
          return (
            text.includes('sightline_jobs_total{state="finished",data_source_type="duckdb"}') &&
            text.includes('sightline_jobs_total{state="failed",data_source_type="duckdb"}')
          );
        },
        10_000,
        "the job's metrics",
      );
      const response = await scrape();
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(response.headers.get("cache-control")).toBe("no-store");
      text = response.text;
      const route = 'method="GET",route="/api/queries/:id"';
      expect(series(text, "sightline_http_requests_total", `${route},status_code="200"`)).toBe(3);
      expect(series(text, "sightline_http_requests_total", `${route},status_code="404"`)).toBe(1);
      expect(
        series(text, "sightline_http_request_duration_seconds_count", `${route},status_code="200"`),
      ).toBe(3);
      // Never the raw path: one series per route, not per id.
      expect(text).not.toContain(`/api/queries/${query.id}"`);
      expect(text).not.toContain("/api/queries/999999");
      const finished = 'state="finished",data_source_type="duckdb"';
      expect(series(text, "sightline_jobs_total", finished)).toBeGreaterThanOrEqual(1);
      expect(series(text, "sightline_job_duration_seconds_count", finished)).toBeGreaterThanOrEqual(
        1,
      );
      expect(text).toContain("# TYPE sightline_queue_jobs gauge");
      expect(series(text, "sightline_query_results_bytes", "")).toBeGreaterThan(0);
      expect(text).toContain("# TYPE sightline_scheduler_last_pass_age_seconds gauge");
      expect(text).toContain("process_cpu_user_seconds_total");
      expect(text).toContain("# TYPE sightline_alert_deliveries_total counter");
    });
  });

  it("answers /readyz with 503 once the metadata store is out of reach", async () => {
    const server = await startTestServer(db);
    try {
      // A closed pool: every statement fails, as when the database cannot be reached.
      await server.ctx.database.close();
      const ready = await get(`${server.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(JSON.parse(ready.text)).toEqual({ message: METADATA_UNREACHABLE });
      expect(ready.headers.get("cache-control")).toBe("no-store");
      // The process still answers: a load balancer takes it out, Kubernetes does not restart it.
      expect((await get(`${server.url}/healthz`)).status).toBe(200);
    } finally {
      await server.close().catch(() => undefined);
    }
  });
});

describe.runIf(await postgresAvailable())(
  "readiness on a PostgreSQL database that goes away",
  () => {
    it("answers 503 once the database is dropped, while /healthz still answers", async () => {
      const name = randomName("sightline_ready").toLowerCase();
      const admin = new pg.Client({ connectionString: TEST_PG_URL });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE ${name}`);
        const url = new URL(TEST_PG_URL);
        url.pathname = `/${name}`;
        const server = await startTestServer("sqlite", { SIGHTLINE_DATABASE_URL: url.toString() });
        try {
          expect((await get(`${server.url}/readyz`)).status).toBe(200);
          await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
          const ready = await get(`${server.url}/readyz`);
          expect(ready.status).toBe(503);
          expect(JSON.parse(ready.text)).toEqual({ message: METADATA_UNREACHABLE });
          expect((await get(`${server.url}/healthz`)).status).toBe(200);
        } finally {
          await server.close().catch(() => undefined);
        }
      } finally {
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.end();
      }
    });
  },
);

describe.runIf((await postgresAvailable()) && (await redisAvailable()))(
  "readiness in scaled mode",
  () => {
    it("needs Redis too: 200 while it answers, 503 naming it when it does not", async () => {
      const prefix = randomName("sltest_ready");
      const up = await startTestServer("postgres", {
        SIGHTLINE_REDIS_URL: TEST_REDIS_URL,
        SIGHTLINE_REDIS_PREFIX: prefix,
      });
      try {
        const ready = await get(`${up.url}/readyz`);
        expect(ready.status, ready.text).toBe(200);
      } finally {
        await up.close();
        await deleteRedisKeys(prefix);
      }
      // Nothing listens on this port: Redis is out of reach.
      const down = await startTestServer("postgres", {
        SIGHTLINE_REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
        SIGHTLINE_REDIS_PREFIX: prefix,
      });
      try {
        const ready = await get(`${down.url}/readyz`);
        expect(ready.status).toBe(503);
        expect(JSON.parse(ready.text)).toEqual({ message: REDIS_UNREACHABLE });
        expect((await get(`${down.url}/healthz`)).status).toBe(200);
      } finally {
        await down.close().catch(() => undefined);
      }
    });

    it("reports the Redis queues' depth: a run with no worker to take it waits", async () => {
      const prefix = randomName("sltest_depth");
      const { server, admin } = await startWithAdmin("postgres", {
        SIGHTLINE_REDIS_URL: TEST_REDIS_URL,
        SIGHTLINE_REDIS_PREFIX: prefix,
        SIGHTLINE_METRICS_TOKEN: TOKEN,
      });
      try {
        fs.mkdirSync(server.config.fileDataDir!, { recursive: true });
        const source = await createDataSource(admin, "memory", "duckdb", { dbpath: ":memory:" });
        const run = await admin.post("/api/query_results", {
          data_source_id: source,
          query: "SELECT 1 AS waiting",
          max_age: 0,
        });
        expect(run.body.job?.status, run.text).toBe(1);
        const text = (await get(`${server.url}/metrics`, { authorization: `Bearer ${TOKEN}` }))
          .text;
        expect(series(text, "sightline_queue_jobs", 'queue="queries",state="waiting"')).toBe(1);
        expect(series(text, "sightline_queue_jobs", 'queue="queries",state="running"')).toBe(0);
        const ofSource = (state: string) => `data_source_id="${source}",state="${state}"`;
        expect(series(text, "sightline_data_source_jobs", ofSource("waiting"))).toBe(1);
        expect(series(text, "sightline_data_source_jobs", ofSource("running"))).toBe(0);
      } finally {
        await server.close();
        await deleteRedisKeys(prefix);
      }
    });
  },
);
