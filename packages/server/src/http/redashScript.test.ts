import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metadataDatabases } from "../testing/services";
import { startTestServer, type TestServer } from "../testing/testServer";
import { createDataSource, ownApiKey, setUpAndLogin, type TestClient } from "../testing/httpClient";

const DATABASES = await metadataDatabases();

interface Job {
  id: string;
  status: number;
  query_result_id: number | null;
  error: string;
}

/**
 * The script Redash documents for fetching a fresh result (`get_fresh_query_result`), step by
 * step as it runs in Python: a user API key, the body as `json.dumps` with no Content-Type,
 * `response.json()["job"]` read without a check, then polled until status 3 or 4. Sightline
 * answers fast runs inline, and sends the finished job with them so this keeps working.
 */
describe.each(DATABASES)("Redash's documented API script on %s", (dbKind) => {
  let server: TestServer;
  let admin: TestClient;
  let apiKey: string;
  let queryId: number;

  const call = async (method: string, path: string, body?: string) => {
    const res = await fetch(server.url + path, {
      method,
      body,
      headers: { authorization: `Key ${apiKey}` },
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  /** poll_job(): until the job is finished or failed, then its result id. */
  const pollJob = async (first: Job): Promise<number | null> => {
    let job = first;
    while (job.status !== 3 && job.status !== 4) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      job = (await call("GET", `/api/jobs/${job.id}`)).body.job as Job;
    }
    return job.status === 3 ? job.query_result_id : null;
  };

  beforeAll(async () => {
    server = await startTestServer(dbKind);
    admin = await setUpAndLogin(server.url);
    apiKey = await ownApiKey(admin);
    const dataSourceId = await createDataSource(admin, "Memory", "duckdb", { dbpath: ":memory:" });
    const created = await admin.post("/api/queries", {
      name: "Fresh",
      query: "SELECT {{ n }} * 2 AS doubled",
      data_source_id: dataSourceId,
      options: { parameters: [{ name: "n", title: "n", type: "number", value: 1 }] },
    });
    queryId = created.body.id;
  });
  afterAll(async () => {
    await server?.close();
  });

  it("gets a fresh result: the answer's job is finished, and the result is fetched by id", async () => {
    const payload = JSON.stringify({ max_age: 0, parameters: { n: 21 } });
    const response = await call("POST", `/api/queries/${queryId}/results`, payload);
    expect(response.status).toBe(200);
    const job = response.body.job as Job;
    expect(job).toMatchObject({ status: 3, error: "" });
    // The web app reads the same answer's inline result.
    const inline = response.body.query_result as { id: number; data: { rows: unknown[] } };
    expect(inline.data.rows).toEqual([{ doubled: 42 }]);
    const resultId = await pollJob(job);
    expect(resultId).toBe(inline.id);
    const result = await call("GET", `/api/queries/${queryId}/results/${resultId}.json`);
    expect((result.body.query_result as { data: { rows: unknown[] } }).data.rows).toEqual([
      { doubled: 42 },
    ]);
  });

  it("still polls a run that outlasts the short wait, and a cached answer has no job", async () => {
    const slow = await call(
      "POST",
      "/api/query_results",
      JSON.stringify({
        // 10^10 rows: many seconds on any machine; cancelled below.
        query: "SELECT sum(a.range * b.range) AS n FROM range(100000) a, range(100000) b",
        data_source_id: (await admin.get("/api/data_sources")).body.find(
          (s: { name: string }) => s.name === "Memory",
        ).id,
        max_age: 0,
      }),
    );
    const job = slow.body.job as Job;
    expect(slow.body.query_result).toBeUndefined();
    expect(job.status).toBeLessThan(3);
    expect((await call("DELETE", `/api/jobs/${job.id}`)).status).toBe(200);

    const cached = await call(
      "POST",
      `/api/queries/${queryId}/results`,
      JSON.stringify({ parameters: { n: 21 } }),
    );
    expect(cached.body.job).toBeUndefined();
    expect(cached.body.query_result).toMatchObject({ data: { rows: [{ doubled: 42 }] } });
  });
});
