// Files by URL (the csv and excel types) through the HTTP API, on both metadata stores: create,
// test, run a query over a file served by a local HTTP server, a 100,000-row result, cancel, a
// refused address, an HTTP error, a bad query.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CANCELLED_MESSAGE } from "../execution/types";
import { runToResult, settledJob, startWithAdmin } from "../testing/apiServer";
import type { TestClient } from "../testing/httpClient";
import { metadataDatabases } from "../testing/services";
import type { TestServer } from "../testing/testServer";

const DATABASES = await metadataDatabases();
let files: http.Server;
/** Requests to /slow.csv still open (a cancelled download closes its connection). */
let slowOpen = 0;
let base: string;

const MANY = ["n,label", ...Array.from({ length: 100_000 }, (_, i) => `${i},row ${i}`)].join("\n");

beforeAll(async () => {
  files = http.createServer((req, res) => {
    if (req.url === "/slow.csv") {
      slowOpen += 1;
      req.socket.on("close", () => (slowOpen -= 1));
      return void setTimeout(() => res.end("a\n1\n"), 30_000).unref();
    }
    if (req.url === "/many.csv") {
      res.setHeader("content-type", "text/csv");
      return res.end(MANY);
    }
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

  it("stores a 100,000-row result", async () => {
    const resultId = await runToResult(admin, id, `url: ${base}/many.csv`);
    const result = await admin.get(`/api/query_results/${resultId}`);
    const data = result.body.query_result.data;
    expect(data.rows).toHaveLength(100_000);
    expect(data.rows[99_999]).toEqual({ n: 99_999, label: "row 99999" });
  });

  it("cancels a download", async () => {
    const run = await admin.post("/api/query_results", {
      data_source_id: id,
      query: `url: ${base}/slow.csv`,
      max_age: 0,
    });
    const jobId = run.body.job.id as string;
    await expect.poll(() => slowOpen, { timeout: 10_000 }).toBe(1);
    expect((await admin.delete(`/api/jobs/${jobId}`)).status).toBe(200);
    const job = await settledJob(admin, run.body);
    expect(job).toMatchObject({ status: 4, error: CANCELLED_MESSAGE });
    await expect.poll(() => slowOpen, { timeout: 10_000 }).toBe(0);
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
