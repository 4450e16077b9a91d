// A ClickHouse database of 10,000 tables through a spawned `sightline all`: the editor's first
// page (the lazy list of the database's tables) and the whole schema (every table's columns).
import fs from "node:fs";
import {
  clickhouseExec,
  startTestClickHouse,
} from "../packages/server/src/testing/clickhouseServer";
import {
  createDataSource,
  isMain,
  ms,
  setUpWithDemo,
  spawnSightline,
  tempDir,
  type Figure,
} from "./support";

const TABLES = Number(process.env.BENCH_CLICKHOUSE_TABLES ?? 10_000);
const PARALLEL = 8;

async function createTables(url: string): Promise<void> {
  await clickhouseExec(url, "CREATE DATABASE wide");
  let next = 0;
  const worker = async () => {
    while (next < TABLES) {
      const i = next++;
      await clickhouseExec(
        url,
        `CREATE TABLE wide.t${String(i).padStart(5, "0")} (id UInt64, name String, at DateTime) ENGINE = Memory`,
      );
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
}

export async function clickhouseSchemaBenchmark(): Promise<Figure[]> {
  const clickhouse = await startTestClickHouse();
  if (!clickhouse) {
    console.log("\n## ClickHouse schema: skipped (clickhouse-server is not installed)\n");
    return [];
  }
  const dataDir = tempDir("clickhouse-schema");
  try {
    console.log(`\n## ClickHouse schema (${TABLES.toLocaleString("en")} tables)\n`);
    let start = performance.now();
    await createTables(clickhouse.url);
    console.log(`tables made in ${ms(performance.now() - start)}`);
    const server = await spawnSightline("all", {
      SIGHTLINE_DATA_DIR: dataDir,
      SIGHTLINE_LOG_LEVEL: "warn",
    });
    try {
      const { client } = await setUpWithDemo(server.url);
      const id = await createDataSource(client, "Wide ClickHouse", "clickhouse", {
        url: clickhouse.url,
        user: clickhouse.user,
        password: clickhouse.password,
        dbname: "wide",
      });
      start = performance.now();
      const databases = await client.get(`/api/databricks/databases/${id}`);
      const tables = await client.get<{ schema: unknown[] }>(
        `/api/databricks/databases/${id}/wide/tables`,
      );
      const firstPage = performance.now() - start;
      const listed = tables.body.schema?.length ?? 0;
      if (databases.status !== 200 || listed !== TABLES)
        throw new Error(`lazy listing: ${databases.status}, ${listed} tables`);
      start = performance.now();
      const whole = await client.get<{ schema?: unknown[] }>(
        `/api/data_sources/${id}/schema?refresh=true`,
      );
      const wholeMs = performance.now() - start;
      const wholeTables = whole.body.schema?.length ?? 0;
      console.log(`databases + tables (first page)  ${ms(firstPage)}   ${listed} tables`);
      console.log(`whole schema with columns        ${ms(wholeMs)}   ${wholeTables} tables`);
      return [
        {
          benchmark: "ClickHouse schema, 10,000 tables",
          measure: "first page (databases, then the database's tables)",
          value: ms(firstPage),
          target: "≤ 2 s",
          met: firstPage <= 2000,
        },
        {
          benchmark: "ClickHouse schema, 10,000 tables",
          measure: "whole schema with columns",
          value: `${ms(wholeMs)} (${wholeTables} tables)`,
          target: "",
          met: null,
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

if (isMain(import.meta.url)) await clickhouseSchemaBenchmark();
