import fs from "node:fs";
import path from "node:path";
import SQLite from "../store/sqliteDriver.mjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metadataDatabases } from "../testing/services";
import { startTestServer, type TestServer } from "../testing/testServer";
import { startWithAdmin } from "../testing/apiServer";
import { insertDataSourceRow, insertTestQuery } from "../testing/storeRows";
import { TestClient, createDataSource, setUpAndLogin } from "../testing/httpClient";
import { findOrgBySlug } from "../store/organizations";
import { insertUser } from "../store/users";
import { hashPassword } from "../auth/passwords";
import { adminGroupId, defaultGroupId } from "../services/organizationSetup";
import { writeDataSourceOptions } from "../services/dataSourceOptions";
import { queryHash } from "../execution";
import { CANCELLED_MESSAGE, TIMEOUT_MESSAGE } from "../execution/types";

const DATABASES = await metadataDatabases();
const LONG_QUERY =
  "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 500000000) SELECT count(*) FROM c";

describe.each(DATABASES)("query results and jobs on %s", (db) => {
  let server: TestServer;
  let admin: TestClient;
  let user: TestClient;
  let orgId: number;
  let dsId: number;
  let adminOnlyDs: number;
  let timeoutDs: number;

  const addDataSource = (name: string, options: Record<string, unknown>, groupId: number) =>
    insertDataSourceRow(server.ctx.database.db, orgId, {
      name,
      type: "sqlite",
      encryptedOptions: writeDataSourceOptions(server.ctx, options),
      groupIds: [groupId],
    });

  /** A published query of the first admin's (user 1). */
  const addQuery = (name: string, text: string, dataSourceId: number) =>
    insertTestQuery(server.ctx.database.db, orgId, {
      dataSourceId,
      userId: 1,
      name,
      text,
      hash: queryHash(text),
    });

  async function pollJob(client: TestClient, id: string, until: (status: number) => boolean) {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const res = await client.get(`/api/jobs/${id}`);
      if (until(res.body.job?.status) || Date.now() > deadline) return res;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Runs text and returns `{query_result}` even when the machine is slow and a job comes back. */
  async function runToResult(client: TestClient, url: string, body: Record<string, unknown>) {
    const res = await client.post(url, body);
    if (res.status !== 200 || res.body.query_result) return res;
    const done = await pollJob(client, res.body.job.id, (s) => s === 3 || s === 4);
    const id = done.body.job.query_result_id;
    return client.get(`/api/query_results/${id}`);
  }

  beforeAll(async () => {
    ({ server, admin } = await startWithAdmin(db));
    const dbx = server.ctx.database.db;
    orgId = (await findOrgBySlug(dbx, "default"))!.id;
    const files = server.config.fileDataDir!;
    fs.mkdirSync(files, { recursive: true });
    const data = new SQLite(path.join(files, "shop.db"));
    data.exec(
      "CREATE TABLE orders (id INTEGER, customer TEXT, placed DATE, paid BOOLEAN);" +
        "INSERT INTO orders VALUES (1, 'Ann', '2019-05-26', 1), (2, 'Bob', '2019-05-27', 0);",
    );
    data.close();
    const defaultGroup = await defaultGroupId(dbx, orgId);
    dsId = await addDataSource("shop", { dbpath: "shop.db" }, defaultGroup);
    adminOnlyDs = await addDataSource(
      "secret",
      { dbpath: "shop.db" },
      await adminGroupId(dbx, orgId),
    );
    timeoutDs = await addDataSource("slow", { dbpath: "shop.db", timeout: 1 }, defaultGroup);
    await insertUser(dbx, {
      orgId,
      name: "Uma User",
      email: "uma@example.com",
      passwordHash: await hashPassword("secret123"),
      groupIds: [defaultGroup],
      invitationPending: false,
    });
    user = new TestClient(server.url);
    await user.login("uma@example.com", "secret123");
  });

  afterAll(async () => {
    await server?.close();
  });

  it("refuses without a data source, with Redash's exact body", async () => {
    const res = await admin.post("/api/query_results", { query: "SELECT 1" });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      job: { status: 4, error: "Please select data source to run this query." },
    });
  });

  it("runs a fast query and answers with its result, then serves it from the cache", async () => {
    const res = await runToResult(user, "/api/query_results", {
      query: "SELECT id, customer FROM orders ORDER BY id",
      data_source_id: dsId,
    });
    expect(res.status).toBe(200);
    const result = res.body.query_result;
    expect(result.data.rows).toEqual([
      { id: 1, customer: "Ann" },
      { id: 2, customer: "Bob" },
    ]);
    expect(result.data.columns.map((c: { name: string }) => c.name)).toEqual(["id", "customer"]);
    expect(result).toMatchObject({
      data_source_id: dsId,
      query: "SELECT id, customer FROM orders ORDER BY id",
    });
    expect(result.query_hash).toBe(queryHash("SELECT id, customer FROM orders ORDER BY id"));

    const again = await runToResult(user, "/api/query_results", {
      query: "SELECT id, customer FROM orders ORDER BY id",
      data_source_id: dsId,
    });
    expect(again.body.query_result.id).toBe(result.id);
    const fresh = await user.post("/api/query_results", {
      query: "SELECT id, customer FROM orders ORDER BY id",
      data_source_id: dsId,
      max_age: 0,
    });
    expect(fresh.body.query_result?.id ?? fresh.body.job?.id).not.toBe(result.id);
    // Auto limit changes the executed text, so the cached result does not match.
    const limited = await runToResult(user, "/api/query_results", {
      query: "SELECT id, customer FROM orders ORDER BY id",
      data_source_id: dsId,
      apply_auto_limit: true,
    });
    expect(limited.body.query_result.query).toBe(
      "SELECT id, customer FROM orders ORDER BY id LIMIT 1000",
    );
    expect(limited.body.query_result.id).not.toBe(result.id);
  });

  it("checks parameters, access and pausing (§4.1)", async () => {
    const missing = await user.post("/api/query_results", {
      query: "SELECT {{param}}",
      data_source_id: dsId,
    });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({
      job: { status: 4, error: "Missing parameter value for: param" },
    });
    const given = await user.post("/api/query_results", {
      query: "SELECT {{param}} AS p",
      data_source_id: dsId,
      parameters: { param: 1 },
    });
    expect(given.status).toBe(200);
    const fromUrl = await runToResult(user, "/api/query_results?p_param=2", {
      query: "SELECT {{param}} AS p",
      data_source_id: dsId,
    });
    expect(fromUrl.status).toBe(200);
    expect(fromUrl.body.query_result.data.rows).toEqual([{ p: 2 }]);

    const denied = await user.post("/api/query_results", {
      query: "SELECT 1",
      data_source_id: adminOnlyDs,
    });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({
      job: { status: 4, error: "You do not have permission to run queries with this data source." },
    });
    expect(
      (await user.post("/api/query_results", { query: "SELECT 1", data_source_id: 99999 })).status,
    ).toBe(404);
    expect(
      (await user.post("/api/query_results", { query: "SELECT 1", data_source_id: "x" })).status,
    ).toBe(400);
    expect((await user.post("/api/query_results", { data_source_id: dsId })).status).toBe(400);

    await server.ctx.database.db
      .updateTable("data_sources")
      .set({ paused: true, pause_reason: "maintenance" })
      .where("id", "=", dsId)
      .execute();
    const paused = await user.post("/api/query_results", {
      query: "SELECT 2",
      data_source_id: dsId,
    });
    await server.ctx.database.db
      .updateTable("data_sources")
      .set({ paused: false, pause_reason: null })
      .where("id", "=", dsId)
      .execute();
    expect(paused.status).toBe(400);
    expect(paused.body).toEqual({
      job: { status: 4, error: "shop is paused (maintenance). Please try later." },
    });
  });

  it("cancels a long query: the job ends with the cancel message", async () => {
    const res = await user.post("/api/query_results", {
      query: LONG_QUERY,
      data_source_id: dsId,
      max_age: 0,
    });
    expect(res.status).toBe(200);
    const job = res.body.job;
    expect(job).toMatchObject({ status: 2, error: "", query_result_id: null, result: null });
    expect(typeof job.updated_at).toBe("string");
    // Another user who cannot see the data source cannot see the job; admins can.
    expect((await admin.get(`/api/jobs/${job.id}`)).status).toBe(200);
    expect((await user.get(`/api/queries/1/jobs/${job.id}`)).status).toBe(200);
    const cancel = await user.delete(`/api/jobs/${job.id}`);
    expect(cancel.status).toBe(200);
    expect(cancel.body).toBeNull();
    const after = await user.get(`/api/jobs/${job.id}`);
    expect(after.body.job).toMatchObject({ status: 4, error: CANCELLED_MESSAGE, updated_at: 0 });
    expect((await user.get("/api/jobs/not-a-job")).status).toBe(404);
    const visitor = new TestClient(server.url);
    expect((await visitor.get(`/api/jobs/${job.id}`)).status).toBe(404);
  });

  it("answers a saved query's long run with a job of the same shape", async () => {
    const saved = await addQuery("long", LONG_QUERY, dsId);
    for (const route of [`/api/queries/${saved.id}/results`, `/api/queries/${saved.id}/refresh`]) {
      const res = await admin.post(route, { max_age: 0 });
      expect(res.status, route).toBe(200);
      expect(res.body.job, route).toMatchObject({ error: "", query_result_id: null, result: null });
      await admin.delete(`/api/jobs/${res.body.job.id}`);
    }
  });

  it("answers the legacy refresh route with a job even when the query is fast (§3.14)", async () => {
    const saved = await addQuery("fast refresh", "SELECT 3 AS three", dsId);
    // The results route answers such a query inline (or with a job on a loaded machine);
    // refresh keeps Redash's job answer, which scripts read as `response.json()["job"]`.
    const inline = await runToResult(admin, `/api/queries/${saved.id}/results`, { max_age: 0 });
    expect(inline.body.query_result?.data.rows).toEqual([{ three: 3 }]);
    const res = await admin.post(`/api/queries/${saved.id}/refresh`, {});
    expect(res.status).toBe(200);
    expect(res.body.query_result).toBeUndefined();
    expect(res.body.job).toMatchObject({ id: expect.any(String), error: "" });
    const done = await pollJob(admin, res.body.job.id, (s) => s === 3 || s === 4);
    expect(done.body.job).toMatchObject({ status: 3, query_result_id: expect.any(Number) });
    const result = await admin.get(`/api/query_results/${done.body.job.query_result_id}`);
    expect(result.body.query_result.data.rows).toEqual([{ three: 3 }]);
  });

  it("stops a query at the data source's time limit", async () => {
    const res = await user.post("/api/query_results", {
      query: LONG_QUERY,
      data_source_id: timeoutDs,
      max_age: 0,
    });
    const done = await pollJob(user, res.body.job.id, (s) => s === 3 || s === 4);
    expect(done.body.job).toMatchObject({ status: 4, error: TIMEOUT_MESSAGE });
  });

  it("serves results by id and as downloads (§4.3, §4.4)", async () => {
    const text = "SELECT id, placed, paid FROM orders ORDER BY id";
    const run = await runToResult(user, "/api/query_results", {
      query: text,
      data_source_id: dsId,
    });
    const rid = run.body.query_result.id;

    const json = await user.get(`/api/query_results/${rid}`);
    expect(json.status).toBe(200);
    expect(json.headers.get("cache-control")).toBe("private,max-age=31557600");
    expect(json.headers.get("content-disposition")).toMatch(
      /^attachment; filename=\d+_\d{4}_\d{2}_\d{2}\.json$/,
    );
    expect(json.body.query_result.id).toBe(rid);

    // Dates in ISO 8601 whatever the organisation's date format (here one with 2-digit years).
    await admin.post("/api/settings/organization", { date_format: "DD/MM/YY" });
    const csv = await user.get(`/api/query_results/${rid}.csv`);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=UTF-8");
    expect(csv.text.split("\r\n")[0]).toBe("id,placed,paid");
    // SQLite hands booleans over as 0/1; only real booleans become true/false.
    expect(csv.text.split("\r\n")[1]).toBe("1,2019-05-26,1");
    const tsv = await user.get(`/api/query_results/${rid}.tsv`);
    expect(tsv.text.split("\r\n").slice(0, 2)).toEqual(["id\tplaced\tpaid", "1\t2019-05-26\t1"]);
    await admin.post("/api/settings/organization", { date_format: "YYYY-MM-DD" });
    const xlsx = await fetch(`${server.url}/api/query_results/${rid}.xlsx`, {
      headers: { cookie: [...user.cookies].map(([k, v]) => `${k}=${v}`).join("; ") },
    });
    expect(xlsx.status).toBe(200);
    const bytes = Buffer.from(await xlsx.arrayBuffer());
    expect(bytes.subarray(0, 2).toString()).toBe("PK");
    expect((await user.get(`/api/query_results/${rid}.pdf`)).status).toBe(400);
    expect((await user.get(`/api/query_results/99999`)).status).toBe(404);
    expect((await user.get(`/api/query_results/abc`)).status).toBe(404);

    const secret = await runToResult(admin, "/api/query_results", {
      query: "SELECT 5 AS five",
      data_source_id: adminOnlyDs,
    });
    expect((await user.get(`/api/query_results/${secret.body.query_result.id}`)).status).toBe(403);
  });

  it("serves a query's latest result, with API-key hash checks", async () => {
    const text = "SELECT customer FROM orders ORDER BY id";
    const q = await addQuery("מכירות (sales)", text, dsId);
    const none = await user.get(`/api/queries/${q.id}/results`);
    expect(none.status).toBe(404);
    expect(none.body.message).toBe("No cached result found for this query.");

    const run = await runToResult(user, "/api/query_results", {
      query: text,
      data_source_id: dsId,
      max_age: 0,
    });
    const rid = run.body.query_result.id;
    const latest = await user.get(`/api/queries/${q.id}/results`);
    expect(latest.status).toBe(200);
    expect(latest.body.query_result.id).toBe(rid);
    expect(latest.headers.get("cache-control")).toBeNull();
    const disposition = latest.headers.get("content-disposition")!;
    expect(/^[\x20-\x7e]+$/.test(disposition)).toBe(true);
    expect(disposition).toContain("filename*=UTF-8''");
    const csv = await user.get(`/api/queries/${q.id}/results.csv`);
    expect(csv.text).toBe("customer\r\nAnn\r\nBob\r\n");
    const explicit = await user.get(`/api/queries/${q.id}/results/${rid}.json`);
    expect(explicit.headers.get("cache-control")).toBe("private,max-age=31557600");

    const embed = new TestClient(server.url);
    embed.apiKey = q.api_key;
    expect((await embed.get(`/api/queries/${q.id}/results`)).status).toBe(200);
    expect((await embed.get(`/api/queries/${q.id}/results/${rid}.json`)).status).toBe(200);
    const other = await runToResult(user, "/api/query_results", {
      query: "SELECT 3",
      data_source_id: dsId,
    });
    const mismatch = await embed.get(
      `/api/queries/${q.id}/results/${other.body.query_result.id}.json`,
    );
    expect(mismatch.status).toBe(404);
  });

  it("admin queue pages need a super admin", async () => {
    const rq = await admin.get("/api/admin/queries/rq_status");
    expect(rq.status).toBe(200);
    expect(rq.body.queues.queries).toMatchObject({ name: "queries", queued: 0 });
    expect(rq.body.workers[0]).toHaveProperty("successful_jobs");
    expect((await user.get("/api/admin/queries/rq_status")).status).toBe(403);
    expect((await new TestClient(server.url).get("/api/admin/queries/rq_status")).status).toBe(403);
    const outdated = await admin.get("/api/admin/queries/outdated");
    expect(outdated.status).toBe(200);
    expect(Array.isArray(outdated.body.queries)).toBe(true);
    const status = await admin.get("/status.json");
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({
      workers: [],
      manager: { queues: { queries: { size: 0 } } },
    });
    // The embedded mode has no Redis: the in-process queue's own counts, not "0 bytes" of Redis.
    expect(status.body).toMatchObject({
      queue_backend: "in-process",
      queued_jobs: 0,
      started_jobs: 0,
      successful_jobs: expect.any(Number),
      failed_jobs: expect.any(Number),
    });
    expect(status.body.successful_jobs).toBeGreaterThan(0);
    expect(status.body).not.toHaveProperty("redis_used_memory");
    expect(status.body.query_results_count).toBeGreaterThan(0);
    // Without SIGHTLINE_RESULTS_URL every result is in the metadata database (issue 30).
    const storage = status.body.query_results_storage;
    expect(storage.new_results_in).toBe("metadata_database");
    expect(storage.object_storage).toEqual({ count: 0, size: 0, stored_size: null });
    expect(storage.metadata_database.count).toBe(status.body.query_results_count);
    expect(storage.metadata_database.size).toBeGreaterThan(0);
    expect(storage.metadata_database.stored_size).toBeGreaterThan(0);
    expect(status.body.database_metrics.metrics).toContainEqual([
      "Query Results in Metadata DB",
      storage.metadata_database.size,
    ]);
    const anonymous = await new TestClient(server.url).get("/status.json?x=1");
    expect(anonymous.status).toBe(302);
    // Back to the whole address after signing in (api-platform.md §2.6).
    expect(anonymous.headers.get("location")).toBe("/login?next=%2Fstatus.json%3Fx%3D1");
    expect((await user.get("/status.json")).status).toBe(403);
  });
});

