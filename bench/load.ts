// Whole-API load (issue 30): 100 simulated people, each signed in once, then for 60 s a mix of
// what people do (list queries and dashboards, open a dashboard, run cached and uncached queries,
// save a query, read results), against the embedded mode and against the scaled mode (two
// servers behind no proxy, each person on one of them, two workers, PostgreSQL and Redis).
// Reported: errors, p50/p95/p99 per call, throughput; every saved query is read back after.
import fs from "node:fs";
import path from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import pg from "pg";
import { Redis } from "ioredis";
import { hashPassword } from "../packages/server/src/auth/passwords";
import { defaultGroupId } from "../packages/server/src/services/organizationSetup";
import { openDatabase } from "../packages/server/src/store/database";
import { findOrgBySlug } from "../packages/server/src/store/organizations";
import { insertUser } from "../packages/server/src/store/users";
import {
  PG_URL,
  REDIS_URL,
  TestClient,
  createDashboardOf,
  createDataSource,
  createQueryRun,
  createVisualization,
  isMain,
  randomSuffix,
  secretKey,
  setUpAndLogin,
  sleep,
  spawnSightline,
  tempDir,
  type Figure,
  type SightlineProcess,
} from "./support";

const PEOPLE = Number(process.env.BENCH_LOAD_PEOPLE ?? 100);
const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 60);
/** Each person waits this long (± half) between calls, as people read what they got. */
const THINK_MS = Number(process.env.BENCH_LOAD_THINK_MS ?? 500);
const PASSWORD = "load test password";
const REDIS_DB = Number(process.env.BENCH_REDIS_DB ?? 11);
const FILE = "load.duckdb";

type Call =
  | "list queries"
  | "list dashboards"
  | "open dashboard"
  | "cached run"
  | "uncached run"
  | "save query"
  | "read result";

/** How often each call comes, out of 100. */
const MIX: [Call, number][] = [
  ["list queries", 20],
  ["list dashboards", 15],
  ["open dashboard", 20],
  ["cached run", 15],
  ["uncached run", 10],
  ["save query", 5],
  ["read result", 15],
];

interface Fixtures {
  sourceId: number;
  queryIds: number[];
  resultIds: number[];
  dashboardIds: number[];
}

interface Tally {
  latencies: Map<Call, number[]>;
  errors: string[];
  saved: { id: number; text: string; url: string }[];
}

async function createTable(fileDir: string): Promise<void> {
  const instance = await DuckDBInstance.create(path.join(fileDir, FILE));
  const connection = await instance.connect();
  await connection.run(
    `CREATE TABLE sales AS SELECT i AS id, i % 50 AS region, (i * 7) % 1000 AS amount
     FROM range(100000) r(i)`,
  );
  connection.closeSync();
  instance.closeSync();
}

async function createFixtures(admin: TestClient): Promise<Fixtures> {
  const sourceId = await createDataSource(admin, "Load", "duckdb", {
    dbpath: FILE,
    read_only: true,
  });
  const queryIds: number[] = [];
  const visualizationIds: number[] = [];
  for (let i = 0; i < 10; i += 1) {
    const query = await createQueryRun(
      admin,
      sourceId,
      `Regions ${i}`,
      `SELECT region, sum(amount + ${i}) AS total FROM sales GROUP BY region ORDER BY region`,
    );
    queryIds.push(query.id);
    visualizationIds.push(
      await createVisualization(admin, query.id, {
        type: "CHART",
        name: "Chart",
        options: { globalSeriesType: "column", columnMapping: { region: "x", total: "y" } },
      }),
    );
  }
  const dashboardIds = [
    await createDashboardOf(admin, "Load A", visualizationIds.slice(0, 4)),
    await createDashboardOf(admin, "Load B", visualizationIds.slice(4, 8)),
  ];
  const resultIds: number[] = [];
  for (const id of queryIds) {
    const query = await admin.get<{ latest_query_data_id: number }>(`/api/queries/${id}`);
    resultIds.push(query.body.latest_query_data_id);
  }
  return { sourceId, queryIds, resultIds, dashboardIds };
}

/** People of the default organisation with a known password, written to the metadata store. */
async function addPeople(databaseUrl: string): Promise<string[]> {
  const database = await openDatabase(databaseUrl);
  try {
    const db = database.db;
    const org = (await findOrgBySlug(db, "default"))!;
    const groupId = await defaultGroupId(db, org.id);
    const passwordHash = await hashPassword(PASSWORD);
    const emails: string[] = [];
    for (let i = 0; i < PEOPLE; i += 1) {
      const email = `person${i}@example.com`;
      await insertUser(db, {
        orgId: org.id,
        name: `Person ${i}`,
        email,
        passwordHash,
        groupIds: [groupId],
        invitationPending: false,
      });
      emails.push(email);
    }
    return emails;
  } finally {
    await database.close();
  }
}

