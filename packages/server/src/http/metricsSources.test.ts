// Prometheus, InfluxDB and Redis data sources through the HTTP API, on both metadata stores:
// create, test (bad credentials, unreachable host), schema, run, cancel, a 100,000-row result.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CANCELLED_MESSAGE } from "../execution/types";
import { runToResult, startWithAdmin } from "../testing/apiServer";
import type { TestClient } from "../testing/httpClient";
import { startTestInflux, TEST_INFLUX_DATABASE, type TestInflux } from "../testing/influxServer";
import {
  PROMETHEUS_T0,
  startTestPrometheus,
  type TestPrometheus,
} from "../testing/prometheusServer";
import { metadataDatabases, randomName, redisAvailable, TEST_REDIS_URL } from "../testing/services";
import type { TestServer } from "../testing/testServer";

const DATABASES = await metadataDatabases();
const prometheus: TestPrometheus | null = await startTestPrometheus();
const influx: TestInflux | null = await startTestInflux();
const HAS_REDIS = await redisAvailable();
const REDIS_DB = 12;
const prefix = randomName("sl_api_redis");
const redisAddress = new URL(TEST_REDIS_URL);
const redisOptions = { host: redisAddress.hostname, port: Number(redisAddress.port || 6379) };

function redisAdmin(): Redis {
  return new Redis({ ...redisOptions, db: REDIS_DB });
}

/** A server that takes requests and never answers: a query that runs until cancelled. */
const hung = http.createServer(() => undefined);

beforeAll(async () => {
  await new Promise<void>((resolve) => hung.listen(0, "127.0.0.1", resolve));
  if (influx) {
    await influx.write(
      TEST_INFLUX_DATABASE,
      `cpu,host=a usage=1.5,count=2i 1700000000000000000\ncpu,host=b usage=3 1700000060000000000`,
    );
  }
  if (HAS_REDIS) {
    const client = redisAdmin();
    try {
      await client.hset(`${prefix}:user`, { name: "Ada" });
      const items = Array.from({ length: 100_000 }, (_, i) => String(i));
      for (let i = 0; i < items.length; i += 10_000)
        await client.rpush(`${prefix}:big`, ...items.slice(i, i + 10_000));
    } finally {
      client.disconnect();
    }
  }
}, 60_000);

afterAll(async () => {
  hung.closeAllConnections();
  hung.close();
  await prometheus?.stop();
  await influx?.stop();
  if (HAS_REDIS) {
    const client = redisAdmin();
    try {
      await client.del(`${prefix}:user`, `${prefix}:big`);
    } finally {
      client.disconnect();
    }
  }
});

