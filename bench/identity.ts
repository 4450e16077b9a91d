// Where a scaled request's time goes (issue 30): one `sightline server` on PostgreSQL and Redis
// against one `sightline all`, same setup, one admin. Unloaded calls one after another (list
// queries, session), then eight clients listing queries back to back. Measures what the identity
// lookup of every authenticated request costs in each mode (bench/README.md, load.ts section).
import fs from "node:fs";
import pg from "pg";
import {
  PG_URL,
  REDIS_URL,
  isMain,
  percentile,
  randomSuffix,
  secretKey,
  setUpAndLogin,
  spawnSightline,
  tempDir,
  type SightlineProcess,
  type TestClient,
} from "./support";

const CALLS = Number(process.env.BENCH_IDENTITY_CALLS ?? 200);
const CLIENTS = 8;
const LOAD_SECONDS = Number(process.env.BENCH_IDENTITY_SECONDS ?? 10);

interface Outcome {
  name: string;
  listP50: number;
  sessionP50: number;
  perSecond: number;
}

async function p50(client: TestClient, url: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < CALLS + 20; i++) {
    const start = performance.now();
    const res = await client.get(url);
    if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}`);
    if (i >= 20) times.push(performance.now() - start);
  }
  return percentile(times, 50);
}

async function throughput(client: TestClient): Promise<number> {
  let calls = 0;
  const until = Date.now() + LOAD_SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (Date.now() < until) {
        const res = await client.get("/api/queries");
        if (res.status !== 200) throw new Error(`GET /api/queries answered ${res.status}`);
        calls++;
      }
    }),
  );
  return calls / LOAD_SECONDS;
}

async function measure(name: string, server: SightlineProcess): Promise<Outcome> {
  const client = await setUpAndLogin(server.url);
  const outcome = {
    name,
    listP50: await p50(client, "/api/queries"),
    sessionP50: await p50(client, "/api/session"),
    perSecond: await throughput(client),
  };
  console.log(
    `${name}: list queries p50 ${outcome.listP50.toFixed(2)} ms, session p50 ` +
      `${outcome.sessionP50.toFixed(2)} ms, ${CLIENTS} clients ${outcome.perSecond.toFixed(0)} calls/s`,
  );
  return outcome;
}

async function embedded(): Promise<Outcome> {
  const dataDir = tempDir("identity-embedded");
  const server = await spawnSightline("all", {
    SIGHTLINE_DATA_DIR: dataDir,
    SIGHTLINE_LOG_LEVEL: "warn",
  });
  try {
    return await measure("embedded", server);
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function scaled(): Promise<Outcome> {
  const dataDir = tempDir("identity-scaled");
  const database = `bench_identity_${randomSuffix()}`.toLowerCase();
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  const databaseUrl = new URL(PG_URL);
  databaseUrl.pathname = `/${database}`;
  const redisUrl = new URL(REDIS_URL);
  redisUrl.pathname = "/12";
  let server: SightlineProcess | null = null;
  try {
    server = await spawnSightline("server", {
      SIGHTLINE_DATA_DIR: dataDir,
      SIGHTLINE_SECRET_KEY: secretKey(),
      SIGHTLINE_LOG_LEVEL: "warn",
      SIGHTLINE_DATABASE_URL: databaseUrl.toString(),
      SIGHTLINE_REDIS_URL: redisUrl.toString(),
    });
    return await measure("scaled", server);
  } finally {
    await server?.stop().catch(() => undefined);
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function identityBenchmark(): Promise<Outcome[]> {
  const one = await embedded();
  const many = await scaled();
  console.log(
    `scaled ÷ embedded: list p50 ${(many.listP50 / one.listP50).toFixed(2)}×, ` +
      `throughput ${(many.perSecond / one.perSecond).toFixed(2)}×`,
  );
  return [one, many];
}

if (isMain(import.meta.url)) await identityBenchmark();