const pick = <T>(items: T[]) => items[Math.floor(Math.random() * items.length)]!;

function pickCall(): Call {
  let roll = Math.random() * 100;
  for (const [call, weight] of MIX) {
    roll -= weight;
    if (roll < 0) return call;
  }
  return MIX[0]![0];
}

/** Runs one call; a failure is thrown with what went wrong. */
async function act(client: TestClient, call: Call, f: Fixtures, tally: Tally): Promise<void> {
  const expectOk = (res: { status: number; text: string }) => {
    if (res.status !== 200) throw new Error(`${call}: ${res.status} ${res.text.slice(0, 200)}`);
  };
  switch (call) {
    case "list queries":
      return expectOk(await client.get("/api/queries?page=1&page_size=20"));
    case "list dashboards":
      return expectOk(await client.get("/api/dashboards?page=1&page_size=20"));
    case "open dashboard":
      return expectOk(await client.get(`/api/dashboards/${pick(f.dashboardIds)}`));
    case "read result":
      return expectOk(await client.get(`/api/query_results/${pick(f.resultIds)}`));
    case "cached run": {
      const res = await client.post(`/api/queries/${pick(f.queryIds)}/results`, {
        max_age: 86400,
      });
      expectOk(res);
      if (!res.body.query_result) throw new Error(`cached run: no result: ${res.text}`);
      return;
    }
    case "uncached run": {
      const text = `SELECT region, count(*) AS n, ${Math.random()} AS r FROM sales GROUP BY region`;
      let res = await client.post("/api/query_results", {
        data_source_id: f.sourceId,
        query: text,
        max_age: 0,
      });
      expectOk(res);
      while (res.body.job && res.body.job.status < 3) {
        await sleep(100);
        res = await client.get(`/api/jobs/${res.body.job.id}`);
        expectOk(res);
      }
      if (res.body.job && res.body.job.status !== 3) {
        throw new Error(`uncached run: ${res.body.job.error}`);
      }
      return;
    }
    case "save query": {
      const text = `SELECT ${Math.floor(Math.random() * 1e9)} AS saved`;
      const res = await client.post("/api/queries", {
        name: "Saved under load",
        query: text,
        data_source_id: f.sourceId,
      });
      expectOk(res);
      tally.saved.push({ id: res.body.id, text, url: client.baseUrl });
      return;
    }
  }
}

