import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { startTestServer, type TestServer } from "../packages/server/src/testing/testServer";
import { setUpAndLogin, type TestClient } from "../packages/server/src/testing/httpClient";
import { DESKTOP, launchBrowser, newPage, screenshot } from "./browser";

/**
 * Every visualization type drawn by the embed page from a stored, Redash-shaped options object on
 * the Demo shop data, checking what ECharts (or the DOM) actually drew.
 */

/** What a test reads from the ECharts instance drawn on the page. */
interface ChartSnapshot {
  series: { type: string; name?: string; points: number; names: string[] }[];
  legend: string[];
  xAxisNames: string[];
  yAxisNames: string[];
  /** Category labels of the first x axis, when it has them. */
  xCategories: string[];
}

async function readChart(page: Page): Promise<ChartSnapshot> {
  return page.evaluate(() => {
    type Opt = {
      series?: { type: string; name?: string; data?: unknown[] }[];
      legend?: { data?: (string | { name: string })[] }[];
      xAxis?: { name?: string; data?: unknown[] }[];
      yAxis?: { name?: string }[];
    };
    const host = (
      window as unknown as {
        sightlineECharts: { getInstanceByDom(el: Element): { getOption(): Opt } | undefined };
      }
    ).sightlineECharts;
    const el = [...document.querySelectorAll("[_echarts_instance_]")][0];
    const chart = el ? host.getInstanceByDom(el) : undefined;
    if (!chart) throw new Error("no ECharts instance on the page");
    const o = chart.getOption();
    const nameOf = (d: unknown) =>
      d && typeof d === "object" && "name" in d ? String((d as { name: unknown }).name) : "";
    return {
      series: (o.series ?? []).map((s) => ({
        type: s.type,
        name: s.name,
        points: (s.data ?? []).length,
        names: (s.data ?? []).map(nameOf).filter(Boolean),
      })),
      // A legend without its own data lists every named series.
      legend: !o.legend?.length
        ? []
        : o.legend[0]!.data?.length
          ? o.legend[0]!.data.map((d) => (typeof d === "string" ? d : d.name))
          : (o.series ?? []).map((s) => s.name ?? ""),
      xAxisNames: (o.xAxis ?? []).map((a) => a.name ?? ""),
      yAxisNames: (o.yAxis ?? []).map((a) => a.name ?? ""),
      xCategories: (o.xAxis?.[0]?.data ?? []).map((d) =>
        d && typeof d === "object" ? String((d as { value: unknown }).value) : String(d),
      ),
    };
  });
}