describe.each(DATABASES)("Prometheus, InfluxDB and Redis through the API on %s", (store) => {
  let server: TestServer;
  let admin: TestClient;

  beforeAll(async () => {
    ({ server, admin } = await startWithAdmin(store));
  });

  afterAll(async () => {
    await server?.close();
  });

  async function create(type: string, options: Record<string, unknown>): Promise<number> {
    const res = await admin.post<{ id: number }>("/api/data_sources", {
      name: randomName(type),
      type,
      options,
    });
    expect(res.status, res.text).toBe(200);
    return res.body.id;
  }

  async function testConnection(id: number): Promise<{ ok: boolean; message: string }> {
    return (await admin.post(`/api/data_sources/${id}/test`)).body;
  }

  it("offers the three types with Redash's names and forms", async () => {
    const types =
      await admin.get<{ type: string; configuration_schema: any }[]>("/api/data_sources/types");
    const byType = new Map(types.body.map((t) => [t.type, t.configuration_schema]));
    expect(byType.get("prometheus").required).toEqual(["url"]);
    expect(byType.get("influxdb").required).toEqual(["url"]);
    expect(byType.get("redis").secret).toEqual(["password"]);
  });

  describe.runIf(prometheus !== null)("Prometheus", () => {
    const options = () => ({
      url: prometheus!.url,
      username: prometheus!.user,
      password: prometheus!.password,
    });

    it("tests, lists the schema and runs a range query", async () => {
      const id = await create("prometheus", options());
      expect(await testConnection(id)).toEqual({ message: "success", ok: true });
      const shown = await admin.get(`/api/data_sources/${id}`);
      expect(shown.text).not.toContain(prometheus!.password);
      const schema = await admin.get(`/api/data_sources/${id}/schema?refresh=true`);
      expect(schema.body.schema).toContainEqual({
        name: "sl_temperature",
        columns: [{ name: "room", type: "label" }],
      });
      const resultId = await runToResult(
        admin,
        id,
        `query: sl_temperature{room="kitchen"}\nstart: ${PROMETHEUS_T0}\nend: ${PROMETHEUS_T0 + 60}\nstep: 1m`,
      );
      const data = (await admin.get(`/api/query_results/${resultId}.json`)).body.query_result.data;
      expect(data.columns.map((c: { name: string; type: string }) => [c.name, c.type])).toEqual([
        ["timestamp", "datetime"],
        ["value", "float"],
        ["__name__", "string"],
        ["room", "string"],
      ]);
      expect(data.rows[1]).toEqual({
        timestamp: "2023-11-14T22:14:20Z",
        value: 22.25,
        __name__: "sl_temperature",
        room: "kitchen",
      });
    });

    it("says what failed: bad credentials, unreachable host", async () => {
      const wrong = await testConnection(
        await create("prometheus", { ...options(), password: "not it" }),
      );
      expect(wrong.ok).toBe(false);
      expect(wrong.message).toMatch(/refused the credentials \(HTTP 401/);
      expect(wrong.message).not.toContain("not it");
      const away = await testConnection(await create("prometheus", { url: "http://127.0.0.1:1" }));
      expect(away).toMatchObject({ ok: false });
      expect(away.message).toMatch(/Could not reach Prometheus at http:\/\/127\.0\.0\.1:1/);
      const bad = await admin.post("/api/data_sources", {
        name: "Not a URL",
        type: "prometheus",
        options: { url: "ftp://example.com" },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toMatch(/http:\/\/ or https:\/\//);
    });

    it("DELETE /api/jobs/<id> cancels a query that is still waiting", async () => {
      const url = `http://127.0.0.1:${(hung.address() as AddressInfo).port}`;
      const id = await create("prometheus", { url });
      const run = await admin.post("/api/query_results", {
        data_source_id: id,
        query: "up",
        max_age: 0,
      });
      const jobId = run.body.job.id as string;
      expect((await admin.delete(`/api/jobs/${jobId}`)).status).toBe(200);
      await expect
        .poll(async () => (await admin.get(`/api/jobs/${jobId}`)).body.job, { timeout: 10_000 })
        .toMatchObject({ status: 4, error: CANCELLED_MESSAGE });
    });
  });

  describe.runIf(influx !== null)("InfluxDB", () => {
    const options = () => ({
      url: `influxdb://${influx!.url.slice("http://".length)}/${TEST_INFLUX_DATABASE}`,
      user: influx!.reader.user,
      password: influx!.reader.password,
    });

    it("tests, lists the schema (whole and lazy) and runs typed queries", async () => {
      const id = await create("influxdb", options());
      expect(await testConnection(id)).toEqual({ message: "success", ok: true });
      expect((await admin.get(`/api/data_sources/${id}`)).text).not.toContain(
        influx!.reader.password,
      );
      const schema = await admin.get(`/api/data_sources/${id}/schema?refresh=true`);
      expect(schema.body.schema).toEqual([
        {
          name: "cpu",
          columns: [
            { name: "count", type: "field integer" },
            { name: "host", type: "tag" },
            { name: "time", type: "time" },
            { name: "usage", type: "field float" },
          ],
        },
      ]);
      const databases = await admin.get(`/api/databricks/databases/${id}`);
      expect(databases.body).toEqual([TEST_INFLUX_DATABASE]);
      const resultId = await runToResult(admin, id, "SELECT * FROM cpu WHERE host = 'b'");
      const data = (await admin.get(`/api/query_results/${resultId}.json`)).body.query_result.data;
      expect(data.columns.map((c: { name: string; type: string }) => [c.name, c.type])).toEqual([
        ["time", "datetime"],
        ["count", "integer"],
        ["host", "string"],
        ["usage", "float"],
      ]);
      expect(data.rows).toEqual([
        { time: "2023-11-14T22:14:20Z", count: null, host: "b", usage: 3 },
      ]);
    });

    it("says what failed: bad credentials, unreachable host, a writing statement", async () => {
      const wrong = await testConnection(
        await create("influxdb", { ...options(), password: "not it" }),
      );
      expect(wrong.ok).toBe(false);
      expect(wrong.message).toMatch(/authorization failed/);
      expect(wrong.message).not.toContain("not it");
      const away = await testConnection(await create("influxdb", { url: "http://127.0.0.1:1" }));
      expect(away.message).toMatch(/Could not reach InfluxDB at http:\/\/127\.0\.0\.1:1/);
      const id = await create("influxdb", options());
      const run = await admin.post("/api/query_results", {
        data_source_id: id,
        query: "DROP MEASUREMENT cpu",
        max_age: 0,
      });
      const error = run.body.job?.error ?? run.body.message;
      expect(String(JSON.stringify(run.body))).toMatch(/DROP may change data/);
      expect(error).toBeTruthy();
    });
  });

  describe.runIf(HAS_REDIS)("Redis", () => {
    const options = { ...redisOptions, db: REDIS_DB };

    it("tests, lists keys and reads a hash", async () => {
      const id = await create("redis", options);
      expect(await testConnection(id)).toEqual({ message: "success", ok: true });
      const resultId = await runToResult(admin, id, `HGETALL ${prefix}:user`);
      const data = (await admin.get(`/api/query_results/${resultId}.json`)).body.query_result.data;
      expect(data.rows).toEqual([{ field: "name", value: "Ada" }]);
      const schema = await admin.get(`/api/data_sources/${id}/schema?refresh=true`);
      expect(schema.body.schema).toContainEqual({
        name: `${prefix}:user`,
        columns: [
          { name: "field", type: "hash (HGETALL)" },
          { name: "value", type: "string" },
        ],
      });
    });

    it("stores and downloads a 100,000-row result", async () => {
      const id = await create("redis", options);
      const resultId = await runToResult(admin, id, `LRANGE ${prefix}:big 0 -1`);
      const rows = (await admin.get(`/api/query_results/${resultId}.json`)).body.query_result.data
        .rows;
      expect(rows).toHaveLength(100_000);
      expect(rows[99_999]).toEqual({ index: 99_999, value: "99999" });
      const csv = await admin.get(`/api/query_results/${resultId}.csv`);
      expect(csv.text.trim().split("\n")).toHaveLength(100_001);
    });

    it("says what failed: a writing command, bad credentials, unreachable host", async () => {
      const id = await create("redis", options);
      const run = await admin.post("/api/query_results", {
        data_source_id: id,
        query: `DEL ${prefix}:user`,
        max_age: 0,
      });
      expect(JSON.stringify(run.body)).toMatch(/read-only commands run on a Redis data source/);
      // An ACL user that does not exist (the default user of this Redis takes any password).
      const wrong = await testConnection(
        await create("redis", { ...options, user: `${prefix}_nobody`, password: "not it" }),
      );
      expect(wrong.ok).toBe(false);
      expect(wrong.message).toMatch(/^Redis: WRONGPASS/);
      expect(wrong.message).not.toContain("not it");
      const away = await testConnection(await create("redis", { port: 1 }));
      expect(away.message).toMatch(/Could not reach Redis at 127\.0\.0\.1:1: .*ECONNREFUSED/);
    });
  });
});