async function person(
  url: string,
  email: string,
  f: Fixtures,
  tally: Tally,
  until: number,
): Promise<void> {
  const client = new TestClient(url);
  const login = await client.login(email, PASSWORD);
  if (login.status !== 302) {
    tally.errors.push(`sign-in of ${email}: ${login.status}`);
    return;
  }
  while (Date.now() < until) {
    await sleep(THINK_MS * (0.5 + Math.random()));
    const call = pickCall();
    const started = performance.now();
    try {
      await act(client, call, f, tally);
      tally.latencies.get(call)!.push(performance.now() - started);
    } catch (error) {
      tally.errors.push((error as Error).message);
    }
  }
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

interface Outcome {
  name: string;
  calls: number;
  errors: string[];
  lost: number;
  perSecond: number;
}

async function drive(urls: string[], databaseUrl: string, name: string): Promise<Outcome> {
  const admin = await setUpAndLogin(urls[0]!);
  const fixtures = await createFixtures(admin);
  const emails = await addPeople(databaseUrl);
  const tally: Tally = {
    latencies: new Map(MIX.map(([call]) => [call, []])),
    errors: [],
    saved: [],
  };
  const until = Date.now() + SECONDS * 1000;
  await Promise.all(
    emails.map((email, i) => person(urls[i % urls.length]!, email, fixtures, tally, until)),
  );

  // Nothing lost: every acknowledged save reads back, from another server where there is one.
  let lost = 0;
  for (const save of tally.saved) {
    const other = urls.find((u) => u !== save.url) ?? save.url;
    const reader = new TestClient(other);
    reader.cookies.clear();
    for (const [k, v] of admin.cookies) reader.cookies.set(k, v);
    const res = await reader.get<{ query: string }>(`/api/queries/${save.id}`);
    if (res.status !== 200 || res.body.query !== save.text) lost += 1;
  }

  const calls = [...tally.latencies.values()].reduce((sum, list) => sum + list.length, 0);
  console.log(`\n### ${name}\n`);
  console.log("| call | count | p50 | p95 | p99 |\n| --- | --- | --- | --- | --- |");
  for (const [call, list] of tally.latencies) {
    const sorted = [...list].sort((a, b) => a - b);
    const cell = (p: number) => `${percentile(sorted, p).toFixed(0)} ms`;
    console.log(`| ${call} | ${list.length} | ${cell(0.5)} | ${cell(0.95)} | ${cell(0.99)} |`);
  }
  const perSecond = calls / SECONDS;
  console.log(
    `\n${calls} calls in ${SECONDS} s (${perSecond.toFixed(1)}/s), ${tally.errors.length} errors, ` +
      `${tally.saved.length} saves, ${lost} lost`,
  );
  for (const error of [...new Set(tally.errors)].slice(0, 10)) console.log(`  error: ${error}`);
  return { name, calls, errors: tally.errors, lost, perSecond };
}

const baseEnv = (dataDir: string, fileDir: string) => ({
  SIGHTLINE_DATA_DIR: dataDir,
  SIGHTLINE_FILE_DATA_DIR: fileDir,
  SIGHTLINE_SECRET_KEY: secretKey(),
  SIGHTLINE_LOG_LEVEL: "warn",
  // Everyone signs in from 127.0.0.1 within a second.
  SIGHTLINE_LOGIN_RATE_LIMIT: String(PEOPLE * 4),
});

async function embedded(fileDir: string): Promise<Outcome> {
  const dataDir = tempDir("load-embedded");
  const server = await spawnSightline("all", baseEnv(dataDir, fileDir));
  try {
    return await drive(
      [server.url],
      path.join(dataDir, "sightline.db"),
      "embedded (`sightline all`)",
    );
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function scaled(fileDir: string): Promise<Outcome> {
  const dataDir = tempDir("load-scaled");
  const database = `bench_load_${randomSuffix()}`.toLowerCase();
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  const databaseUrl = new URL(PG_URL);
  databaseUrl.pathname = `/${database}`;
  const redisUrl = new URL(REDIS_URL);
  redisUrl.pathname = `/${REDIS_DB}`;
  const redis = new Redis(redisUrl.toString());
  await redis.flushdb();
  const env = {
    ...baseEnv(dataDir, fileDir),
    SIGHTLINE_DATABASE_URL: databaseUrl.toString(),
    SIGHTLINE_REDIS_URL: redisUrl.toString(),
  };
  const processes: SightlineProcess[] = [];
  try {
    // The first server migrates the store; the others then find it ready.
    processes.push(await spawnSightline("server", env));
    processes.push(await spawnSightline("server", env));
    processes.push(await spawnSightline("worker", { ...env, SIGHTLINE_LOG_LEVEL: "info" }));
    processes.push(await spawnSightline("worker", { ...env, SIGHTLINE_LOG_LEVEL: "info" }));
    return await drive(
      [processes[0]!.url, processes[1]!.url],
      databaseUrl.toString(),
      "scaled (2 servers, 2 workers, PostgreSQL, Redis)",
    );
  } finally {
    for (const p of processes.reverse()) await p.stop().catch(() => undefined);
    await redis.flushdb().catch(() => undefined);
    redis.disconnect();
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function loadBenchmark(): Promise<Figure[]> {
  console.log(
    `\n## Whole-API load: ${PEOPLE} people for ${SECONDS} s, ~${THINK_MS} ms between calls each\n`,
  );
  const fileDir = tempDir("load-files");
  try {
    await createTable(fileDir);
    const outcomes = [await embedded(fileDir), await scaled(fileDir)];
    const [one, many] = outcomes as [Outcome, Outcome];
    console.log(
      `\nscaled throughput ÷ embedded: ${(many.perSecond / one.perSecond).toFixed(2)}× ` +
        `(${many.perSecond.toFixed(1)} vs ${one.perSecond.toFixed(1)} calls/s)`,
    );
    return outcomes.map((o) => ({
      benchmark: "whole-API load",
      measure: `${o.name}: ${PEOPLE} people, ${SECONDS} s`,
      value: `${o.perSecond.toFixed(1)} calls/s, ${o.errors.length} errors, ${o.lost} lost`,
      target: "0 errors, 0 lost",
      met: o.errors.length === 0 && o.lost === 0,
    }));
  } finally {
    fs.rmSync(fileDir, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) await loadBenchmark();
