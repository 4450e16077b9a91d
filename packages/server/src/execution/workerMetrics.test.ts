// Scaled mode: a `sightline worker` process serves /metrics on SIGHTLINE_METRICS_PORT with the
// servers' token, counting the jobs it ran (which no HTTP server of the deployment sees).
import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDataSource, setUpAndLogin, type TestClient } from "../testing/httpClient";
import { freePort } from "../testing/processes";
import { TEST_REDIS_URL, deleteRedisKeys, redisAvailable } from "../testing/services";
import { startTestServer, type TestServer } from "../testing/testServer";

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../bin/sightline.js");
const TOKEN = crypto.randomBytes(24).toString("hex");

describe.runIf(process.env.CI === "true" || (await redisAvailable()))(
  "a worker process's metrics",
  { timeout: 150_000 },
  () => {
    const prefix = `sltest_wmetrics_${crypto.randomBytes(4).toString("hex")}`;
    let server: TestServer;
    let admin: TestClient;
    let worker: ChildProcess | null = null;
    let metricsUrl = "";

    beforeAll(async () => {
      server = await startTestServer("sqlite", {
        SIGHTLINE_REDIS_URL: TEST_REDIS_URL,
        SIGHTLINE_REDIS_PREFIX: prefix,
      });
      admin = await setUpAndLogin(server.url);
      fs.mkdirSync(server.config.fileDataDir!, { recursive: true });
      const port = await freePort();
      metricsUrl = `http://127.0.0.1:${port}/metrics`;
      worker = spawn(process.execPath, [BIN, "worker"], {
        env: {
          ...process.env,
          SIGHTLINE_DATA_DIR: server.dataDir,
          SIGHTLINE_SECRET_KEY: server.config.secretKey!,
          SIGHTLINE_REDIS_URL: TEST_REDIS_URL,
          SIGHTLINE_REDIS_PREFIX: prefix,
          SIGHTLINE_HOST: "127.0.0.1",
          SIGHTLINE_METRICS_PORT: String(port),
          SIGHTLINE_METRICS_TOKEN: TOKEN,
          SIGHTLINE_LOG_LEVEL: "error",
        },
        stdio: "ignore",
      });
    });

    afterAll(async () => {
      if (worker && worker.exitCode === null) worker.kill("SIGKILL");
      await server?.close();
      await deleteRedisKeys(prefix);
    });

    it("counts the jobs it ran, for the token only", async () => {
      const source = await createDataSource(admin, "memory", "duckdb", { dbpath: ":memory:" });
      const run = await admin.post("/api/query_results", {
        data_source_id: source,
        query: "SELECT 42 AS answer",
        max_age: 0,
      });
      expect(run.status).toBe(200);
      // The worker process starts (tsx compiles on start: slow on a loaded machine) and runs it.
      const jobId: string | undefined = run.body.job?.id;
      if (jobId) {
        await expect
          .poll(async () => (await admin.get(`/api/jobs/${jobId}`)).body.job.status, {
            timeout: 90_000,
            interval: 250,
          })
          .toBe(3);
      }
      const scrape = () =>
        fetch(metricsUrl, { headers: { authorization: `Bearer ${TOKEN}` } }).then(
          (res) => (res.ok ? res.text() : ""),
          () => "",
        );
      await expect.poll(scrape, { timeout: 30_000 }).toContain("sightline_jobs_total");
      const text = await scrape();
      expect(text).toMatch(
        /^sightline_jobs_total\{state="finished",data_source_type="duckdb"\} 1$/m,
      );
      expect(text).toContain("process_cpu_user_seconds_total");
      expect((await fetch(metricsUrl)).status).toBe(401);
    });
  },
);
