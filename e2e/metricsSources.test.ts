// Prometheus, InfluxDB and Redis data sources made in the browser: picked in the New Data Source
// dialog (their logos), Test Connection, a schema browsed, a query's result shown and charted.
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  startTestInflux,
  TEST_INFLUX_DATABASE,
  type TestInflux,
} from "../packages/server/src/testing/influxServer";
import {
  PROMETHEUS_T0,
  startTestPrometheus,
  type TestPrometheus,
} from "../packages/server/src/testing/prometheusServer";
import {
  randomName,
  redisAvailable,
  TEST_REDIS_URL,
} from "../packages/server/src/testing/services";
import { screenshot } from "./browser";
import { useBrowserApp, type Session } from "./fixtures/browserApp";
import { drawnChart } from "./fixtures/charts";
import { pollFor } from "./fixtures/poll";
import { createQueryWithVisualization, embedPath } from "./fixtures/queries";

vi.setConfig({ testTimeout: 90_000 });
const poll = pollFor(20_000);
const prometheus: TestPrometheus | null = await startTestPrometheus();
const influx: TestInflux | null = await startTestInflux();
const HAS_REDIS = await redisAvailable();
const REDIS_DB = 13;
const prefix = randomName("sl_e2e_redis");
const redisAddress = new URL(TEST_REDIS_URL);

afterAll(async () => {
  await prometheus?.stop();
  await influx?.stop();
  if (HAS_REDIS) {
    const client = new Redis({ host: redisAddress.hostname, port: 6379, db: REDIS_DB });
    await client.del(`${prefix}:board`);
    client.disconnect();
  }
});

describe("Prometheus, InfluxDB and Redis in the browser", () => {
  const app = useBrowserApp();
  let admin: Session;

  beforeAll(async () => {
    admin = await app.openSignedIn();
  });

  /** Picks a type in the New Data Source dialog, fills the fields, creates, tests. */
  async function createFromDialog(
    search: string,
    type: string,
    fields: [label: string, value: string][],
  ): Promise<number> {
    const { page } = admin;
    await page.goto("/data_sources/new");
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Search types").fill(search);
    await poll(() => dialog.getByTestId(`type-${type}`).count()).toBe(1);
    await screenshot(page, `${type}-type-dialog`);
    await dialog.getByTestId(`type-${type}`).click();
    await dialog.getByLabel("Name", { exact: true }).fill(randomName(type));
    // A label ending in "…" is matched by its start (long titles), others exactly.
    for (const [label, value] of fields) {
      const partial = label.endsWith("…");
      await dialog
        .getByLabel(partial ? label.slice(0, -1) : label, { exact: !partial })
        .fill(value);
    }
    await screenshot(page, `${type}-new-data-source`);
    await dialog.getByRole("button", { name: "Create" }).click();
    await poll(() => page.url()).toMatch(/\/data_sources\/\d+$/);
    const id = Number(/(\d+)$/.exec(page.url())![1]);
    await page.getByRole("button", { name: "Test Connection" }).click();
    await poll(() => page.locator(".ant-notification").textContent()).toContain("Success");
    return id;
  }

  it.runIf(prometheus !== null)("Prometheus: created, tested, a range query charted", async () => {
    const id = await createFromDialog("prom", "prometheus", [
      ["Prometheus API URL", prometheus!.url],
      ["Username (HTTP basic auth)", prometheus!.user],
      ["Password (HTTP basic auth)", prometheus!.password],
    ]);
    const chart = await createQueryWithVisualization(
      app.api,
      id,
      {
        name: "Wide shards",
        sql: `query: sl_wide{shard=~"1|2"}\nstart: ${PROMETHEUS_T0}\nend: ${PROMETHEUS_T0 + 59 * 60}\nstep: 1m`,
      },
      {
        type: "CHART",
        options: {
          globalSeriesType: "line",
          columnMapping: { timestamp: "x", value: "y", shard: "series" },
        },
      },
    );
    const { page } = admin;
    await page.goto(`/queries/${chart.queryId}/source`);
    const schema = page.getByTestId("schema-browser");
    await poll(() => schema.textContent()).toContain("sl_requests_total");
    await page.goto(embedPath(chart));
    await poll(async () => (await drawnChart(page.locator("body"))).series.length).toBe(2);
    expect((await drawnChart(page.locator("body"))).series[0].data).toHaveLength(60);
    await page.waitForTimeout(1500);
    await screenshot(page, "prometheus-chart");
  });

  it.runIf(influx !== null)(
    "InfluxDB: created, tested, schema browsed, a result shown",
    async () => {
      await influx!.write(
        TEST_INFLUX_DATABASE,
        "weather,city=Oslo temp=3.5 1700000000000000000\nweather,city=Rome temp=14.25 1700000000000000000",
      );
      const id = await createFromDialog("influx", "influxdb", [
        ["URL (influxdb…", `influxdb://${influx!.url.slice(7)}/${TEST_INFLUX_DATABASE}`],
        ["User", influx!.reader.user],
        ["Password", influx!.reader.password],
      ]);
      const chart = await createQueryWithVisualization(
        app.api,
        id,
        { name: "Temperatures", sql: "SELECT temp FROM weather GROUP BY city" },
        {
          type: "CHART",
          options: { globalSeriesType: "column", columnMapping: { city: "x", temp: "y" } },
        },
      );
      const { page } = admin;
      await page.goto(`/queries/${chart.queryId}/source`);
      const schema = page.getByTestId("schema-browser");
      await poll(() => schema.textContent()).toContain("weather");
      await schema.getByText("weather", { exact: true }).click();
      await poll(() => schema.textContent()).toContain("temp");
      const results = page.getByTestId("results");
      await poll(() => results.textContent()).toContain("Rome");
      expect(await results.textContent()).toContain("14.25");
      await screenshot(page, "influxdb-query");
      await page.goto(embedPath(chart));
      await poll(async () => (await drawnChart(page.locator("body"))).categories).toEqual([
        "Oslo",
        "Rome",
      ]);
      await page.waitForTimeout(1500);
      await screenshot(page, "influxdb-chart");
    },
  );

  it.runIf(HAS_REDIS)("Redis: created, tested, a sorted set charted", async () => {
    const client = new Redis({ host: redisAddress.hostname, port: 6379, db: REDIS_DB });
    await client.zadd(`${prefix}:board`, 30, "ann", 12.5, "bob", 21, "cy");
    client.disconnect();
    const id = await createFromDialog("redis", "redis", [
      ["Host", redisAddress.hostname],
      ["Database Number", String(REDIS_DB)],
    ]);
    const chart = await createQueryWithVisualization(
      app.api,
      id,
      { name: "Board", sql: `ZRANGE ${prefix}:board 0 -1 WITHSCORES` },
      {
        type: "CHART",
        options: { globalSeriesType: "column", columnMapping: { member: "x", score: "y" } },
      },
    );
    const { page } = admin;
    await page.goto(`/queries/${chart.queryId}/source`);
    const results = page.getByTestId("results");
    await poll(() => results.textContent()).toContain("bob");
    await screenshot(page, "redis-query");
    await page.goto(embedPath(chart));
    // The chart sorts its x values.
    await poll(async () => (await drawnChart(page.locator("body"))).categories).toEqual([
      "ann",
      "bob",
      "cy",
    ]);
    const bars = JSON.stringify((await drawnChart(page.locator("body"))).series[0].data);
    for (const score of ["30", "12.5", "21"]) expect(bars).toContain(score);
    await page.waitForTimeout(1500); // the bars' animation
    await screenshot(page, "redis-chart");
  });
});
