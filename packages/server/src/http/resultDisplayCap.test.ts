import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metadataDatabases } from "../testing/services";
import { startTestServer, type TestServer } from "../testing/testServer";
import { createDataSource, setUpAndLogin, type TestClient } from "../testing/httpClient";

// The web app's view of a result stops at the display cap; downloads have every stored row. The
// result's JSON tells the two caps apart, so the page can say which one cut the rows.

const DATABASES = await metadataDatabases();

interface ResultData {
  rows: unknown[];
  truncated?: boolean;
  row_count?: number;
  stored_truncated?: boolean;
}

describe.each(DATABASES)("display and stored-rows caps through the API on %s", (db) => {
  let server: TestServer;
  let admin: TestClient;
  let dataSourceId: number;

  beforeAll(async () => {
    server = await startTestServer(
      db,
      { SIGHTLINE_RESULT_DISPLAY_ROWS: "1000", SIGHTLINE_RESULT_MAX_ROWS: "3000" },
      { afterSetup: async () => {} },
    );
    admin = await setUpAndLogin(server.url);
    fs.mkdirSync(server.config.fileDataDir!, { recursive: true });
    dataSourceId = await createDataSource(admin, "memory", "duckdb", { dbpath: ":memory:" });
  });

  afterAll(async () => {
    await server?.close();
  });

  /** Runs `n` rows through the API; returns the stored result's id. */
  async function run(n: number): Promise<number> {
    const res = await admin.post<{ query_result?: { id: number }; job?: { id: string } }>(
      "/api/query_results",
      { data_source_id: dataSourceId, query: `SELECT i FROM range(${n}) t(i)`, max_age: 0 },
    );
    if (res.body.query_result) return res.body.query_result.id;
    await expect
      .poll(
        async () =>
          (await admin.get<{ job: { status: number } }>(`/api/jobs/${res.body.job!.id}`)).body.job
            .status,
        { timeout: 30_000, interval: 100 },
      )
      .toBe(3);
    const job = await admin.get<{ job: { query_result_id: number } }>(
      `/api/jobs/${res.body.job!.id}`,
    );
    return job.body.job.query_result_id;
  }

  async function view(id: number): Promise<ResultData> {
    const res = await admin.get<{ query_result: { data: ResultData } }>(`/api/query_results/${id}`);
    expect(res.status).toBe(200);
    return res.body.query_result.data;
  }

  async function csvLines(id: number): Promise<number> {
    const res = await admin.get(`/api/query_results/${id}.csv`);
    return res.text.trim().split(/\r?\n/).length - 1;
  }

  it("marks neither cap on a result that fits", async () => {
    const data = await view(await run(500));
    expect(data.rows).toHaveLength(500);
    expect(data.truncated).toBeUndefined();
    expect(data.row_count).toBeUndefined();
    expect(data.stored_truncated).toBeUndefined();
  });

  it("says how many rows the result has when the display cap shortens the view", async () => {
    const id = await run(2000);
    const data = await view(id);
    expect(data.rows).toHaveLength(1000);
    expect(data).toMatchObject({ truncated: true, row_count: 2000 });
    expect(data.stored_truncated).toBeUndefined();
    expect(await csvLines(id)).toBe(2000);
  });

  it("says the stored result was cut when the stored-rows cap cuts it", async () => {
    const id = await run(4000);
    const data = await view(id);
    expect(data.rows).toHaveLength(1000);
    expect(data).toMatchObject({ truncated: true, row_count: 3000, stored_truncated: true });
    expect(await csvLines(id)).toBe(3000);
  });
});
