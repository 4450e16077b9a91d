import { clickhouseRunner } from "./clickhouse";
import { duckdbRunner } from "./duckdb";
import { csvRunner, excelRunner } from "./files";
import { influxdbRunner } from "./influxdb";
import { jsonRunner } from "./json";
import { mysqlRunner } from "./mysql";
import { mariadbRunner, rdsMysqlRunner, tidbRunner } from "./mysqlFamily";
import { pgRunner } from "./pg";
import { prometheusRunner } from "./prometheus";
import { redisRunner } from "./redis";
import { cockroachRunner, redshiftRunner, timescaleRunner } from "./pgFamily";
import { resultsRunner } from "./results";
import { sqliteRunner } from "./sqlite";
import type { Runner } from "./types";
import { uploadsRunner } from "./uploads";

/** Every data source type Sightline can query, by Redash type identifier. */
export const runners: ReadonlyMap<string, Runner> = new Map(
  [
    sqliteRunner,
    duckdbRunner,
    pgRunner,
    mysqlRunner,
    jsonRunner,
    resultsRunner,
    clickhouseRunner,
    prometheusRunner,
    influxdbRunner,
    redisRunner,
    redshiftRunner,
    cockroachRunner,
    timescaleRunner,
    mariadbRunner,
    rdsMysqlRunner,
    tidbRunner,
    csvRunner,
    excelRunner,
    uploadsRunner,
  ].map((runner) => [runner.type, runner]),
);

export function getRunner(type: string): Runner | undefined {
  return runners.get(type);
}

/** Runners sorted by display name, case-insensitively (the order of /api/data_sources/types). */
export function listRunners(): Runner[] {
  return [...runners.values()].sort((a, b) =>
    a.name.toLowerCase().localeCompare(b.name.toLowerCase()),
  );
}
