// Files by URL (the csv and excel types) through the HTTP API, on both metadata stores: create,
// test, run a query over a file served by a local HTTP server, a refused address, a bad query.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runToResult, settledJob, startWithAdmin } from "../testing/apiServer";
import type { TestClient } from "../testing/httpClient";
import { metadataDatabases } from "../testing/services";
import type { TestServer } from "../testing/testServer";

const DATABASES = await metadataDatabases();
let files: http.Server;
let base: string;

beforeAll(async () => {
  files = http.createServer((req, res) => {
    if (req.url === "/sales.csv") {
      res.setHeader("content-type", "text/csv");
      res.setHeader("etag", '"s1"');
      return res.end("region,amount\nnorth,10\nsouth,2.5\nnorth,4\n");
    }
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve) => files.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
});

afterAll(async () => {
  files.closeAllConnections();
  await new Promise((resolve) => files.close(resolve));
});

describe.each(DATABASES)("files by URL through the API on %s", (store) => {
  let server: TestServer;
  let admin: TestClient;
  let id: number;

  beforeAll(async () => {
    ({ server, admin } = await startWithAdmin(store, {
      SIGHTLINE_OUTBOUND_ALLOWED_RANGES: "127.0.0.0/8",
    }));
    const res = await admin.post<{ id: number }>("/api/data_sources", {
      name: "Spreadsheets",
      type: "csv",
      options: {},
    });
    expect(res.status, res.text).toBe(200);
    id = res.body.id;
  });

  afterAll(async () => {
    await server?.close();
  });

  it("offers both types and tests the data source", async () => {
    const types = await admin.get<{ type: string; name: string }[]>("/api/data_sources/types");
    expect(types.body.map((t) => t.type)).toEqual(expect.arrayContaining(["csv", "excel"]));
    expect((await admin.post(`/api/data_sources/${id}/test`)).body).toEqual({
      message: "success",
      ok: true,
    });
  });

  it("runs a query over a file by URL with typed columns", async () => {
    const resultId = await runToResult(
      admin,
      id,
      `url: ${base}/sales.csv\nquery: SELECT region, sum(amount) AS total FROM file GROUP BY region ORDER BY region`,
    );
    const result = await admin.get(`/api/query_results/${resultId}`);
    const data = result.body.query_result.data;
    expect(data.columns.map((c: { name: string; type: string }) => [c.name, c.type])).toEqual([
      ["region", "string"],
      ["total", "float"],
    ]);
    expect(data.rows).toEqual([
      { region: "north", total: 14 },
      { region: "south", total: 2.5 },
    ]);
  });

  async function failure(query: string): Promise<string> {
    const run = await admin.post("/api/query_results", { data_source_id: id, query, max_age: 0 });
    expect(run.status, run.text).toBe(200);
    const job = await settledJob(admin, run.body);
    expect(job.status).toBe(4);
    return String(job.error);
  }

  it("says why a file cannot be read", async () => {
    expect(await failure("url: http://10.0.0.1/sales.csv")).toMatch(/10\.0\.0\.1/);
    expect(await failure(`url: ${base}/missing.csv`)).toMatch(/HTTP 404/);
    expect(await failure("format: csv")).toBe("Query must include 'url' option.");
  });
});
