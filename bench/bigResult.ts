// A 1,000,000-row × 6-column result from DuckDB and from PostgreSQL through a spawned
// `sightline all`: execution + full JSON export + CSV download, next to the raw drivers reading
// the same rows in this process, and the server's peak memory next to the result's JSON size.
import fs from "node:fs";
import path from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import pg from "pg";
import Cursor from "pg-cursor";
import {
  createDataSource,
  download,
  executeQuery,
  isMain,
  mb,
  ms,
  PG_URL,
  processMemory,
  randomSuffix,
  ratio,
  resetPeak,
  setUpWithDemo,
  spawnSightline,
  tempDir,
  type Figure,
  type SightlineProcess,
  type TestClient,
} from "./support";

const ROWS = Number(process.env.BENCH_BIG_ROWS ?? 1_000_000);
const DUCKDB_FILE = "big.duckdb";
/** The byte cap of the second server: far below the result's size. */
const SMALL_LIMIT = 10 * 1024 * 1024;

async function createDuckdbTable(fileDir: string): Promise<void> {
  const instance = await DuckDBInstance.create(path.join(fileDir, DUCKDB_FILE));
  const connection = await instance.connect();
  await connection.run(
    `CREATE TABLE big AS SELECT i::INTEGER AS id, 'customer ' || i AS name,
       round(i * 1.37, 2)::DOUBLE AS amount, (i % 97)::INTEGER AS quantity,
       TIMESTAMP '2024-01-01 00:00:00' + to_seconds(i) AS created_at, i % 3 = 0 AS active
     FROM range(${ROWS}) t(i)`,
  );
  connection.closeSync();
  instance.closeSync();
}

async function createPgTable(table: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(
      `CREATE TABLE ${table} AS SELECT i AS id, 'customer ' || i AS name,
         round(i * 1.37, 2)::float8 AS amount, i % 97 AS quantity,
         timestamp '2024-01-01' + i * interval '1 second' AS created_at, i % 3 = 0 AS active
       FROM generate_series(0, ${ROWS - 1}) i`,
    );
    // Now rather than by autovacuum in the middle of a measurement, on the same two cores.
    await client.query(`VACUUM ANALYZE ${table}`);
  } finally {
    await client.end();
  }
}

async function dropPgTable(table: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  await client.query(`DROP TABLE IF EXISTS ${table}`).finally(() => client.end());
}

/**
 * The DuckDB driver reading every row into JS values, as an application would; with `toJson`,
 * each batch of rows also becomes JSON text (the baseline: "the raw driver reading the
 * same rows to JSON").
 */
async function rawDuckdb(fileDir: string, query: string, toJson: boolean): Promise<number> {
  const start = performance.now();
  const instance = await DuckDBInstance.create(path.join(fileDir, DUCKDB_FILE), {
    access_mode: "READ_ONLY",
  });
  const connection = await instance.connect();
  const result = await connection.stream(query);
  let rows = 0;
  let jsonBytes = 0;
  if (toJson) {
    for await (const batch of result.yieldRowObjectJson()) {
      jsonBytes += JSON.stringify(batch).length;
      rows += batch.length;
    }
  } else {
    for (;;) {
      const chunk = await result.fetchChunk();
      if (!chunk || chunk.rowCount === 0) break;
      rows += chunk.getRows().length;
    }
  }
  connection.closeSync();
  instance.closeSync();
  if (rows !== ROWS) throw new Error(`raw DuckDB read ${rows} rows`);
  if (toJson && jsonBytes === 0) throw new Error("raw DuckDB wrote no JSON");
  return performance.now() - start;
}

/**
 * node-postgres with a cursor, 5000 rows a read, array rows with the default type parsers; with
 * `toJson`, each batch also becomes JSON text.
 */
async function rawPg(query: string, toJson: boolean): Promise<number> {
  const start = performance.now();
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  const cursor = client.query(new Cursor<unknown[]>(query, undefined, { rowMode: "array" }));
  let rows = 0;
  let jsonBytes = 0;
  for (;;) {
    const batch = await cursor.read(5000);
    if (toJson) jsonBytes += JSON.stringify(batch).length;
    rows += batch.length;
    if (batch.length < 5000) break;
  }
  await cursor.close();
  await client.end();
  if (rows !== ROWS) throw new Error(`raw pg read ${rows} rows`);
  if (toJson && jsonBytes === 0) throw new Error("raw pg wrote no JSON");
  return performance.now() - start;
}

