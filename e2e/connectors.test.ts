// Each kind of data source of issue 26 as a person meets it, in one server and one browser: picked
// in the New Data Source dialog, its form filled with a real server's address, created, Test
// Connection; then a new query on it: the schema browsed, the query run in the editor, its known
// values in the result table, a chart added and drawn. ClickHouse, Prometheus and InfluxDB are
// started by the test (packages/server/src/testing), Redis, PostgreSQL are the machine's, the CSV
// and XLSX files come from a local HTTP server. The PostgreSQL and MySQL presets' forms are
// covered by dataSourceFamilies.test.ts; TimescaleDB is queried here.
import http from "node:http";
import type { AddressInfo } from "node:net";
import ExcelJS from "exceljs";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  clickhouseExec,
  startTestClickHouse,
} from "../packages/server/src/testing/clickhouseServer";
import { startTestInflux, TEST_INFLUX_DATABASE } from "../packages/server/src/testing/influxServer";
import {
  PROMETHEUS_T0,
  startTestPrometheus,
} from "../packages/server/src/testing/prometheusServer";
import {
  randomName,
  redisAvailable,
  TEST_PG_URL,
  TEST_REDIS_URL,
} from "../packages/server/src/testing/services";
import { PHONE, screenshot } from "./browser";
import { useBrowserApp, type Session } from "./fixtures/browserApp";
import {
  addChart,
  browseSchema,
  createFromDialog,
  newQueryOn,
  runInEditor,
  seriesValues,
} from "./fixtures/connectorFlow";

vi.setConfig({ testTimeout: 120_000 });

// The servers start together; each is null (its test skipped) only off CI when not installed.
const [clickhouse, prometheus, influx, HAS_REDIS] = await Promise.all([
  startTestClickHouse(),
  startTestPrometheus(),
  startTestInflux(),
  redisAvailable(),
]);
const REDIS_DB = 13;
const redisKey = `${randomName("sl_e2e_connectors")}:board`;
const redisAddress = new URL(TEST_REDIS_URL);
const pgSchema = randomName("conn").toLowerCase();

/** The files by URL: an "export as CSV" link that redirects to the file, and a workbook. */
async function workbook(): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  book.addWorksheet("Notes").addRows([["read me"], ["the numbers are on the next sheet"]]);
  book.addWorksheet("Sales").addRows([
    ["month", "sold"],
    ["2024-01", 40],
    ["2024-02", 55.5],
    ["2024-03", 31],
  ]);
  return Buffer.from(await book.xlsx.writeBuffer());
}
const XLSX = await workbook();
const files = http.createServer((req, res) => {
  if (req.url === "/export") {
    res.writeHead(302, { location: "/fruit.csv" });
    return res.end();
  }
  if (req.url === "/fruit.csv") {
    res.setHeader("content-type", "text/csv");
    return res.end("fruit,sold\npear,7.5\napple,12\nplum,3\n");
  }
  if (req.url === "/book.xlsx") {
    res.setHeader(
      "content-type",
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    );
    return res.end(XLSX);
  }
  res.statusCode = 404;
  res.end();
});
await new Promise<void>((resolve) => files.listen(0, "127.0.0.1", resolve));
const filesBase = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;

afterAll(async () => {
  files.closeAllConnections();
  await new Promise((resolve) => files.close(resolve));
  await Promise.all([clickhouse?.stop(), prometheus?.stop(), influx?.stop()]);
  if (HAS_REDIS) {
    const client = new Redis({ host: redisAddress.hostname, port: 6379, db: REDIS_DB });
    await client.del(redisKey).finally(() => client.disconnect());
  }
  const db = new pg.Client({ connectionString: TEST_PG_URL });
  await db.connect();
  await db.query(`DROP SCHEMA IF EXISTS ${pgSchema} CASCADE`).finally(() => db.end());
});

