import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startWithAdmin } from "../testing/apiServer";
import { createDataSource, type TestClient } from "../testing/httpClient";
import { metadataDatabases } from "../testing/services";
import { SilentServer } from "../testing/silentServer";
import type { TestServer } from "../testing/testServer";

/**
 * Issue 26: schema reads stop at SIGHTLINE_SCHEMA_TIMEOUT (here 2 s). A data source whose server
 * takes the connection and never answers gets a prompt failed-job answer whose details name what
 * was being read; the hung connection is closed and the server keeps answering.
 */

const DATABASES = await metadataDatabases();

/** A GET with its duration in milliseconds. */
async function timedGet(client: TestClient, url: string) {
  const started = Date.now();
  const res = await client.get<any>(url);
  return { res, ms: Date.now() - started };
}

describe.each(DATABASES)("schema timeout on %s metadata", (db) => {
  let server: TestServer;
  let admin: TestClient;
  let silent: SilentServer;

  beforeAll(async () => {
    ({ server, admin } = await startWithAdmin(db, { SIGHTLINE_SCHEMA_TIMEOUT: "2" }));
  });
  afterAll(async () => {
    await server?.close();
  });
  afterEach(async () => {
    await silent?.close();
  });

  /** The server keeps answering: the data source list is served at once. */
  async function stillServes() {
    const { res, ms } = await timedGet(admin, "/api/data_sources");
    expect(res.status).toBe(200);
    expect(ms).toBeLessThan(1000);
  }

  it("takes its time limit from SIGHTLINE_SCHEMA_TIMEOUT", () => {
    expect(server.config.schemaTimeoutSeconds).toBe(2);
  });

  it("answers the whole schema of a silent Prometheus with what timed out", async () => {
    silent = await new SilentServer().start();
    const id = await createDataSource(admin, "silent prometheus", "prometheus", {
      url: silent.url,
    });
    const { res, ms } = await timedGet(admin, `/api/data_sources/${id}/schema?refresh=true`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      job: {
        id: "schema-failed",
        status: 4,
        error: {
          code: 2,
          message: "Error retrieving schema",
          details: `Timed out after 2 s while reading the metric names (/api/v1/label/__name__/values) from Prometheus at ${silent.url}.`,
        },
        result: null,
        query_result_id: null,
        updated_at: 0,
      },
    });
    expect(ms).toBeGreaterThanOrEqual(1400);
    expect(ms).toBeLessThan(4000);
    expect(await silent.allClosed()).toBe(true);
    await stillServes();
  });

  it("answers the whole schema of a silent ClickHouse naming the limit set, not the time left", async () => {
    silent = await new SilentServer().start();
    const id = await createDataSource(admin, "silent clickhouse schema", "clickhouse", {
      url: silent.url,
      dbname: "default",
    });
    const { res, ms } = await timedGet(admin, `/api/data_sources/${id}/schema?refresh=true`);
    expect(res.status).toBe(200);
    expect(res.body.job).toMatchObject({ id: "schema-failed", status: 4 });
    expect(res.body.job.error).toEqual({
      code: 2,
      message: "Error retrieving schema",
      details: `Timed out after 2 s while reading the list of databases (system.databases) from ClickHouse at ${silent.url}.`,
    });
    expect(ms).toBeLessThan(4000);
    expect(await silent.allClosed()).toBe(true);
    await stillServes();
  });

  it("answers the lazy database list of a silent InfluxDB with what timed out", async () => {
    silent = await new SilentServer().start();
    const id = await createDataSource(admin, "silent influx", "influxdb", { url: silent.url });
    const { res, ms } = await timedGet(admin, `/api/databricks/databases/${id}`);
    expect(res.status).toBe(200);
    expect(res.body.job).toMatchObject({ id: "databases-failed", status: 4 });
    expect(res.body.job.error).toEqual({
      code: 2,
      message: "Error retrieving database list.",
      details: `Timed out after 2 s while reading the databases (SHOW DATABASES) from InfluxDB at ${silent.url}.`,
    });
    expect(ms).toBeGreaterThanOrEqual(1400);
    expect(ms).toBeLessThan(4000);
    expect(await silent.allClosed()).toBe(true);
    await stillServes();
  });

  it("answers the lazy database list of a silent ClickHouse with what timed out", async () => {
    silent = await new SilentServer().start();
    const id = await createDataSource(admin, "silent clickhouse", "clickhouse", {
      url: silent.url,
      dbname: "default",
    });
    const { res, ms } = await timedGet(admin, `/api/databricks/databases/${id}`);
    expect(res.status).toBe(200);
    expect(res.body.job.error).toMatchObject({
      code: 2,
      message: "Error retrieving database list.",
      details: expect.stringContaining(
        `while reading the list of databases (system.databases) from ClickHouse at ${silent.url}.`,
      ),
    });
    expect(ms).toBeLessThan(4000);
    // The query's connection and its KILL QUERY's, which a hung server never answers either.
    expect(await silent.allClosed()).toBe(true);
    await stillServes();
  });

  it.each([
    [
      "tables",
      "metrics/tables",
      "tables-failed",
      "Error retrieving schema.",
      'the measurements of database "metrics" (SHOW MEASUREMENTS)',
    ],
    [
      "columns",
      "metrics/columns/cpu",
      "columns-failed",
      "Error retrieving table columns.",
      'the keys of measurement "metrics.cpu" (SHOW FIELD KEYS, SHOW TAG KEYS)',
    ],
  ])("answers a lazy level (%s) of a silent InfluxDB with what timed out", async (...row) => {
    const [, path, jobId, message, what] = row;
    silent = await new SilentServer().start();
    const id = await createDataSource(admin, `silent influx ${jobId}`, "influxdb", {
      url: silent.url,
    });
    const { res, ms } = await timedGet(admin, `/api/databricks/databases/${id}/${path}`);
    expect(res.status).toBe(200);
    expect(res.body.job).toMatchObject({ id: jobId, status: 4 });
    expect(res.body.job.error).toEqual({
      code: 2,
      message,
      details: `Timed out after 2 s while reading ${what} from InfluxDB at ${silent.url}.`,
    });
    expect(ms).toBeLessThan(4000);
    expect(await silent.allClosed()).toBe(true);
    await stillServes();
  });
});