interface ServerRun {
  execute: number;
  json: number;
  csv: number;
  jsonBytes: number;
  csvBytes: number;
  baseline: number;
  peak: number;
}

async function serverRun(
  server: SightlineProcess,
  client: TestClient,
  dataSourceId: number,
  query: string,
): Promise<ServerRun> {
  const baseline = processMemory(server.pid).rss;
  resetPeak(server.pid);
  let start = performance.now();
  const resultId = await executeQuery(client, dataSourceId, query);
  const execute = performance.now() - start;
  start = performance.now();
  const json = await download(client, `/api/query_results/${resultId}.json`);
  const jsonMs = performance.now() - start;
  start = performance.now();
  const csv = await download(client, `/api/query_results/${resultId}.csv`);
  const csvMs = performance.now() - start;
  const peak = processMemory(server.pid).peak;
  if (json.status !== 200 || csv.status !== 200) throw new Error("a download failed");
  // Header line + one CRLF line per row.
  if (csv.lines !== ROWS + 1) throw new Error(`the CSV has ${csv.lines - 1} rows, not ${ROWS}`);
  return {
    execute,
    json: jsonMs,
    csv: csvMs,
    jsonBytes: json.bytes,
    csvBytes: csv.bytes,
    baseline,
    peak,
  };
}

interface RawReads {
  /** The driver reading every row into JS values. */
  read: number;
  /** The same, each batch of rows also turned into JSON text: the baseline. */
  json: number;
}

/**
 * Both sides are the better of two runs (each server run executes anew with max_age 0); the
 * memory figures are the first server run's.
 */
function report(name: string, raw: RawReads, runs: ServerRun[]): Figure[] {
  const first = runs[0];
  const best = (pick: (run: ServerRun) => number) => Math.min(...runs.map(pick));
  const toJson = best((run) => run.execute + run.json);
  const toCsv = best((run) => run.execute + run.csv);
  const memoryRatio = first.peak / first.jsonBytes;
  console.log(`\n### ${name}: ${ROWS.toLocaleString("en")} rows × 6 columns\n`);
  console.log(`raw driver read            ${ms(raw.read)}`);
  console.log(`raw driver → JSON text     ${ms(raw.json)}`);
  console.log(`execute + store (job)      ${ms(best((run) => run.execute))}`);
  console.log(`GET .json (full export)    ${ms(best((run) => run.json))}   ${mb(first.jsonBytes)}`);
  console.log(`GET .csv                   ${ms(best((run) => run.csv))}   ${mb(first.csvBytes)}`);
  const against = (value: number) =>
    `${ratio(value, raw.json)} raw → JSON, ${ratio(value, raw.read)} raw read`;
  console.log(`request → JSON fetched     ${ms(toJson)}   ${against(toJson)}`);
  console.log(`request → CSV downloaded   ${ms(toCsv)}   ${against(toCsv)}`);
  console.log(
    `server memory              baseline ${mb(first.baseline)}, peak ${mb(first.peak)} ` +
      `(${ratio(first.peak, first.jsonBytes)} the JSON; growth ${mb(first.peak - first.baseline)})`,
  );
  const b = `big result, ${name}`;
  return [
    { benchmark: b, measure: "raw driver read", value: ms(raw.read), target: "", met: null },
    { benchmark: b, measure: "raw driver → JSON text", value: ms(raw.json), target: "", met: null },
    {
      benchmark: b,
      measure: "request → JSON fetched",
      value: `${ms(toJson)} (${ratio(toJson, raw.json)} raw → JSON)`,
      target: "≤ 1.25× raw → JSON",
      met: toJson / raw.json <= 1.25,
    },
    {
      benchmark: b,
      measure: "request → CSV downloaded",
      value: `${ms(toCsv)} (${ratio(toCsv, raw.json)} raw → JSON)`,
      target: "≤ 2× raw → JSON",
      met: toCsv / raw.json <= 2,
    },
    {
      benchmark: b,
      measure: "server peak RSS ÷ JSON size",
      value: `${mb(first.peak)} ÷ ${mb(first.jsonBytes)} = ${ratio(first.peak, first.jsonBytes)}`,
      target: "< 4×",
      met: memoryRatio < 4,
    },
  ];
}

