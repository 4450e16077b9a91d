// 50 concurrent executions of distinct DuckDB queries, on the in-process queue (`sightline all`)
// and on BullMQ (`sightline server` + `sightline worker` sharing Redis and the metadata store).
import fs from "node:fs";
import path from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { Redis } from "ioredis";
import {
  createDataSource,
  executeQuery,
  isMain,
  ms,
  REDIS_URL,
  secretKey,
  setUpWithDemo,
  spawnSightline,
  tempDir,
  type Figure,
  type SightlineProcess,
} from "./support";

const QUERIES = Number(process.env.BENCH_CONCURRENT_QUERIES ?? 50);
const TABLE_ROWS = 200_000;
const GROUPS = 97;
const FILE = "concurrency.duckdb";
/** A Redis database of its own, so no other Sightline worker on this Redis takes the jobs. */
const REDIS_DB = Number(process.env.BENCH_REDIS_DB ?? 13);

async function createTable(fileDir: string): Promise<void> {
  const instance = await DuckDBInstance.create(path.join(fileDir, FILE));
  const connection = await instance.connect();
  await connection.run(
    `CREATE TABLE t AS SELECT i::INTEGER AS id, i % ${GROUPS} AS grp, i * 1.5 AS amount
     FROM range(${TABLE_ROWS}) r(i)`,
  );
  connection.closeSync();
  instance.closeSync();
}

/** Different texts, so no two executions share a job. */
function queryText(i: number): string {
  return `SELECT ${i} AS run, grp, count(*) AS n, sum(amount + ${i}) AS total FROM t GROUP BY grp ORDER BY grp`;
}

interface Outcome {
  completed: number;
  failed: string[];
  elapsed: number;
}

async function burst(
  url: string,
  setUp: Awaited<ReturnType<typeof setUpWithDemo>>,
): Promise<Outcome> {
  const { client } = setUp;
  const id = await createDataSource(client, "Concurrency DuckDB", "duckdb", {
    dbpath: FILE,
    read_only: true,
  });
  // Warm up: the DuckDB instance is opened and sandboxed once per process.
  await executeQuery(client, id, "SELECT 1");
  const start = performance.now();
  const settled = await Promise.allSettled(
    Array.from({ length: QUERIES }, (_, i) => executeQuery(client, id, queryText(i), 50)),
  );
  const elapsed = performance.now() - start;
  const failed: string[] = [];
  const resultIds = new Set<number>();
  for (const [i, outcome] of settled.entries()) {
    if (outcome.status === "rejected") {
      failed.push(`#${i}: ${(outcome.reason as Error).message}`);
      continue;
    }
    resultIds.add(outcome.value);
    // Each result holds its own query's rows: nothing was mixed up or lost.
    const res = await client.get<{ query_result?: { data: { rows: { run: number }[] } } }>(
      `/api/query_results/${outcome.value}`,
    );
    const rows = res.body.query_result?.data.rows ?? [];
    if (rows.length !== GROUPS || rows.some((r) => r.run !== i)) {
      failed.push(`#${i}: result ${outcome.value} has wrong rows (${url})`);
    }
  }
  if (resultIds.size !== settled.filter((s) => s.status === "fulfilled").length) {
    failed.push("two executions answered with the same result");
  }
  return { completed: QUERIES - failed.length, failed, elapsed };
}

function report(name: string, outcome: Outcome): Figure[] {
  const throughput = (QUERIES / outcome.elapsed) * 1000;
  console.log(
    `${name.padEnd(28)} ${outcome.completed}/${QUERIES} complete in ${ms(outcome.elapsed)}, ` +
      `${throughput.toFixed(1)} queries/s`,
  );
  for (const failure of outcome.failed) console.log(`  failed ${failure}`);
  return [
    {
      benchmark: `concurrency, ${name}`,
      measure: `${QUERIES} distinct queries`,
      value: `${outcome.completed}/${QUERIES} in ${ms(outcome.elapsed)}, ${throughput.toFixed(1)} q/s`,
      target: "all complete",
      met: outcome.failed.length === 0,
    },
  ];
}

async function inProcess(fileDir: string): Promise<Figure[]> {
  const dataDir = tempDir("conc-mem");
  const server = await spawnSightline("all", {
    SIGHTLINE_DATA_DIR: dataDir,
    SIGHTLINE_FILE_DATA_DIR: fileDir,
    SIGHTLINE_LOG_LEVEL: "warn",
  });
  try {
    return report("in-process queue", await burst(server.url, await setUpWithDemo(server.url)));
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function clearRedis(url: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true });
  await redis.connect();
  try {
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", "sightline:*", "COUNT", 1000);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== "0");
  } finally {
    redis.disconnect();
  }
}

/**
 * Scaled mode: the HTTP server enqueues into BullMQ, a separate worker process runs the jobs.
 * Both share the data folder, so the SQLite metadata store (which config.ts accepts in scaled
 * mode) and the secret key.
 */
async function bullmq(fileDir: string): Promise<Figure[]> {
  const dataDir = tempDir("conc-bull");
  const redisUrl = new URL(REDIS_URL);
  redisUrl.pathname = `/${REDIS_DB}`;
  const env = {
    SIGHTLINE_DATA_DIR: dataDir,
    SIGHTLINE_FILE_DATA_DIR: fileDir,
    SIGHTLINE_REDIS_URL: redisUrl.toString(),
    SIGHTLINE_SECRET_KEY: secretKey(),
  };
  await clearRedis(env.SIGHTLINE_REDIS_URL);
  const processes: SightlineProcess[] = [];
  try {
    const server = await spawnSightline("server", { ...env, SIGHTLINE_LOG_LEVEL: "warn" });
    processes.push(server);
    // The server migrates the store first; the worker then finds it ready.
    processes.push(await spawnSightline("worker", env));
    return report(
      "BullMQ + 1 worker process",
      await burst(server.url, await setUpWithDemo(server.url)),
    );
  } finally {
    for (const p of processes.reverse()) await p.stop();
    await clearRedis(env.SIGHTLINE_REDIS_URL);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function concurrencyBenchmark(): Promise<Figure[]> {
  const fileDir = tempDir("conc-files");
  try {
    await createTable(fileDir);
    console.log(
      `\n## Concurrency (${QUERIES} concurrent distinct GROUP BY queries over ${TABLE_ROWS.toLocaleString("en")} DuckDB rows, worker concurrency 4)\n`,
    );
    return [...(await inProcess(fileDir)), ...(await bullmq(fileDir))];
  } finally {
    fs.rmSync(fileDir, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) await concurrencyBenchmark();