/** A 256×256 PNG of one colour: what the local tile server answers. */
function solidPng(rgb: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(zlib.crc32(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(256, 0);
  header.writeUInt32BE(256, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array(256).fill(rgb).flat())]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", zlib.deflateSync(Buffer.concat(Array(256).fill(row)))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** The first pixel's RGB of an 8-bit RGB or RGBA PNG (a one-pixel screenshot). */
function pngPixel(png: Buffer): number[] {
  const idat: Buffer[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    if (png.toString("ascii", at + 4, at + 8) === "IDAT")
      idat.push(png.subarray(at + 8, at + 8 + length));
    at += length + 12;
  }
  const raw = zlib.inflateSync(Buffer.concat(idat));
  return [raw[1]!, raw[2]!, raw[3]!]; // after the row's filter byte
}

describe("visualizations in the embed page", () => {
  let server: TestServer;
  let browser: Browser;
  let api: TestClient;
  let demoId: number;

  beforeAll(async () => {
    server = await startTestServer("sqlite");
    api = await setUpAndLogin(server.url);
    browser = await launchBrowser();
    // The Demo source is created at setup and paused while its data is generated.
    const deadline = Date.now() + 90_000;
    for (;;) {
      const list = (await api.get("/api/data_sources")).body as {
        id: number;
        name: string;
        paused: number | boolean;
      }[];
      const demo = list.find((d) => d.name === "Demo");
      if (demo && !demo.paused) {
        demoId = demo.id;
        break;
      }
      if (Date.now() > deadline) throw new Error("the Demo data source was not ready in time");
      await new Promise((r) => setTimeout(r, 250));
    }
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  interface Embedded {
    page: Page;
    context: BrowserContext;
    queryId: number;
    visualizationId: number;
    /** Uncaught errors in the page: a visualization must never throw past its boundary. */
    errors: string[];
  }

  /** Saves a query, runs it, adds the visualization and opens its embed page. */
  async function embed(
    sql: string,
    type: string,
    name: string,
    options: Record<string, unknown>,
  ): Promise<Embedded> {
    const query = await api.post("/api/queries", { name, query: sql, data_source_id: demoId });
    expect(query.status, query.text).toBe(200);
    const { id: queryId, api_key: queryApiKey } = query.body as { id: number; api_key: string };
    const run = await api.post(`/api/queries/${queryId}/results`, {});
    let job = (run.body as { job?: { id: string; status: number; error?: string } }).job;
    while (job && job.status !== 3) {
      if (job.status === 4 || job.status === 5) throw new Error(`query failed: ${job.error}`);
      await new Promise((r) => setTimeout(r, 100));
      job = (await api.get(`/api/jobs/${job.id}`)).body.job;
    }
    const viz = await api.post("/api/visualizations", { query_id: queryId, type, name, options });
    expect(viz.status, viz.text).toBe(200);
    const visualizationId = (viz.body as { id: number }).id;
    const { page, context } = await newPage(browser, server.url, DESKTOP);
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    // As an embedding site would: no session, the query's own API key.
    await page.goto(
      `/embed/query/${queryId}/visualization/${visualizationId}?api_key=${encodeURIComponent(queryApiKey)}`,
    );
    await page
      .waitForSelector(".sightline-visualization", { timeout: 30_000, state: "attached" })
      .catch(async (e: Error) => {
        throw new Error(`${type}: ${e.message}\n${await page.textContent("body")}`);
      });
    return { page, context, queryId, visualizationId, errors };
  }

  /** Waits until the ECharts instance has drawn a series. */
  async function chartDrawn(page: Page): Promise<ChartSnapshot> {
    await page
      .waitForSelector("[_echarts_instance_] canvas", { timeout: 10_000 })
      .catch(async (e) => {
        await screenshot(page, "viz-failed");
        throw new Error(`${(e as Error).message}\n${await page.textContent("body")}`);
      });
    await expect.poll(async () => (await readChart(page)).series.length).toBeGreaterThan(0);
    // Let the first frame and any entry animation finish before the screenshot.
    await page.waitForTimeout(800);
    return readChart(page);
  }

  const STATUS_BY_MONTH = `
    SELECT strftime(date_trunc('month', ordered_at), '%Y-%m-01') AS month, status, count(*) AS orders
    FROM orders WHERE ordered_at >= DATE '2000-01-01'
    GROUP BY 1, 2 ORDER BY 1, 2`;

  it("CHART line: one series per status, legend and axis titles", { timeout: 60_000 }, async () => {
    const { page, context, errors } = await embed(STATUS_BY_MONTH, "CHART", "Orders by status", {
      globalSeriesType: "line",
      sortX: true,
      legend: { enabled: true, placement: "auto", traceorder: "normal" },
      xAxis: { type: "-", labels: { enabled: true }, title: { text: "Month" } },
      yAxis: [
        { type: "linear", title: { text: "Orders" } },
        { type: "linear", opposite: true },
      ],
      series: { stacking: null, error_y: { type: "data", visible: true } },
      seriesOptions: { delivered: { name: "Delivered", color: "#17BF51", zIndex: 0 } },
      columnMapping: { month: "x", status: "series", orders: "y" },
      showDataLabels: false,
      numberFormat: "0,0[.]00000",
      percentFormat: "0[.]00%",
      dateTimeFormat: "DD/MM/YY HH:mm",
      missingValuesAsZero: true,
    });
    const chart = await chartDrawn(page);
    expect(chart.series).toHaveLength(5);
    expect(chart.series.every((s) => s.type === "line")).toBe(true);
    expect(chart.legend.sort()).toEqual([
      "Delivered",
      "cancelled",
      "processing",
      "returned",
      "shipped",
    ]);
    expect(chart.series[0]!.points).toBeGreaterThan(12);
    expect(chart.xAxisNames[0]).toBe("Month");
    expect(chart.yAxisNames[0]).toBe("Orders");
    await screenshot(page, "viz-chart-line");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("CHART bar + line on a right axis, from seriesOptions", { timeout: 60_000 }, async () => {
    const sql = `
      SELECT p.category, round(sum(oi.quantity * oi.unit_price) / 1000, 1) AS revenue_k,
             count(DISTINCT oi.order_id) AS orders
      FROM order_items oi JOIN products p ON p.id = oi.product_id GROUP BY 1 ORDER BY 1`;
    const { page, context, errors } = await embed(sql, "CHART", "Revenue by category", {
      globalSeriesType: "column",
      columnMapping: { category: "x", revenue_k: "y", orders: "y" },
      seriesOptions: {
        revenue_k: { name: "Revenue (k)", type: "column", yAxis: 0, zIndex: 0 },
        orders: { name: "Orders", type: "line", yAxis: 1, zIndex: 1 },
      },
      xAxis: { type: "category", labels: { enabled: true } },
      yAxis: [{ type: "linear" }, { type: "linear", opposite: true }],
      legend: { enabled: true },
      showDataLabels: true,
    });
    const chart = await chartDrawn(page);
    expect(chart.series.map((s) => s.type)).toEqual(["bar", "line"]);
    expect(chart.legend).toEqual(["Revenue (k)", "Orders"]);
    expect(chart.xCategories).toHaveLength(8);
    expect(chart.xCategories).toContain("Home & Kitchen");
    await screenshot(page, "viz-chart-bar-line");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("CHART pie: one slice per status with labels", { timeout: 60_000 }, async () => {
    const sql = "SELECT status, count(*) AS orders FROM orders GROUP BY 1 ORDER BY 2 DESC";
    const { page, context, errors } = await embed(sql, "CHART", "Order status", {
      globalSeriesType: "pie",
      columnMapping: { status: "x", orders: "y" },
      valuesOptions: { cancelled: { color: "#E92828" } },
      legend: { enabled: true },
      showDataLabels: true,
      direction: { type: "counterclockwise" },
    });
    const chart = await chartDrawn(page);
    expect(chart.series).toHaveLength(1);
    expect(chart.series[0]!.type).toBe("pie");
    expect(chart.series[0]!.names.sort()).toEqual([
      "cancelled",
      "delivered",
      "processing",
      "returned",
      "shipped",
    ]);
    await screenshot(page, "viz-chart-pie");
    expect(errors).toEqual([]);
    await context.close();
  });

  it(
    "TABLE: column options from a stored record (hidden, renamed, formatted)",
    { timeout: 60_000 },
    async () => {
      const sql =
        "SELECT id, first_name, email, country, signup_date FROM customers ORDER BY id LIMIT 200";
      const { page, context, errors } = await embed(sql, "TABLE", "Customers", {
        itemsPerPage: 25,
        columns: [
          {
            name: "id",
            title: "Customer",
            displayAs: "number",
            numberFormat: "0",
            order: 0,
            visible: true,
          },
          { name: "email", visible: false, order: 1 },
          {
            name: "first_name",
            title: "First name",
            displayAs: "string",
            order: 2,
            allowSearch: true,
          },
          { name: "country", title: "Country", order: 3, alignContent: "center" },
          {
            name: "signup_date",
            title: "Signed up",
            displayAs: "datetime",
            dateTimeFormat: "YYYY-MM-DD",
            order: 4,
          },
        ],
      });
      await page.waitForSelector("[data-testid=table-visualization] [role=cell]");
      const headers = await page.$$eval(
        "[data-testid=table-visualization] [role=columnheader]",
        (els) => els.map((e) => e.textContent?.trim()),
      );
      expect(headers).toEqual(["Customer", "First name", "Country", "Signed up"]);
      const first = await page.$$eval(
        "[data-testid=table-visualization] [role=row][data-index='0'] [role=cell]",
        (els) => els.map((e) => e.textContent?.trim()),
      );
      expect(first[0]).toBe("1");
      expect(first[3]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(await page.textContent("body")).not.toContain("@example.com");
      // Search narrows the rows (first_name is searchable).
      await page.fill("[data-testid=table-visualization] input", "Grace");
      await expect
        .poll(() =>
          page.$$eval(
            "[data-testid=table-visualization] [role=row][data-index] [role=cell]:nth-child(2)",
            (els) => [...new Set(els.map((e) => e.textContent))],
          ),
        )
        .toEqual(["Grace"]);
      await screenshot(page, "viz-table");
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it("COUNTER: value, target and trend colour", { timeout: 60_000 }, async () => {
    const sql = "SELECT count(*) AS orders, 350000 AS target FROM orders";
    const { page, context, errors } = await embed(sql, "COUNTER", "Orders", {
      counterLabel: "Orders placed",
      counterColName: "orders",
      rowNumber: 1,
      targetColName: "target",
      targetRowNumber: 1,
      stringDecimal: 0,
      stringDecChar: ".",
      stringThouSep: ",",
      tooltipFormat: "0,0.000",
    });
    const value = page.locator("[data-testid=counter-value]");
    await expect.poll(() => value.textContent()).toContain("400,000");
    // Redash leaves the target unformatted unless formatTargetValue is set.
    expect(await value.textContent()).toContain("(350000)");
    expect(await page.textContent(".sightline-visualization")).toContain("Orders placed");
    // Above target: drawn in the positive colour.
    expect(await value.evaluate((e) => getComputedStyle(e).color)).toBe("rgb(92, 184, 92)");
    await screenshot(page, "viz-counter");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("PIVOT: rows, columns, sum aggregator and totals", { timeout: 60_000 }, async () => {
    const sql = `SELECT p.category, o.status, count(*) AS items
      FROM order_items oi JOIN orders o ON o.id = oi.order_id JOIN products p ON p.id = oi.product_id
      GROUP BY 1, 2`;
    const { page, context, errors } = await embed(sql, "PIVOT", "Items by category and status", {
      rows: ["category"],
      cols: ["status"],
      vals: ["items"],
      aggregatorName: "Integer Sum",
      rendererName: "Table Heatmap",
      controls: { enabled: true },
      rendererOptions: { table: { rowTotals: true, colTotals: true } },
      menuLimit: 500,
      unusedOrientationCutoff: 85,
      hiddenAttributes: [],
      derivedAttributes: {},
      sorters: {},
    });
    const table = page.locator("[data-testid=pivot-table]");
    await table.waitFor();
    // controls.enabled = true hides the attribute lists (Redash's inverted flag).
    expect(await page.locator("[data-testid=pivot-attr-category]").count()).toBe(0);
    const bodyRows = await table.locator("tbody tr").count();
    expect(bodyRows).toBe(8 + 1); // eight categories and the totals row
    const colHeads = await table.locator("thead tr").first().locator("th").allTextContents();
    expect(colHeads).toEqual(
      expect.arrayContaining([
        "cancelled",
        "delivered",
        "processing",
        "returned",
        "shipped",
        "Totals",
      ]),
    );
    const cells = await table.locator("tbody td").count();
    expect(cells).toBe(9 * 6);
    const grand = await table.locator("tbody tr").last().locator("td").last().textContent();
    expect(Number(grand!.replace(/[^\d]/g, ""))).toBeGreaterThan(400_000);
    await screenshot(page, "viz-pivot");
    expect(errors).toEqual([]);
    await context.close();
  });

  const CITY_COORDS = `
    SELECT c.city, c.country, count(*) AS customers, k.lat, k.lon FROM customers c JOIN (VALUES
      ('New York', 40.71, -74.01), ('Chicago', 41.88, -87.63), ('Austin', 30.27, -97.74),
      ('Seattle', 47.61, -122.33), ('Toronto', 43.65, -79.38), ('Vancouver', 49.28, -123.12),
      ('London', 51.51, -0.13), ('Manchester', 53.48, -2.24), ('Berlin', 52.52, 13.40),
      ('Munich', 48.14, 11.58), ('Paris', 48.86, 2.35), ('Lyon', 45.76, 4.84),
      ('Madrid', 40.42, -3.70), ('Barcelona', 41.39, 2.17), ('Milan', 45.46, 9.19),
      ('Rome', 41.90, 12.50), ('Amsterdam', 52.37, 4.90), ('Stockholm', 59.33, 18.07),
      ('Warsaw', 52.23, 21.01), ('São Paulo', -23.55, -46.63), ('Mexico City', 19.43, -99.13),
      ('Tokyo', 35.68, 139.69), ('Osaka', 34.69, 135.50), ('Bangalore', 12.97, 77.59),
      ('Sydney', -33.87, 151.21), ('Melbourne', -37.81, 144.96)
    ) AS k(city, lat, lon) USING (city) GROUP BY c.city, c.country, k.lat, k.lon`;

  it("MAP: one marker layer per group, named in the legend", { timeout: 60_000 }, async () => {
    const { page, context, errors } = await embed(CITY_COORDS, "MAP", "Customers by city", {
      latColName: "lat",
      lonColName: "lon",
      classify: "country",
      groups: { Japan: { color: "#E92828" } },
      mapTileUrl: "//{s}.tile.openstreetmap.org/{z}/{x}/{y}.png",
      clusterMarkers: false,
      customizeMarkers: false,
      iconShape: "marker",
      iconFont: "circle",
      foregroundColor: "#ffffff",
      backgroundColor: "#356AFF",
      borderColor: "#356AFF",
      tooltip: { enabled: true, template: "<b>{{ city }}</b>: {{ customers }}" },
      popup: { enabled: true, template: "" },
      bounds: null,
    });
    const chart = await chartDrawn(page);
    const scatter = chart.series.filter((s) => s.type === "scatter");
    expect(scatter).toHaveLength(15); // one layer per country
    expect(scatter.reduce((n, s) => n + s.points, 0)).toBe(26); // every city, unclustered
    expect(chart.legend).toEqual(expect.arrayContaining(["Japan", "Germany", "United States"]));
    await screenshot(page, "viz-map");
    expect(errors).toEqual([]);
    await context.close();
  });

  it(
    "MAP tiles: drawn under the markers when the tile server answers, outline when not",
    { timeout: 90_000 },
    async () => {
      const png = solidPng([170, 211, 223]);
      const hits: string[] = [];
      const tileServer = http.createServer((req, res) => {
        hits.push(req.url ?? "");
        res.writeHead(200, { "content-type": "image/png" }).end(png);
      });
      await new Promise<void>((r) => tileServer.listen(0, "127.0.0.1", r));
      const port = (tileServer.address() as AddressInfo).port;
      const options = {
        latColName: "lat",
        lonColName: "lon",
        clusterMarkers: true,
        mapTileUrl: `http://127.0.0.1:${port}/{z}/{x}/{y}.png`,
        bounds: { _southWest: { lat: 34, lng: -12 }, _northEast: { lat: 61, lng: 25 } },
      };
      const tiled = await embed(CITY_COORDS, "MAP", "Europe with tiles", options);
      const chart = await chartDrawn(tiled.page);
      const layer = chart.series.find((s) => s.type === "custom")!;
      await expect.poll(() => hits.length).toBeGreaterThan(0);
      await tiled.page.waitForTimeout(500); // the images load, then the chart redraws with them
      await screenshot(tiled.page, "viz-map-tiles");
      expect(hits.every((h) => /^\/\d+\/\d+\/\d+\.png$/.test(h))).toBe(true);
      const tileCount = (await readChart(tiled.page)).series.find(
        (s) => s.type === "custom",
      )!.points;
      expect(tileCount).toBeGreaterThan(0);
      expect(layer).toBeDefined();
      // Europe at a few hundred pixels a tile: zoom 3 or more.
      expect(Math.max(...hits.map((h) => Number(h.split("/")[1])))).toBeGreaterThanOrEqual(3);
      // The tile colour is on screen, top left of the map, away from the markers. (Tiles come from
      // another origin, so the canvas cannot be read back: the screenshot is.)
      const box = (await tiled.page.locator("[_echarts_instance_]").boundingBox())!;
      const pixel = pngPixel(
        await tiled.page.screenshot({
          clip: { x: box.x + 30, y: box.y + 30, width: 1, height: 1 },
        }),
      );
      expect(pixel).toEqual([170, 211, 223]);
      expect(tiled.errors).toEqual([]);
      await tiled.context.close();
      await new Promise((r) => tileServer.close(r));

      // The same map with the tile server gone: the markers and the bundled outline still draw.
      const bare = await embed(CITY_COORDS, "MAP", "Europe without tiles", options);
      const drawn = await chartDrawn(bare.page);
      expect(drawn.series.filter((s) => s.type === "scatter").length).toBe(1);
      expect(drawn.series[1]!.points).toBeGreaterThan(5);
      await screenshot(bare.page, "viz-map-tiles-unreachable");
      expect(bare.errors).toEqual([]);
      await bare.context.close();
    },
  );

  it(
    "CHOROPLETH: countries coloured by value, unmatched regions left without one",
    { timeout: 60_000 },
    async () => {
      const sql = "SELECT country, count(*) AS customers FROM customers GROUP BY 1";
      const { page, context, errors } = await embed(sql, "CHOROPLETH", "Customers by country", {
        mapType: "countries",
        countryCodeColumn: "country",
        countryCodeType: "name",
        valueColumn: "customers",
        clusteringMode: "e",
        steps: 5,
        valueFormat: "0,0",
        noValuePlaceholder: "N/A",
        colors: {
          min: "#799CFF",
          max: "#002FB4",
          noValue: "#dddddd",
          background: "#ffffff",
          borders: "#ffffff",
        },
        legend: { visible: true, position: "bottom-left", alignText: "right" },
        tooltip: { enabled: true, template: "<b>{{ @@name }}</b>: {{ @@value }}" },
        popup: { enabled: true, template: "{{ @@name_long }}" },
      });
      const chart = await chartDrawn(page);
      expect(chart.series[0]!.type).toBe("map");
      const valued = await page.evaluate(() => {
        const host = (
          window as unknown as {
            sightlineECharts: {
              getInstanceByDom(e: Element): {
                getOption(): { series: { data: { name: string; value?: number }[] }[] };
              };
            };
          }
        ).sightlineECharts;
        const chart = host.getInstanceByDom(document.querySelector("[_echarts_instance_]")!)!;
        return chart
          .getOption()
          .series[0]!.data.filter((d) => typeof d.value === "number")
          .map((d) => d.name)
          .sort();
      });
      // Legacy countryCodeColumn/countryCodeType became keyColumn/targetField "name". "United
      // States" and "United Kingdom" differ from the map's short names and stay without a value.
      expect(valued).toEqual(
        expect.arrayContaining([
          "Australia",
          "Brazil",
          "Canada",
          "France",
          "Germany",
          "Japan",
          "Spain",
        ]),
      );
      expect(valued.length).toBeGreaterThanOrEqual(12);
      await screenshot(page, "viz-choropleth");
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it(
    "CHOROPLETH Japan: prefectures matched by ISO 3166-2 code, with the map's credit",
    { timeout: 60_000 },
    async () => {
      const sql =
        "SELECT * FROM (VALUES ('JP-23', 10), ('JP-13', 30), ('JP-01', 5)) t(code, value)";
      const { page, context, errors } = await embed(sql, "CHOROPLETH", "Japan by prefecture", {
        mapType: "subdiv_japan",
        keyColumn: "code",
        targetField: "iso_3166_2",
        valueColumn: "value",
        valueFormat: "0,0",
        tooltip: { enabled: true, template: "<b>{{ @@name_local }}</b>: {{ @@value }}" },
      });
      const chart = await chartDrawn(page);
      expect(chart.series[0]!.type).toBe("map");
      const option = await page.evaluate(() => {
        const host = (
          window as unknown as {
            sightlineECharts: {
              getInstanceByDom(e: Element): {
                getOption(): {
                  series: { data: { name: string; value?: number; itemStyle: object }[] }[];
                };
              };
            };
          }
        ).sightlineECharts;
        const chart = host.getInstanceByDom(document.querySelector("[_echarts_instance_]")!)!;
        return chart.getOption().series[0]!.data;
      });
      expect(option).toHaveLength(47);
      const valued = option
        .filter((d) => typeof d.value === "number")
        .map((d) => [d.name, d.value])
        .sort();
      expect(valued).toEqual([
        ["aichi", 10],
        ["hokkaido", 5],
        ["tokyo", 30],
      ]);
      expect(await page.locator(".ant-alert").count()).toBe(0);
      expect(await page.textContent("body")).not.toContain("not available");
      await expect
        .poll(() => page.locator(".choropleth-attribution").textContent())
        .toBe("Map: svg-maps (CC BY 4.0)");
      await screenshot(page, "viz-choropleth-japan");
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it("COHORT: monthly cohorts with stage columns", { timeout: 60_000 }, async () => {
    const sql = `
      WITH c AS (SELECT id, date_trunc('month', signup_date) AS cohort FROM customers
                 WHERE signup_date >= current_date - INTERVAL 200 DAY),
      a AS (SELECT DISTINCT c.id, c.cohort,
              datediff('month', c.cohort, date_trunc('month', o.ordered_at)) AS stage
            FROM c JOIN orders o ON o.customer_id = c.id)
      SELECT strftime(a.cohort, '%Y-%m-%d') AS cohort_date, a.stage AS day_number,
             (SELECT count(*) FROM c WHERE c.cohort = a.cohort) AS total, count(*) AS value
      FROM a GROUP BY a.cohort, a.stage ORDER BY 1, 2`;
    const { page, context, errors } = await embed(sql, "COHORT", "Retention", {
      timeInterval: "monthly",
      mode: "diagonal",
      dateColumn: "cohort_date",
      stageColumn: "day_number",
      totalColumn: "total",
      valueColumn: "value",
      percentValues: true,
      timeColumnTitle: "Signed up",
      peopleColumnTitle: "Customers",
      stageColumnTitle: "Month {{ @ }}",
    });
    const table = page.locator("[data-testid=cohort-visualization] table").first();
    await table.waitFor();
    const heads = await table.locator("thead th").allTextContents();
    expect(heads.slice(0, 3)).toEqual(["Signed up", "Customers", "Month 1"]);
    const rows = await table.locator("tbody tr").count();
    expect(rows).toBeGreaterThanOrEqual(6);
    expect(await table.locator("tbody tr").first().textContent()).toMatch(/%/);
    await screenshot(page, "viz-cohort");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("FUNNEL: steps sorted by value with % max and % previous", { timeout: 60_000 }, async () => {
    const sql = "SELECT status, count(*) AS orders FROM orders GROUP BY 1";
    const { page, context, errors } = await embed(sql, "FUNNEL", "Order funnel", {
      stepCol: { colName: "status", displayAs: "Status" },
      valueCol: { colName: "orders", displayAs: "Orders" },
      autoSort: true,
      sortKeyCol: { colName: null, reverse: false },
      itemsLimit: 100,
      percentValuesRange: { min: 0.01, max: 1000 },
      numberFormat: "0,0",
      percentFormat: "0[.]00%",
    });
    const table = page.locator("[data-testid=funnel-visualization]");
    await table.waitFor();
    expect(await table.locator("thead th").allTextContents()).toEqual([
      "Status",
      "Orders",
      "% Max",
      "% Previous",
    ]);
    const rows = table.locator("tbody tr");
    expect(await rows.count()).toBe(5);
    expect(await rows.first().locator("td").first().textContent()).toContain("delivered");
    expect(await rows.first().locator("td").nth(2).textContent()).toContain("100%");
    await screenshot(page, "viz-funnel");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("SANKEY: nodes per stage and links between them", { timeout: 60_000 }, async () => {
    const sql = `SELECT c.country AS stage1, o.status AS stage2, count(*) AS value
      FROM orders o JOIN customers c ON c.id = o.customer_id
      WHERE c.country IN ('Japan', 'France', 'Brazil') GROUP BY 1, 2`;
    const { page, context, errors } = await embed(sql, "SANKEY", "Status by country", {});
    const chart = await chartDrawn(page);
    expect(chart.series[0]!.type).toBe("sankey");
    expect(chart.series[0]!.points).toBe(3 + 5); // three countries, five statuses
    await screenshot(page, "viz-sankey");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("SUNBURST_SEQUENCE: a ring per stage from the table format", { timeout: 60_000 }, async () => {
    const sql = `SELECT c.country AS a_country, o.status AS b_status, count(*) AS value
      FROM orders o JOIN customers c ON c.id = o.customer_id
      WHERE c.country IN ('Japan', 'France', 'Brazil', 'India') GROUP BY 1, 2`;
    const { page, context, errors } = await embed(
      sql,
      "SUNBURST_SEQUENCE",
      "Status by country",
      {},
    );
    const chart = await chartDrawn(page);
    expect(chart.series[0]!.type).toBe("sunburst");
    expect(chart.series[0]!.names.sort()).toEqual(["Brazil", "France", "India", "Japan"]);
    await screenshot(page, "viz-sunburst");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("WORD_CLOUD: words of product names, with frequencies", { timeout: 60_000 }, async () => {
    const sql = "SELECT name FROM products";
    const { page, context, errors } = await embed(sql, "WORD_CLOUD", "Product words", {
      column: "name",
      frequenciesColumn: "",
      wordLengthLimit: { min: 3, max: null },
      wordCountLimit: { min: 2, max: null },
    });
    const chart = await chartDrawn(page);
    expect(chart.series[0]!.type).toBe("wordCloud");
    // Ten adjectives and sixteen nouns ("Yoga Mat" is two words) repeat; the numeric suffixes
    // appear once and are dropped by the count limit.
    expect(chart.series[0]!.points).toBe(27);
    expect(chart.series[0]!.names).toEqual(expect.arrayContaining(["Wireless", "Lamp"]));
    await screenshot(page, "viz-wordcloud");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("DETAILS: one record as label/value pairs with a pager", { timeout: 60_000 }, async () => {
    const sql = "SELECT id, first_name, last_name, country FROM customers ORDER BY id LIMIT 3";
    const { page, context, errors } = await embed(sql, "DETAILS", "Customer", {
      columns: [{ name: "last_name", title: "Surname", visible: true, order: 0 }],
    });
    const details = page.locator("[data-testid=details-visualization]");
    await details.waitFor();
    const labels = await details.locator(".ant-descriptions-item-label").allTextContents();
    expect(labels).toEqual(expect.arrayContaining(["Surname", "id", "first_name", "country"]));
    expect(await details.locator(".ant-descriptions-item-content").first().textContent()).not.toBe(
      "",
    );
    expect(await details.textContent()).toContain("1");
    await details.locator(".ant-pagination-next").click();
    await expect
      .poll(() => details.locator(".ant-pagination-simple-pager input").inputValue())
      .toBe("2");
    await screenshot(page, "viz-details");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("BOXPLOT (deprecated): one box per column with axis labels", { timeout: 60_000 }, async () => {
    const sql = `SELECT
        max(CASE WHEN category = 'Books' THEN price END) AS books,
        max(CASE WHEN category = 'Toys' THEN price END) AS toys,
        max(CASE WHEN category = 'Garden' THEN price END) AS garden
      FROM (SELECT *, row_number() OVER (PARTITION BY category ORDER BY id) AS n FROM products)
      GROUP BY n`;
    const { page, context, errors } = await embed(sql, "BOXPLOT", "Prices", {
      xAxisLabel: "Category",
      yAxisLabel: "Price",
    });
    const chart = await chartDrawn(page);
    expect(chart.series[0]!.type).toBe("boxplot");
    expect(chart.series[0]!.points).toBe(3);
    expect(chart.xCategories).toEqual(["books", "toys", "garden"]);
    expect(chart.xAxisNames[0]).toBe("Category");
    await screenshot(page, "viz-boxplot");
    expect(errors).toEqual([]);
    await context.close();
  });

  it(
    "bad stored options draw what they can and say what is wrong",
    { timeout: 120_000 },
    async () => {
      const sql = "SELECT status, count(*) AS orders, NULL AS nothing FROM orders GROUP BY 1";
      const cases: {
        type: string;
        options: Record<string, unknown>;
        drawn: string;
        says?: RegExp;
      }[] = [
        {
          // Unknown keys, a missing column, and wrong types in known keys.
          type: "CHART",
          options: {
            globalSeriesType: "column",
            columnMapping: { status: "x", orders: "y", gone: "y" },
            legend: "yes",
            yAxis: "left",
            xAxis: 7,
            futureKey: { a: 1 },
          },
          drawn: "[_echarts_instance_] canvas",
          says: /gone/,
        },
        {
          type: "CHART",
          options: { globalSeriesType: "line", columnMapping: { nothing: "x", missing: "y" } },
          drawn: ".ant-alert",
          says: /missing/,
        },
        {
          type: "TABLE",
          options: { columns: "all", itemsPerPage: "many", unknown: true },
          drawn: "[data-testid=table-visualization] [role=cell]",
        },
        {
          type: "COUNTER",
          options: { counterColName: "gone", rowNumber: "x", targetColName: null },
          drawn: ".ant-alert",
          says: /gone/,
        },
        {
          type: "PIVOT",
          options: { rows: ["gone"], cols: "status", aggregatorName: "Bogus", vals: null },
          drawn: "[data-testid=pivot-table]",
          says: /gone/,
        },
        {
          type: "MAP",
          options: { latColName: "lat", lonColName: "lon", classify: 5, bounds: "x" },
          drawn: ".ant-alert",
          says: /lat/,
        },
        {
          type: "CHOROPLETH",
          options: {
            mapType: "mars",
            keyColumn: "gone",
            targetField: "name",
            valueColumn: "orders",
          },
          drawn: ".ant-alert",
          says: /gone/,
        },
        {
          type: "FUNNEL",
          options: { stepCol: { colName: "gone" }, valueCol: "orders", itemsLimit: "all" },
          drawn: ".sightline-visualization",
        },
        {
          type: "COHORT",
          options: { dateColumn: "gone", colors: 7, steps: null },
          drawn: ".sightline-visualization",
        },
        {
          type: "WORD_CLOUD",
          options: { column: null, wordLengthLimit: "x" },
          drawn: ".sightline-visualization",
        },
        {
          type: "DETAILS",
          options: { columns: [{ name: "gone", visible: true }, null] },
          drawn: "[data-testid=details-visualization]",
        },
        {
          type: "NO_SUCH_TYPE",
          options: {},
          drawn: ".ant-alert",
          says: /Unknown visualization type/,
        },
      ];
      for (const c of cases) {
        const { page, context, errors } = await embed(sql, c.type, `Broken ${c.type}`, c.options);
        await page
          .waitForSelector(c.drawn, { timeout: 10_000, state: "attached" })
          .catch(async () => {
            await screenshot(page, `viz-broken-${c.type.toLowerCase()}-failed`);
            throw new Error(`${c.type}: nothing drawn:\n${await page.textContent("body")}`);
          });
        if (c.says) {
          await expect
            .poll(() => page.locator(".ant-alert").allTextContents(), { timeout: 5_000 })
            .toEqual(expect.arrayContaining([expect.stringMatching(c.says)]));
        }
        // The error boundary's message means a renderer threw: broken options must not do that.
        expect(await page.textContent("body"), c.type).not.toContain("could not be drawn");
        expect(errors, c.type).toEqual([]);
        if (c === cases[0]) await screenshot(page, "viz-broken-chart");
        await context.close();
      }
    },
  );
});
