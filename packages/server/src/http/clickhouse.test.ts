// A ClickHouse data source through the HTTP API, on both metadata stores: create, test (bad
// credentials, unreachable host), schema (whole and lazy), run, a 100,000-row result, cancel.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CANCELLED_MESSAGE } from "../execution/types";
import { runToResult, startWithAdmin } from "../testing/apiServer";
import {
  clickhouseExec,
  startTestClickHouse,
  type TestClickHouse,
} from "../testing/clickhouseServer";
import type { TestClient } from "../testing/httpClient";
import { metadataDatabases } from "../testing/services";
import type { TestServer } from "../testing/testServer";

const DATABASES = await metadataDatabases();
const clickhouse: TestClickHouse | null = await startTestClickHouse();
const db = `sl_api_${Math.random().toString(36).slice(2, 8)}`;

beforeAll(async () => {
  if (!clickhouse) return;
  await clickhouseExec(clickhouse.url, `CREATE DATABASE ${db}`);
  await clickhouseExec(
    clickhouse.url,
    `CREATE TABLE ${db}.orders (id UInt64, total Decimal(20, 2), placed DateTime)
     ENGINE = MergeTree ORDER BY id`,
  );
  await clickhouseExec(
    clickhouse.url,
    `INSERT INTO ${db}.orders VALUES (9007199254740993, 123456789012345678.25, '2024-05-06 07:08:09')`,
  );
}, 60_000);

afterAll(async () => {
  await clickhouse?.stop();
});

describe.runIf(clickhouse !== null).each(DATABASES)("ClickHouse through the API on %s", (store) => {
  let server: TestServer;
  let admin: TestClient;
  let id: number;
  const options = () => ({
    url: clickhouse!.url,
    user: clickhouse!.user,
    password: clickhouse!.password,
    dbname: db,
  });

  async function create(name: string, extra: Record<string, unknown> = {}) {
    return admin.post<{ id: number }>("/api/data_sources", {
      name,
      type: "clickhouse",
      options: { ...options(), ...extra },
    });
  }

  beforeAll(async () => {
    ({ server, admin } = await startWithAdmin(store));
    const res = await create("Warehouse");
    expect(res.status, res.text).toBe(200);
    id = res.body.id;
  });

  afterAll(async () => {
    await server?.close();
  });

  it("offers the type and keeps the password out of answers", async () => {
    const types = await admin.get<{ type: string }[]>("/api/data_sources/types");
    const typeNames = types.body.map((t) => t.type);
    for (const type of ["clickhouse", "redshift", "cockroach", "timescaledb", "mariadb"])
      expect(typeNames).toContain(type);
    const shown = await admin.get(`/api/data_sources/${id}`);
    expect(shown.status).toBe(200);
    expect(shown.text).not.toContain(clickhouse!.password);
  });

  it("tests the connection and says what failed", async () => {
    expect((await admin.post(`/api/data_sources/${id}/test`)).body).toEqual({
      message: "success",
      ok: true,
    });
    const wrong = await create("Wrong password", { password: "nope" });
    const refused = await admin.post(`/api/data_sources/${wrong.body.id}/test`);
    expect(refused.body.ok).toBe(false);
    expect(refused.body.message).toMatch(/password/i);
    expect(refused.body.message).not.toContain("nope");
    const away = await create("Unreachable", { url: "http://127.0.0.1:1" });
    const unreachable = await admin.post(`/api/data_sources/${away.body.id}/test`);
    expect(unreachable.body).toMatchObject({ ok: false });
    expect(unreachable.body.message).toMatch(
      /Could not reach ClickHouse at http:\/\/127\.0\.0\.1:1/,
    );
    const bad = await admin.post("/api/data_sources", {
      name: "Not a URL",
      type: "clickhouse",
      options: { url: "ftp://example.com", dbname: "x" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/http:\/\/ or https:\/\//);
  });

  it("lists the schema, whole and database by database", async () => {
    const schema = await admin.get(`/api/data_sources/${id}/schema?refresh=true`);
    expect(schema.body.schema).toContainEqual({
      name: `${db}.orders`,
      columns: [
        { name: "id", type: "UInt64" },
        { name: "placed", type: "DateTime" },
        { name: "total", type: "Decimal(20, 2)" },
      ],
    });
    const databases = await admin.get(`/api/databricks/databases/${id}`);
    expect(databases.body).toContain(db);
    const tables = await admin.get(`/api/databricks/databases/${id}/${db}/tables`);
    expect(JSON.stringify(tables.body)).toContain("orders");
    const columns = await admin.get(`/api/databricks/databases/${id}/${db}/columns/orders`);
    expect(columns.body.map((c: { name: string }) => c.name)).toEqual(["id", "total", "placed"]);
  });

  it("runs a query with exact 64-bit values and typed columns", async () => {
    const resultId = await runToResult(admin, id, `SELECT * FROM ${db}.orders`);
    const result = await admin.get(`/api/query_results/${resultId}.json`);
    const data = result.body.query_result.data;
    expect(data.columns.map((c: { type: string }) => c.type)).toEqual([
      "integer",
      "float",
      "datetime",
    ]);
    expect(data.rows).toEqual([
      { id: "9007199254740993", total: "123456789012345678.25", placed: "2024-05-06T07:08:09" },
    ]);
  });

  it("stores and downloads a 100,000-row result", async () => {
    const resultId = await runToResult(
      admin,
      id,
      "SELECT number AS n, toString(number) AS s FROM numbers(100000)",
    );
    const json = await admin.get(`/api/query_results/${resultId}.json`);
    const rows = json.body.query_result.data.rows;
    expect(rows).toHaveLength(100_000);
    expect(rows[99_999]).toEqual({ n: 99_999, s: "99999" });
    const csv = await admin.get(`/api/query_results/${resultId}.csv`);
    expect(csv.text.trim().split("\n")).toHaveLength(100_001);
  });

  it("DELETE /api/jobs/<id> stops the query in ClickHouse", async () => {
    const marker = `sl_cancel_${Math.random().toString(36).slice(2, 8)}`;
    const run = await admin.post("/api/query_results", {
      data_source_id: id,
      query: `SELECT '${marker}', sleepEachRow(0.5), number FROM numbers(200) SETTINGS max_block_size = 1`,
      max_age: 0,
    });
    const jobId = run.body.job.id as string;
    const running = () =>
      clickhouseExec(
        clickhouse!.url,
        `SELECT count() FROM system.processes WHERE query LIKE '%${marker}%' AND query NOT LIKE '%system.processes%'`,
      );
    await expect.poll(running, { timeout: 10_000 }).toBe("1\n");
    expect((await admin.delete(`/api/jobs/${jobId}`)).status).toBe(200);
    const job = await admin.get(`/api/jobs/${jobId}`);
    expect(job.body.job).toMatchObject({ status: 4, error: CANCELLED_MESSAGE });
    await expect.poll(running, { timeout: 10_000 }).toBe("0\n");
  });
});
