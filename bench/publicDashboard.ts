// 200 concurrent anonymous viewers of a 10-widget public dashboard on the embedded default
// (issue 17): each replays the calls of the public page with the share key: GET the public
// dashboard, POST each widget's query, poll the jobs, GET the results. Prints errors,
// p50/p95/p99 latency, requests per second, the number of database executions (target: one per
// distinct query per refresh period) and the server's memory before and after.
import http from "node:http";
import os from "node:os";
import path from "node:path";
import Database from "../packages/server/src/store/sqliteDriver.mjs";
import {
  createDataSource,
  isMain,
  mb,
  ms,
  percentile,
  processMemory,
  setUpAndLogin,
  spawnSightline,
  sleep,
  tempDir,
  type Figure,
} from "./support";

const VIEWERS = Number(process.env.BENCH_PUBLIC_VIEWERS ?? 200);
/** Page loads per viewer, one after the other. */
const LOADS = Number(process.env.BENCH_PUBLIC_LOADS ?? 3);
const WIDGETS = 10;
const BROWSER_CONNECTIONS = 6;
const MIN_RESULT_AGE_SECONDS = 60;
/** A page gives up on a job after this long (bounds the run). */
const JOB_TIMEOUT_MS = 60_000;

interface Tally {
  latencies: number[];
  errors: string[];
}

/**
 * Kept-alive connections shared by the viewers, one per viewer at most: a crowd of new TCP
 * connections on this small, shared machine times out in the kernel's accept queue before the
 * server sees it, which would measure the machine rather than the server.
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: VIEWERS });

function request(
  url: string,
  token: string,
  body: unknown,
): Promise<{ status: number; json: Record<string, any> }> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        agent,
        method: payload === undefined ? "GET" : "POST",
        headers: {
          authorization: `Key ${token}`,
          ...(payload === undefined ? {} : { "content-type": "application/json" }),
        },
        timeout: 120_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          try {
            resolve({
              status: res.statusCode ?? 0,
              json: JSON.parse(Buffer.concat(chunks).toString()),
            });
          } catch (error) {
            reject(error as Error);
          }
        });
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error("no answer in 120 s")));
    req.on("error", reject);
    req.end(payload);
  });
}

/** One HTTP call with the share key, as the public page makes it; timed and checked. */
async function call(
  tally: Tally,
  url: string,
  token: string,
  body?: unknown,
): Promise<Record<string, any> | null> {
  const start = performance.now();
  try {
    const { status, json } = await request(url, token, body);
    tally.latencies.push(performance.now() - start);
    if (status !== 200) {
      tally.errors.push(`${status} ${url}: ${JSON.stringify(json).slice(0, 120)}`);
      return null;
    }
    return json;
  } catch (error) {
    tally.errors.push(`${url}: ${(error as Error).message}`);
    return null;
  }
}

/** One widget: run (asking for a fresh result, the worst case), poll its job, read its result. */
async function loadWidget(tally: Tally, base: string, token: string, queryId: number) {
  const answer = await call(tally, `${base}/api/queries/${queryId}/results`, token, {
    parameters: {},
    max_age: 0,
  });
  if (!answer || answer.query_result) return;
  let job = answer.job as { id: string; status: number; query_result_id: number | null };
  const deadline = Date.now() + JOB_TIMEOUT_MS;
  while (job.status < 3) {
    if (Date.now() > deadline) {
      tally.errors.push(`job ${job.id} did not finish in ${JOB_TIMEOUT_MS} ms`);
      return;
    }
    await sleep(200);
    const polled = await call(tally, `${base}/api/jobs/${job.id}`, token);
    if (!polled) return;
    job = polled.job;
  }
  if (job.status !== 3) {
    tally.errors.push(`job ${job.id} ended with status ${job.status}`);
    return;
  }
  await call(tally, `${base}/api/queries/${queryId}/results/${job.query_result_id}.json`, token);
}

async function viewer(tally: Tally, base: string, token: string) {
  for (let load = 0; load < LOADS; load += 1) {
    const page = await call(tally, `${base}/api/dashboards/public/${token}`, token);
    if (!page) continue;
    const queryIds = (page.widgets as { visualization?: { query: { id: number } } }[])
      .map((w) => w.visualization?.query.id)
      .filter((id): id is number => id !== undefined);
    // A browser opens at most 6 connections to one host: widgets load 6 at a time.
    const queue = [...queryIds];
    const lane = async () => {
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
        await loadWidget(tally, base, token, id);
      }
    };
    await Promise.all(Array.from({ length: BROWSER_CONNECTIONS }, lane));
  }
}

