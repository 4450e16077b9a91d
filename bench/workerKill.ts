// A worker killed mid-query while 20 queries wait (issue 30), in scaled mode: a server and two
// `sightline worker` processes on Redis. The long query's worker gets SIGKILL; the figures are how
// soon its job fails with a clear message, how soon the other worker has run the waiting ones, and
// whether any query ran twice (each query inserts its tag into a PostgreSQL table, counted after).
import fs from "node:fs";
import pg from "pg";
import { Redis } from "ioredis";
import { WORKER_LOST_MESSAGE } from "../packages/server/src/execution/types";
import {
  PG_URL,
  REDIS_URL,
  createDataSource,
  isMain,
  randomSuffix,
  secretKey,
  setUpAndLogin,
  sleep,
  spawnSightline,
  tempDir,
  type Figure,
  type SightlineProcess,
  type TestClient,
} from "./support";

const WAITING = 20;
const TABLE = `bench_worker_kill_${randomSuffix()}`;
/** A Redis database of its own, so no other Sightline worker on this Redis takes the jobs. */
const REDIS_DB = Number(process.env.BENCH_REDIS_DB ?? 12);

interface Job {
  id: string;
  status: number;
  error: string;
}

const insertAfter = (seconds: number, tag: string) =>
  `WITH pause AS (SELECT pg_sleep(${seconds})) INSERT INTO ${TABLE} (tag) SELECT '${tag}' FROM pause RETURNING tag`;

async function start(client: TestClient, sourceId: number, query: string): Promise<string> {
  const res = await client.post<{ job?: Job }>("/api/query_results", {
    data_source_id: sourceId,
    query,
    max_age: 0,
  });
  if (!res.body.job) throw new Error(`no job: ${res.text.slice(0, 300)}`);
  return res.body.job.id;
}

const jobOf = async (client: TestClient, id: string) =>
  (await client.get<{ job: Job }>(`/api/jobs/${id}`)).body.job;

/** The pid of the worker process running the job, from the RQ status page's data. */
async function workerPidOf(client: TestClient, jobId: string): Promise<number | null> {
  const rq = await client.get<{ workers: { pid: number; current_job: string | null }[] }>(
    "/api/admin/queries/rq_status",
  );
  return rq.body.workers.find((w) => w.current_job?.startsWith(jobId))?.pid ?? null;
}

