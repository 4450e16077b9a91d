// 1,000,000 rows × 6 columns from ClickHouse through a spawned `sightline all` to a full .json
// download, next to the official client reading the same rows as JSON in this process.
// ClickHouse is Debian's clickhouse-server started on free ports (packages/server/src/testing).
import fs from "node:fs";
import { createClient } from "@clickhouse/client";
import {
  clickhouseExec,
  startTestClickHouse,
} from "../packages/server/src/testing/clickhouseServer";
import {
  createDataSource,
  download,
  downloadInflated,
  executeQuery,
  isMain,
  mb,
  ms,
  ratio,
  setUpWithDemo,
  spawnSightline,
  tempDir,
  type Figure,
} from "./support";

const ROWS = Number(process.env.BENCH_CLICKHOUSE_ROWS ?? 1_000_000);
const QUERY = "SELECT * FROM bench.big";

/**
 * The official client streaming JSONEachRow, as an application reads rows to JSON: each row
 * parsed (`parse`, the baseline), or only taken as its line of JSON text.
 */
async function rawClient(
  url: string,
  user: string,
  password: string,
  parse: boolean,
): Promise<number> {
  const start = performance.now();
  const client = createClient({ url, username: user, password });
  const result = await client.query({ query: QUERY, format: "JSONEachRow" });
  let rows = 0;
  for await (const batch of result.stream()) {
    for (const row of batch) {
      if (parse) row.json();
      else if (row.text.length === 0) throw new Error("an empty row");
      rows += 1;
    }
  }
  await client.close();
  if (rows !== ROWS) throw new Error(`the client read ${rows} rows`);
  return performance.now() - start;
}

/** Rounds of each side, interleaved; the best of each is kept (the machine is shared). */
const ROUNDS = Number(process.env.BENCH_CLICKHOUSE_ROUNDS ?? 2);

export async function clickhouseBenchmark(): Promise<Figure[]> {
  const clickhouse = await startTestClickHouse();
  if (!clickhouse) {
    console.log("\n## ClickHouse: skipped (clickhouse-server is not installed)\n");
    return [];
  }
  const dataDir = tempDir("clickhouse");
  try {
    console.log(`\n## ClickHouse (${ROWS.toLocaleString("en")} rows × 6 columns)\n`);
    await clickhouseExec(clickhouse.url, "CREATE DATABASE bench");
    await clickhouseExec(
      clickhouse.url,
      `CREATE TABLE bench.big ENGINE = MergeTree ORDER BY id AS
       SELECT toUInt32(number) AS id, concat('customer ', toString(number)) AS name,
         round(number * 1.37, 2) AS amount, toUInt8(number % 97) AS quantity,
         toDateTime('2024-01-01 00:00:00') + number AS created_at, number % 3 = 0 AS active
       FROM numbers(${ROWS})`,
    );
    const server = await spawnSightline("all", {
      SIGHTLINE_DATA_DIR: dataDir,
      SIGHTLINE_LOG_LEVEL: "warn",
    });
    try {
      const { client } = await setUpWithDemo(server.url);
      const id = await createDataSource(client, "Big ClickHouse", "clickhouse", {
        url: clickhouse.url,
        user: clickhouse.user,
        password: clickhouse.password,
        dbname: "bench",
      });
      let raw = Infinity;
      let rawText = Infinity;
      let execute = Infinity;
      let jsonMs = Infinity;
      let fetchMs = Infinity;
      let total = Infinity;
      let bytes = 0;
      for (let round = 0; round < ROUNDS; round++) {
        const { url, user, password } = clickhouse;
        const parsed = await rawClient(url, user, password, true);
        const asText = await rawClient(url, user, password, false);
        raw = Math.min(raw, parsed);
        rawText = Math.min(rawText, asText);
        let start = performance.now();
        const resultId = await executeQuery(client, id, QUERY);
        const executed = performance.now() - start;
        const path = `/api/query_results/${resultId}.json`;
        start = performance.now();
        const json = await downloadInflated(client, path);
        const downloaded = performance.now() - start;
        if (json.status !== 200) throw new Error(`the .json download failed: ${json.status}`);
        bytes = json.bytes;
        // The same download read by fetch(), whose own gzip decoding is the slow part.
        start = performance.now();
        const fetched = await download(client, path);
        if (fetched.bytes !== bytes) throw new Error("fetch() read another answer");
        fetchMs = Math.min(fetchMs, performance.now() - start);
        execute = Math.min(execute, executed);
        jsonMs = Math.min(jsonMs, downloaded);
        total = Math.min(total, executed + downloaded);
        console.log(
          `round ${round + 1}: client ${ms(parsed)} (rows as text ${ms(asText)}), Sightline ${ms(executed + downloaded)}`,
        );
      }
      console.log(`official client, JSONEachRow, rows parsed   ${ms(raw)}`);
      console.log(`official client, JSONEachRow, rows as text  ${ms(rawText)}`);
      console.log(`execute + store (job)                       ${ms(execute)}`);
      console.log(`GET .json (full export, gzip inflated)      ${ms(jsonMs)}   ${mb(bytes)}`);
      console.log(`  the same read by fetch()                  ${ms(fetchMs)}   (not counted)`);
      console.log(
        `request → JSON fetched                      ${ms(total)}   ${ratio(total, raw)} the client (${ratio(total, rawText)} its text read)`,
      );
      return [
        {
          benchmark: "ClickHouse big result",
          measure: "official client reading JSON",
          value: ms(raw),
          target: "",
          met: null,
        },
        {
          benchmark: "ClickHouse big result",
          measure: "request → JSON fetched",
          value: `${ms(total)} (${ratio(total, raw)} the client)`,
          target: "≤ 1.5× the client",
          met: total / raw <= 1.5,
        },
      ];
    } finally {
      await server.stop();
    }
  } finally {
    await clickhouse.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) await clickhouseBenchmark();