export async function publicDashboardBenchmark(): Promise<Figure[]> {
  const dataDir = tempDir("public");
  const server = await spawnSightline("all", {
    SIGHTLINE_DATA_DIR: dataDir,
    SIGHTLINE_LOG_LEVEL: "warn",
    // Every viewer here comes from 127.0.0.1: one address, so its limit is lifted for the run.
    SIGHTLINE_PUBLIC_RATE_LIMIT: "1000000",
  });
  try {
    const admin = await setUpAndLogin(server.url);
    const dsId = await createDataSource(admin, "Memory", "duckdb", { dbpath: ":memory:" });
    const dashboard = await admin.post<{ id: number }>("/api/dashboards", { name: "Public" });
    for (let i = 0; i < WIDGETS; i += 1) {
      // A query worth sharing: a few thousand rows aggregated, not a constant.
      const query = await admin.post<{ id: number; visualizations: { id: number }[] }>(
        "/api/queries",
        {
          name: `Widget ${i}`,
          query: `SELECT range % 10 AS bucket, count(*) AS n, ${i} AS widget FROM range(200000) GROUP BY 1 ORDER BY 1`,
          data_source_id: dsId,
        },
      );
      await admin.post(`/api/queries/${query.body.id}`, { is_draft: false });
      await admin.post("/api/widgets", {
        dashboard_id: dashboard.body.id,
        visualization_id: query.body.visualizations[0]!.id,
        text: "",
        width: 1,
        options: { position: { col: (i % 2) * 3, row: Math.floor(i / 2) * 8, sizeX: 3, sizeY: 8 } },
      });
    }
    const share = await admin.post<{ api_key: string }>(
      `/api/dashboards/${dashboard.body.id}/share`,
    );
    const token = share.body.api_key;

    const metadata = path.join(dataDir, "sightline.db");
    const executions = () => {
      const db = new Database(metadata, { readonly: true, fileMustExist: true });
      try {
        return Number(
          (
            db
              .prepare("SELECT count(*) AS n FROM query_results WHERE data_source_id = ?")
              .get(dsId) as {
              n: number;
            }
          ).n,
        );
      } finally {
        db.close();
      }
    };

    const load = os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ");
    const before = processMemory(server.pid);
    const executionsBefore = executions();
    const tally: Tally = { latencies: [], errors: [] };
    const start = performance.now();
    await Promise.all(Array.from({ length: VIEWERS }, () => viewer(tally, server.url, token)));
    const seconds = (performance.now() - start) / 1000;
    const after = processMemory(server.pid);
    const ran = executions() - executionsBefore;

    // Results younger than SIGHTLINE_PUBLIC_MIN_RESULT_AGE (default 60 s) are served as they are.
    const periods = Math.ceil(seconds / MIN_RESULT_AGE_SECONDS);
    const target = WIDGETS * periods;
    const requests = tally.latencies.length;
    const rps = requests / seconds;
    const p = (q: number) => ms(percentile(tally.latencies, q));
    console.log(
      `\n## Public dashboard: ${VIEWERS} concurrent anonymous viewers × ${LOADS} page loads, ${WIDGETS} widgets\n`,
    );
    console.log(`machine load average (1/5/15 min) before: ${load}; ${os.cpus().length} cores`);
    console.log(`requests ${requests} in ${seconds.toFixed(1)} s: ${rps.toFixed(0)} requests/s`);
    console.log(`errors ${tally.errors.length}`);
    for (const error of tally.errors.slice(0, 5)) console.log(`  ${error}`);
    console.log(`latency p50 ${p(50)}, p95 ${p(95)}, p99 ${p(99)}`);
    console.log(
      `database executions ${ran} for ${WIDGETS} distinct queries over ${periods} period(s) of ${MIN_RESULT_AGE_SECONDS} s (target at most ${target}: one per query per period)`,
    );
    console.log(
      `server memory: RSS ${mb(before.rss)} before, ${mb(after.rss)} after (peak ${mb(after.peak)})`,
    );
    return [
      {
        benchmark: "publicDashboard",
        measure: `${VIEWERS} anonymous viewers × ${LOADS} loads of a ${WIDGETS}-widget public dashboard: errors`,
        value: String(tally.errors.length),
        target: "0",
        met: tally.errors.length === 0,
      },
      {
        benchmark: "publicDashboard",
        measure: "latency p50 / p95 / p99, requests per second",
        value: `${p(50)} / ${p(95)} / ${p(99)}, ${rps.toFixed(0)}/s`,
        target: "printed",
        met: null,
      },
      {
        benchmark: "publicDashboard",
        measure: "database executions",
        value: String(ran),
        target: `≤ ${target} (one per query per ${MIN_RESULT_AGE_SECONDS} s period)`,
        met: ran <= target,
      },
      {
        benchmark: "publicDashboard",
        measure: "server memory (RSS before → after, peak)",
        value: `${mb(before.rss)} → ${mb(after.rss)}, peak ${mb(after.peak)}`,
        target: "printed",
        met: null,
      },
    ];
  } finally {
    agent.destroy();
    await server.stop();
  }
}

if (isMain(import.meta.url)) await publicDashboardBenchmark();
