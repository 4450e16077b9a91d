// Fair queues through the HTTP API (issue 30): a user's runs beyond the waiting limit are refused
// with a clear 429 in Redash's job shape, and rq_status shows each data source's running and
// waiting work against its limit. Both metadata stores, both queue backends.
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tooManyWaitingMessage } from "../execution/fairness";
import type { RunningExecution } from "../execution/runtime";
import { TEST_REDIS_URL, deleteRedisKeys, metadataDatabases } from "../testing/services";
import { setUpAndLogin, type TestClient } from "../testing/httpClient";
import { startTestServer, startTestWorker, type TestServer } from "../testing/testServer";

/** DuckDB counting for hours: a job that stays running until it is cancelled. */
const endless = (n: number) => `SELECT count(*) FROM range(1000000000000) t(x) WHERE x % 7 = ${n}`;

const CASES = (await metadataDatabases()).flatMap((db) => [
  [db, "in-process"] as const,
  [db, "BullMQ"] as const,
]);

describe.each(CASES)("fair queues over HTTP on %s, %s queue", (db, queue) => {
  const prefix = `sltest_fairhttp_${crypto.randomBytes(4).toString("hex")}`;
  let server: TestServer;
  let admin: TestClient;
  let sourceId: number;
  let worker: RunningExecution | null = null;
  const jobs: string[] = [];

  beforeAll(async () => {
    server = await startTestServer(db, {
      SIGHTLINE_DATA_SOURCE_MAX_RUNNING: "1",
      SIGHTLINE_USER_MAX_WAITING: "1",
      ...(queue === "BullMQ"
        ? { SIGHTLINE_REDIS_URL: TEST_REDIS_URL, SIGHTLINE_REDIS_PREFIX: prefix }
        : {}),
    });
    admin = await setUpAndLogin(server.url);
    if (queue === "BullMQ") {
      // The scaled server has no worker of its own: a worker process's part, as `sightline worker`.
      worker = await startTestWorker(server);
    }
    const source = await admin.post("/api/data_sources", {
      name: "counting",
      type: "results",
      options: {},
    });
    sourceId = source.body.id;
  });

  afterAll(async () => {
    for (const id of jobs) await admin.delete(`/api/jobs/${id}`);
    await worker?.close();
    await server?.close();
    if (queue === "BullMQ") await deleteRedisKeys(prefix);
  });

  const run = (n: number) =>
    admin.post("/api/query_results", { data_source_id: sourceId, query: endless(n), max_age: 0 });

  it("refuses a run beyond the user's waiting limit, and shows the data source's load", async () => {
    const first = await run(1);
    expect(first.status).toBe(200);
    jobs.push(first.body.job.id);
    await expect
      .poll(async () => (await admin.get(`/api/jobs/${jobs[0]}`)).body.job.status, {
        timeout: 15_000,
      })
      .toBe(2);
    // The data source runs one at a time: the second waits, the third is one too many.
    const second = await run(2);
    expect(second.status).toBe(200);
    jobs.push(second.body.job.id);
    expect(second.body.job.status).toBe(1);
    const third = await run(3);
    expect(third.status).toBe(429);
    expect(third.body).toEqual({ job: { status: 4, error: tooManyWaitingMessage(1) } });

    const rq = await admin.get("/api/admin/queries/rq_status");
    expect(rq.status).toBe(200);
    expect(rq.body.data_sources).toEqual([
      { id: sourceId, name: "counting", running: 1, waiting: 1, limit: 1 },
    ]);

    // Cancelling the waiting run makes room for another.
    expect((await admin.delete(`/api/jobs/${jobs[1]}`)).status).toBe(200);
    const again = await run(4);
    expect(again.status).toBe(200);
    jobs.push(again.body.job.id);
  });
});