describe("executions while the queue's Redis is out of reach", () => {
  let server: TestServer;
  let admin: TestClient;

  beforeAll(async () => {
    // Nothing listens on port 1: every queue command fails after the command timeout (3 s).
    server = await startTestServer("sqlite", {
      SIGHTLINE_REDIS_URL: "redis://127.0.0.1:1",
    });
    admin = await setUpAndLogin(server.url);
  });

  afterAll(async () => {
    await server?.close();
  });

  it("answer 503 with a clear message on every execution route, and the rest keeps serving", async () => {
    // Not the Demo source: it stays paused (a 400) until its data is generated.
    const dataSourceId = await createDataSource(admin, "Memory", "duckdb", { dbpath: ":memory:" });
    const adhoc = await admin.post("/api/query_results", {
      query: "SELECT 1",
      data_source_id: dataSourceId,
      max_age: 0,
    });
    expect(adhoc.status).toBe(503);
    expect(adhoc.body.message).toMatch(/^The query queue is unavailable: /);

    const saved = await admin.post("/api/queries", {
      name: "q",
      query: "SELECT 2",
      data_source_id: dataSourceId,
    });
    expect(saved.status).toBe(200);
    for (const route of [
      `/api/queries/${saved.body.id}/results`,
      `/api/queries/${saved.body.id}/refresh`,
    ]) {
      const res = await admin.post(route, {});
      expect(res.status, route).toBe(503);
      expect(res.body.message).toMatch(/^The query queue is unavailable: /);
    }
    expect((await admin.get("/api/session")).status).toBe(200);
    expect((await admin.get(`/api/queries/${saved.body.id}`)).status).toBe(200);
  }, 30_000);
});