describe("each connector from the New Data Source dialog to a chart", () => {
  // The files by URL are on 127.0.0.1, which the outbound guard refuses unless allowed.
  const app = useBrowserApp({ env: { SIGHTLINE_OUTBOUND_ALLOWED_RANGES: "127.0.0.0/8" } });
  let admin: Session;

  beforeAll(async () => {
    admin = await app.openSignedIn();
  });

  it.runIf(clickhouse !== null)("ClickHouse", async () => {
    await clickhouseExec(
      clickhouse!.url,
      `CREATE TABLE default.sales (day Date, region String, units UInt32, amount Decimal(12, 2))
       ENGINE = MergeTree ORDER BY day`,
    );
    await clickhouseExec(
      clickhouse!.url,
      `INSERT INTO default.sales VALUES ('2024-01-01', 'north', 4, 120.50),
       ('2024-01-01', 'south', 5, 80.25), ('2024-01-02', 'north', 3, 99.99)`,
    );
    const { page } = admin;
    const name = "Warehouse";
    await createFromDialog(page, {
      type: "clickhouse",
      search: "click",
      name,
      fields: [
        ["URL", clickhouse!.url],
        ["User", clickhouse!.user],
        ["Password", clickhouse!.password],
        ["Database Name", "default"],
      ],
      shot: "connectors-clickhouse",
    });
    await newQueryOn(page, name);
    await browseSchema(page, "sales", "amount");
    const table = await runInEditor(
      page,
      "SELECT region, toInt32(sum(units)) AS units, sum(amount) AS total\nFROM sales GROUP BY region ORDER BY region",
      "2 Rows",
    );
    // The Decimal sum is exact: 120.50 + 99.99.
    expect(table).toContain("220.49");
    expect(table).toContain("80.25");
    await screenshot(page, "connectors-clickhouse-query");
    const chart = await addChart(page, "connectors-clickhouse-chart");
    expect(chart.categories).toEqual(["north", "south"]);
    expect(seriesValues(chart)).toEqual([7, 5]);
  });

  it.runIf(prometheus !== null)("Prometheus", async () => {
    const { page } = admin;
    const name = "Metrics";
    await createFromDialog(page, {
      type: "prometheus",
      search: "prom",
      name,
      fields: [
        ["Prometheus API URL", prometheus!.url],
        ["Username (HTTP basic auth)", prometheus!.user],
        ["Password (HTTP basic auth)", prometheus!.password],
      ],
      shot: "connectors-prometheus",
    });
    await newQueryOn(page, name);
    // Metric names, and a metric's labels across all its series (one series lacks "instance").
    await browseSchema(page, "sl_requests_total", "instance");
    const table = await runInEditor(
      page,
      `query: sl_wide{shard="1"}\nstart: ${PROMETHEUS_T0}\nend: ${PROMETHEUS_T0 + 59 * 60}\nstep: 1m`,
      "60 Rows",
    );
    // Times in UTC: the first sample is at 2023-11-14 22:13:20Z.
    expect(table).toMatch(/2023-11-14.22:13/);
    await screenshot(page, "connectors-prometheus-query");
    const chart = await addChart(page, "connectors-prometheus-chart");
    // value over time: shard 1 counts up from 10, one a minute.
    const values = seriesValues(chart);
    expect(values).toHaveLength(60);
    expect([values[0], values[59]]).toEqual([10, 69]);
  });

  it.runIf(influx !== null)("InfluxDB", async () => {
    await influx!.write(
      TEST_INFLUX_DATABASE,
      [
        "weather,city=Oslo temp=3.5 1700000000000000000",
        "weather,city=Oslo temp=4.75 1700003600000000000",
        "weather,city=Rome temp=14.25 1700000000000000000",
      ].join("\n"),
    );
    const { page } = admin;
    const name = "Sensors";
    await createFromDialog(page, {
      type: "influxdb",
      search: "influx",
      name,
      fields: [
        [
          "URL (influxdb…",
          `influxdb://${influx!.url.slice("http://".length)}/${TEST_INFLUX_DATABASE}`,
        ],
        ["User", influx!.reader.user],
        ["Password", influx!.reader.password],
      ],
      shot: "connectors-influxdb",
    });
    await newQueryOn(page, name);
    await browseSchema(page, "weather", "temp");
    const table = await runInEditor(page, "SELECT temp FROM weather WHERE city = 'Oslo'", "2 Rows");
    expect(table).toContain("4.75");
    await screenshot(page, "connectors-influxdb-query");
    const chart = await addChart(page, "connectors-influxdb-chart");
    expect(seriesValues(chart)).toEqual([3.5, 4.75]);
  });

  it.runIf(HAS_REDIS)("Redis", async () => {
    const client = new Redis({ host: redisAddress.hostname, port: 6379, db: REDIS_DB });
    await client
      .zadd(redisKey, 30, "ann", 12.5, "bob", 21, "cy")
      .finally(() => client.disconnect());
    const { page } = admin;
    const name = "Cache";
    await createFromDialog(page, {
      type: "redis",
      search: "redis",
      name,
      fields: [
        ["Host", redisAddress.hostname],
        ["Database Number", String(REDIS_DB)],
      ],
      shot: "connectors-redis",
    });
    await newQueryOn(page, name);
    // Keys sampled, a sorted set's columns.
    await browseSchema(page, redisKey, "score");
    const table = await runInEditor(page, `ZRANGE ${redisKey} 0 -1 WITHSCORES`, "3 Rows");
    expect(table).toContain("12.5");
    await screenshot(page, "connectors-redis-query");
    const chart = await addChart(page, "connectors-redis-chart");
    // By score, as ZRANGE gives them.
    expect(chart.categories).toEqual(["bob", "cy", "ann"]);
    expect(seriesValues(chart)).toEqual([12.5, 21, 30]);
  });

  it("CSV by URL (an export link that redirects), on a phone", async () => {
    const phone = await app.openSignedIn(PHONE);
    try {
      const { page } = phone;
      const name = "Fruit sheet";
      await createFromDialog(page, {
        type: "csv",
        search: "csv",
        name,
        shot: "connectors-csv-phone",
      });
      await newQueryOn(page, name);
      const table = await runInEditor(
        page,
        `url: ${filesBase}/export\nquery: SELECT * FROM file ORDER BY fruit`,
        "3 Rows",
      );
      expect(table).toContain("7.5");
      await screenshot(page, "connectors-csv-query-phone");
      const chart = await addChart(page, "connectors-csv-chart-phone");
      expect(chart.categories).toEqual(["apple", "pear", "plum"]);
      expect(seriesValues(chart)).toEqual([12, 7.5, 3]);
    } finally {
      await phone.context.close();
    }
  });

  it("Excel by URL: a sheet by name", async () => {
    const { page } = admin;
    const name = "Sales book";
    await createFromDialog(page, {
      type: "excel",
      search: "excel",
      name,
      shot: "connectors-excel",
    });
    await newQueryOn(page, name);
    const table = await runInEditor(
      page,
      `url: ${filesBase}/book.xlsx\nsheet_name: Sales\nquery: SELECT month, sold FROM file ORDER BY month`,
      "3 Rows",
    );
    expect(table).toContain("55.5");
    await screenshot(page, "connectors-excel-query");
    const chart = await addChart(page, "connectors-excel-chart");
    expect(chart.categories).toEqual(["2024-01", "2024-02", "2024-03"]);
    expect(seriesValues(chart)).toEqual([40, 55.5, 31]);
  });

  it("TimescaleDB (the machine's PostgreSQL): a query, time_bucket when the extension is there", async () => {
    const db = new pg.Client({ connectionString: TEST_PG_URL });
    await db.connect();
    let timescale: boolean;
    try {
      await db.query(`CREATE SCHEMA ${pgSchema}`);
      await db.query(`CREATE TABLE ${pgSchema}.readings (at timestamptz, level integer)`);
      await db.query(
        `INSERT INTO ${pgSchema}.readings VALUES ('2024-05-01 10:05Z', 41), ('2024-05-01 10:40Z', 66),
         ('2024-05-01 11:10Z', 93)`,
      );
      const found = await db.query("SELECT 1 FROM pg_extension WHERE extname = 'timescaledb'");
      timescale = found.rowCount === 1;
    } finally {
      await db.end();
    }
    const pgUrl = new URL(TEST_PG_URL);
    const { page } = admin;
    const name = "Timeseries";
    await createFromDialog(page, {
      type: "timescaledb",
      search: "Timescale",
      name,
      fields: [
        ["Host", pgUrl.hostname],
        ["Port", pgUrl.port || "5432"],
        ["User", decodeURIComponent(pgUrl.username)],
        ["Database Name", pgUrl.pathname.slice(1)],
      ],
    });
    await newQueryOn(page, name);
    // Without the extension (as on this machine and CI) the preset is plain PostgreSQL.
    const bucket = timescale ? "time_bucket('1 hour', at)" : "date_trunc('hour', at)";
    const table = await runInEditor(
      page,
      `SELECT ${bucket} AS hour, sum(level)::int AS level FROM ${pgSchema}.readings GROUP BY 1 ORDER BY 1`,
      "2 Rows",
    );
    expect(table).toContain("107");
    expect(table).toContain("93");
    await screenshot(page, "connectors-timescaledb-query");
  });
});