/** A second server with a small SIGHTLINE_RESULT_MAX_BYTES: the run fails with a clear message. */
async function sizeLimit(fileDir: string): Promise<Figure[]> {
  const dataDir = tempDir("limit");
  const server = await spawnSightline("all", {
    SIGHTLINE_DATA_DIR: dataDir,
    SIGHTLINE_FILE_DATA_DIR: fileDir,
    SIGHTLINE_LOG_LEVEL: "warn",
    SIGHTLINE_RESULT_MAX_BYTES: String(SMALL_LIMIT),
  });
  try {
    const { client } = await setUpWithDemo(server.url);
    const id = await createDataSource(client, "Big DuckDB", "duckdb", {
      dbpath: DUCKDB_FILE,
      read_only: true,
    });
    resetPeak(server.pid);
    const start = performance.now();
    let message = "";
    try {
      await executeQuery(client, id, "SELECT * FROM big");
    } catch (error) {
      message = (error as Error).message;
    }
    const elapsed = performance.now() - start;
    const peak = processMemory(server.pid).peak;
    console.log(`\n### Result over SIGHTLINE_RESULT_MAX_BYTES=${SMALL_LIMIT}\n`);
    console.log(`failed after ${ms(elapsed)}, server peak ${mb(peak)}: "${message}"`);
    const clear = /larger than the limit/.test(message);
    return [
      {
        benchmark: "big result, size limit",
        measure: `run over a ${mb(SMALL_LIMIT)} cap`,
        value: clear ? `fails in ${ms(elapsed)}: "${message}"` : `unexpected: "${message}"`,
        target: "clear failure",
        met: clear,
      },
    ];
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** One data source on a fresh server, so the peak memory is this result's own. */
async function measureSource(
  fileDir: string,
  name: string,
  type: string,
  options: Record<string, unknown>,
  query: string,
  raw: (toJson: boolean) => Promise<number>,
): Promise<Figure[]> {
  const dataDir = tempDir("big");
  const server = await spawnSightline("all", {
    SIGHTLINE_DATA_DIR: dataDir,
    SIGHTLINE_FILE_DATA_DIR: fileDir,
    SIGHTLINE_LOG_LEVEL: "warn",
  });
  try {
    const { client } = await setUpWithDemo(server.url);
    const id = await createDataSource(client, `Big ${name}`, type, options);
    // Interleaved, so a slow spell of the machine falls on both sides.
    const runs: ServerRun[] = [];
    const reads: number[] = [];
    const jsonReads: number[] = [];
    for (let round = 0; round < 2; round++) {
      reads.push(await raw(false));
      jsonReads.push(await raw(true));
      runs.push(await serverRun(server, client, id, query));
    }
    return report(name, { read: Math.min(...reads), json: Math.min(...jsonReads) }, runs);
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function bigResultBenchmark(): Promise<Figure[]> {
  const fileDir = tempDir("files");
  const table = `bench_big_${randomSuffix()}`;
  try {
    console.log(`\n## Big result (${ROWS.toLocaleString("en")} rows × 6 columns)\n`);
    console.log("generating the DuckDB file and the PostgreSQL table…");
    await createDuckdbTable(fileDir);
    await createPgTable(table);
    const duckQuery = "SELECT * FROM big";
    const pgQuery = `SELECT * FROM ${table}`;
    const pgUrl = new URL(PG_URL);
    const pgOptions = {
      host: pgUrl.hostname,
      port: Number(pgUrl.port || 5432),
      user: decodeURIComponent(pgUrl.username),
      ...(pgUrl.password ? { password: decodeURIComponent(pgUrl.password) } : {}),
      dbname: pgUrl.pathname.slice(1),
    };
    return [
      ...(await measureSource(
        fileDir,
        "DuckDB",
        "duckdb",
        { dbpath: DUCKDB_FILE, read_only: true },
        duckQuery,
        (toJson) => rawDuckdb(fileDir, duckQuery, toJson),
      )),
      ...(await measureSource(fileDir, "PostgreSQL", "pg", pgOptions, pgQuery, (toJson) =>
        rawPg(pgQuery, toJson),
      )),
      ...(await sizeLimit(fileDir)),
    ];
  } finally {
    await dropPgTable(table).catch((error: unknown) =>
      console.error("could not drop", table, error),
    );
    fs.rmSync(fileDir, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) await bigResultBenchmark();