export async function workerKillBenchmark(): Promise<Figure[]> {
  console.log(`\n## A worker killed mid-query while ${WAITING} queries wait (scaled mode)\n`);
  const dataDir = tempDir("kill");
  const redisUrl = new URL(REDIS_URL);
  redisUrl.pathname = `/${REDIS_DB}`;
  const env = {
    SIGHTLINE_DATA_DIR: dataDir,
    SIGHTLINE_REDIS_URL: redisUrl.toString(),
    SIGHTLINE_SECRET_KEY: secretKey(),
    SIGHTLINE_LOG_LEVEL: "warn",
    SIGHTLINE_WORKER_CONCURRENCY: "2",
    SIGHTLINE_DATA_SOURCE_MAX_RUNNING: "4",
    // One person sends all 20 at once: above the default limit of 10 waiting runs per user.
    SIGHTLINE_USER_MAX_WAITING: String(WAITING),
  };
  const redis = new Redis(env.SIGHTLINE_REDIS_URL);
  await redis.flushdb();
  const store = new pg.Client({ connectionString: PG_URL });
  await store.connect();
  await store.query(`CREATE TABLE ${TABLE} (tag text NOT NULL)`);
  const processes: SightlineProcess[] = [];
  try {
    const server = await spawnSightline("server", env);
    processes.push(server);
    const workers = [
      await spawnSightline("worker", { ...env, SIGHTLINE_LOG_LEVEL: "info" }),
      await spawnSightline("worker", { ...env, SIGHTLINE_LOG_LEVEL: "info" }),
    ];
    processes.push(...workers);
    const client = await setUpAndLogin(server.url);
    const url = new URL(PG_URL);
    const sourceId = await createDataSource(client, "Warehouse", "pg", {
      host: url.hostname,
      port: Number(url.port || 5432),
      user: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
      dbname: url.pathname.slice(1),
      sslmode: "disable",
    });

    const longJob = await start(client, sourceId, insertAfter(120, "long"));
    let pid: number | null = null;
    for (let tries = 0; pid === null && tries < 400; tries += 1) {
      pid = await workerPidOf(client, longJob);
      if (pid === null) await sleep(50);
    }
    const doomed = workers.find((w) => w.pid === pid);
    if (!doomed) throw new Error("the long query did not start on either worker");

    // The 20 are sent at once; the kill comes while they wait (each takes half a second and
    // the workers' three free slots take three at a time).
    const sent = Array.from({ length: WAITING }, (_, i) =>
      start(client, sourceId, insertAfter(0.5, `q${i}`)),
    );
    await sleep(300);
    const killedAt = performance.now();
    process.kill(doomed.pid, "SIGKILL");
    const waiting = await Promise.all(sent);

    let lostAfter: number | null = null;
    const ended = new Map<string, Job>();
    let lastFinishedAt = killedAt;
    while (performance.now() - killedAt < 90_000 && (lostAfter === null || ended.size < WAITING)) {
      if (lostAfter === null) {
        const job = await jobOf(client, longJob);
        if (job.status === 4) {
          lostAfter = performance.now() - killedAt;
          if (job.error !== WORKER_LOST_MESSAGE) throw new Error(`unclear error: ${job.error}`);
        }
      }
      for (const id of waiting) {
        if (ended.has(id)) continue;
        const job = await jobOf(client, id);
        if (job.status >= 3) ended.set(id, job);
        if (job.status === 3) lastFinishedAt = performance.now();
      }
      await sleep(100);
    }
    const finishedAfter = lastFinishedAt - killedAt;
    const done = [...ended.values()].filter((j) => j.status === 3).length;
    const lost = [...ended.values()].filter((j) => j.error === WORKER_LOST_MESSAGE).length;
    const otherFailures = ended.size - done - lost;
    const counts = await store.query<{ tag: string; n: string }>(
      `SELECT tag, count(*) AS n FROM ${TABLE} GROUP BY tag`,
    );
    const twice = counts.rows.filter((r) => Number(r.n) > 1).length;

    const lostSeconds = lostAfter === null ? null : lostAfter / 1000;
    console.log(
      `killed worker's job failed with "${WORKER_LOST_MESSAGE.slice(0, 40)}…" after ` +
        `${lostSeconds === null ? "never (90 s)" : `${lostSeconds.toFixed(1)} s`}`,
    );
    console.log(
      `${WAITING} waiting queries: ${done} finished, ${lost} failed with the killed worker, ` +
        `${otherFailures} other failures, ${WAITING - ended.size} unfinished; ` +
        `the last finished ${(finishedAfter / 1000).toFixed(1)} s after the kill`,
    );
    console.log(`queries that ran twice: ${twice}`);
    return [
      {
        benchmark: "worker killed mid-query",
        measure: "its job failed, with the clear message",
        value: lostSeconds === null ? "not within 90 s" : `${lostSeconds.toFixed(1)} s`,
        target: "≤ 30 s",
        met: lostSeconds !== null && lostSeconds <= 30,
      },
      {
        benchmark: "worker killed mid-query",
        measure: `${WAITING} waiting queries taken by the other worker`,
        value: `${done} finished within ${(finishedAfter / 1000).toFixed(1)} s, ${lost} lost with the worker`,
        target: "all end, none else fails",
        met: ended.size === WAITING && otherFailures === 0,
      },
      {
        benchmark: "worker killed mid-query",
        measure: "queries that ran twice",
        value: String(twice),
        target: "0",
        met: twice === 0,
      },
    ];
  } finally {
    for (const p of processes.reverse()) await p.stop().catch(() => undefined);
    await store.query(`DROP TABLE IF EXISTS ${TABLE}`).catch(() => undefined);
    await store.end();
    await redis.flushdb().catch(() => undefined);
    redis.disconnect();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) await workerKillBenchmark();
