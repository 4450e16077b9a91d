import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import type { BrowserContext, Page } from "playwright-core";
import { DESKTOP, PHONE, newPage, screenshot } from "./browser";
import { useBrowserApp } from "./fixtures/browserApp";
import { CITY_COORDS, demoDataSourceId } from "./fixtures/demo";
import { createQueryWithVisualization, embedPath } from "./fixtures/queries";

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

/** A text ECharts drew on the canvas: its string and its four corners in canvas pixels. */
interface DrawnText {
  text: string;
  corners: [number, number][];
  /** Shown: neither it nor a group above it is ignored (ECharts hides overlapping labels so). */
  visible: boolean;
  /** The bounding box of the element that carries it (a bar for a bar label), when it has one. */
  host?: { x: number; y: number; width: number; height: number };
}

/** Every text in the first ECharts instance's scene: axis labels, titles and data labels. */
async function readTexts(
  page: Page,
): Promise<{ width: number; height: number; texts: DrawnText[] }> {
  return page.evaluate(() => {
    type Box = { x: number; y: number; width: number; height: number };
    type El = {
      type?: string;
      ignore?: boolean;
      invisible?: boolean;
      isGroup?: boolean;
      style?: { text?: string; fontSize?: number | string };
      childrenRef?: () => El[];
      getTextContent?: () => El | undefined;
      getBoundingRect(): Box;
      getComputedTransform(): number[] | null;
    };
    const host = (
      window as unknown as {
        sightlineECharts: {
          getInstanceByDom(el: Element):
            | {
                getZr(): { storage: { getRoots(): El[] } };
                getWidth(): number;
                getHeight(): number;
              }
            | undefined;
        };
      }
    ).sightlineECharts;
    const dom = [...document.querySelectorAll("[_echarts_instance_]")][0];
    const chart = dom ? host.getInstanceByDom(dom) : undefined;
    if (!chart) throw new Error("no ECharts instance on the page");
    const corners = (el: El): [number, number][] => {
      const bounds = el.getBoundingRect();
      // A text's box is at least a line of its font high: without a CJK font installed (as on
      // the test machines) ECharts measures lines much lower than the glyphs drawn.
      const font = Number.parseFloat(String(el.style?.fontSize ?? 12)) || 12;
      const grow = el.type === "text" ? Math.max(0, font - bounds.height) : 0;
      const r = {
        x: bounds.x,
        y: bounds.y - grow / 2,
        width: bounds.width,
        height: bounds.height + grow,
      };
      const m = el.getComputedTransform() ?? [1, 0, 0, 1, 0, 0];
      const at = (x: number, y: number): [number, number] => [
        m[0]! * x + m[2]! * y + m[4]!,
        m[1]! * x + m[3]! * y + m[5]!,
      ];
      return [
        at(r.x, r.y),
        at(r.x + r.width, r.y),
        at(r.x + r.width, r.y + r.height),
        at(r.x, r.y + r.height),
      ];
    };
    const box = (el: El): Box => {
      const c = corners(el);
      const xs = c.map((p) => p[0]);
      const ys = c.map((p) => p[1]);
      const x = Math.min(...xs);
      const y = Math.min(...ys);
      return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
    };
    const texts: DrawnText[] = [];
    const visit = (el: El, hidden: boolean) => {
      const off = hidden || !!el.ignore || !!el.invisible;
      const label = el.getTextContent?.();
      if (label && typeof label.style?.text === "string" && label.style.text !== "")
        texts.push({
          text: label.style.text,
          corners: corners(label),
          visible: !off && !label.ignore && !label.invisible,
          host: box(el),
        });
      if (el.type === "text" && typeof el.style?.text === "string" && el.style.text !== "")
        texts.push({ text: el.style.text, corners: corners(el), visible: !off });
      if (el.isGroup) for (const child of el.childrenRef?.() ?? []) visit(child, off);
    };
    for (const root of chart.getZr().storage.getRoots()) visit(root, false);
    return { width: chart.getWidth(), height: chart.getHeight(), texts };
  });
}

/** Whether two drawn texts overlap by more than half a pixel (separating-axis test). */
function overlaps(a: DrawnText, b: DrawnText): boolean {
  for (const poly of [a.corners, b.corners]) {
    for (let i = 0; i < poly.length; i++) {
      const [x1, y1] = poly[i]!;
      const [x2, y2] = poly[(i + 1) % poly.length]!;
      const length = Math.hypot(x2 - x1, y2 - y1) || 1;
      const axis = [(y1 - y2) / length, (x2 - x1) / length];
      const project = (p: [number, number][]) => p.map(([x, y]) => x * axis[0]! + y * axis[1]!);
      const pa = project(a.corners);
      const pb = project(b.corners);
      if (Math.max(...pa) - 0.5 <= Math.min(...pb) || Math.max(...pb) - 0.5 <= Math.min(...pa))
        return false;
    }
  }
  return true;
}

/** The pairs of texts that overlap, as "a / b" for a readable failure. */
function overlapping(texts: DrawnText[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < texts.length; i++)
    for (let j = i + 1; j < texts.length; j++)
      if (overlaps(texts[i]!, texts[j]!)) out.push(`${texts[i]!.text} / ${texts[j]!.text}`);
  return out;
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
  const app = useBrowserApp();
  let demoId: number;

  beforeAll(async () => {
    demoId = await demoDataSourceId(app.api);
  }, 120_000);

  interface Embedded {
    page: Page;
    context: BrowserContext;
    queryId: number;
    visualizationId: number;
    /** Uncaught errors in the page: a visualization must never throw past its boundary. */
    errors: string[];
  }

  /**
   * Saves a query, runs it, adds the visualization and opens its embed page. `liveBuild`: the page
   * loads the server's own build rather than the file's snapshot of it; the snapshot routes every
   * request of its context, and so routed, images from the local tile server fail unsent.
   */
  async function embed(
    sql: string,
    type: string,
    name: string,
    options: Record<string, unknown>,
    { liveBuild = false } = {},
  ): Promise<Embedded> {
    // The API refuses unknown types; a row stored before that check (or imported) may hold one,
    // so such a type is written to the store directly, over a table.
    const known = type !== "NO_SUCH_TYPE";
    const saved = await createQueryWithVisualization(
      app.api,
      demoId,
      { sql, name },
      { type: known ? type : "TABLE", options },
    );
    const { queryId, visualizationId } = saved;
    if (!known) {
      await app.server.ctx.database.db
        .updateTable("visualizations")
        .set({ type })
        .where("id", "=", visualizationId)
        .execute();
    }
    const { page, context } = liveBuild
      ? await newPage(app.browser, app.server.url, DESKTOP)
      : await app.open(DESKTOP);
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    // As an embedding site would: no session, the query's own API key.
    await page.goto(embedPath(saved));
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

  it(
    "CHART heatmap, bubbles and error bars: each kind of series is drawn",
    { timeout: 90_000 },
    async () => {
      // Each needs its own part of ECharts (heatmap and visualMap, scatter, custom series).
      const heat = await embed(STATUS_BY_MONTH, "CHART", "Orders heat", {
        globalSeriesType: "heatmap",
        columnMapping: { month: "x", status: "y", orders: "zVal" },
      });
      const heatChart = await chartDrawn(heat.page);
      expect(heatChart.series.map((s) => s.type)).toEqual(["heatmap"]);
      expect(heatChart.series[0]!.points).toBeGreaterThan(20);
      const scale = await heat.page.evaluate(() => {
        const host = (
          window as unknown as {
            sightlineECharts: {
              getInstanceByDom(el: Element): { getOption(): { visualMap?: unknown[] } };
            };
          }
        ).sightlineECharts;
        const el = document.querySelector("[_echarts_instance_]")!;
        return host.getInstanceByDom(el).getOption().visualMap?.length ?? 0;
      });
      expect(scale).toBe(1);
      await screenshot(heat.page, "viz-chart-heatmap");
      expect(heat.errors).toEqual([]);
      await heat.context.close();

      const sql = `
        SELECT status, count(*) AS orders, count(*) / 10 AS spread, count(*) / 1000 AS size
        FROM orders GROUP BY 1 ORDER BY 1`;
      const bars = await embed(sql, "CHART", "Orders spread", {
        globalSeriesType: "column",
        columnMapping: { status: "x", orders: "y", spread: "yError" },
        series: { stacking: null, error_y: { type: "data", visible: true } },
      });
      const barChart = await chartDrawn(bars.page);
      expect(barChart.series.map((s) => s.type)).toEqual(["bar", "custom"]);
      await screenshot(bars.page, "viz-chart-error-bars");
      expect(bars.errors).toEqual([]);
      await bars.context.close();

      const bubbles = await embed(sql, "CHART", "Orders bubbles", {
        globalSeriesType: "bubble",
        columnMapping: { status: "x", orders: "y", size: "size" },
      });
      const bubbleChart = await chartDrawn(bubbles.page);
      expect(bubbleChart.series.map((s) => s.type)).toEqual(["scatter"]);
      expect(bubbles.errors).toEqual([]);
      await bubbles.context.close();
    },
  );

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

  it("CHART pie with thin slices: no label overprints another", { timeout: 60_000 }, async () => {
    // One large slice and many thin ones side by side, as a long tail draws them.
    const values = [2000, 40, 35, 30, 28, 25, 22, 20, 18, 15, 12, 10, 8, 6, 4, 2];
    const sql = `SELECT * FROM (VALUES ${values
      .map((v, i) => `('Item ${i + 1}', ${v})`)
      .join(", ")}) AS t(item, amount)`;
    const { page, context, errors } = await embed(sql, "CHART", "Long tail", {
      globalSeriesType: "pie",
      columnMapping: { item: "x", amount: "y" },
      legend: { enabled: true },
      showDataLabels: true,
    });
    const chart = await chartDrawn(page);
    expect(chart.series[0]!.names).toHaveLength(values.length);
    const { texts } = await readTexts(page);
    const labels = texts.filter((t) => t.visible && /%$/.test(t.text));
    // The large slice keeps its label; the thin ones that would overprint show none.
    expect(labels.length).toBeGreaterThan(0);
    expect(labels.length).toBeLessThan(values.length);
    expect(overlapping(labels)).toEqual([]);
    await screenshot(page, "viz-chart-pie-thin-slices");
    await page.setViewportSize(PHONE);
    await page.waitForTimeout(800);
    expect(
      overlapping((await readTexts(page)).texts.filter((t) => t.visible && /%$/.test(t.text))),
    ).toEqual([]);
    await screenshot(page, "viz-chart-pie-thin-slices-phone");
    expect(errors).toEqual([]);
    await context.close();
  });

  it(
    "CHART crowded category axis: every label drawn, rotated, inside the canvas",
    { timeout: 60_000 },
    async () => {
      // 40 products: their names do not fit side by side across the plot.
      const sql = "SELECT name, price FROM products ORDER BY id LIMIT 40";
      const { page, context, errors } = await embed(sql, "CHART", "Prices", {
        globalSeriesType: "column",
        columnMapping: { name: "x", price: "y" },
        sortX: false,
        xAxis: { type: "-", labels: { enabled: true }, title: { text: "Product" } },
        yAxis: [
          { type: "linear", title: { text: "Price" } },
          { type: "linear", opposite: true },
        ],
        legend: { enabled: true },
      });
      const chart = await chartDrawn(page);
      expect(chart.xCategories).toHaveLength(40);
      const { width, height, texts } = await readTexts(page);
      const labels = texts.filter((t) => t.visible && chart.xCategories.includes(t.text));
      // Each category has its own label (ECharts' automatic interval would skip some).
      expect(new Set(labels.map((l) => l.text)).size).toBe(40);
      // Rotated, so none overprints another, and none is cut off at the canvas edge.
      expect(labels.some((l) => Math.abs(l.corners[0]![1] - l.corners[1]![1]) > 5)).toBe(true);
      expect(overlapping(labels)).toEqual([]);
      const outside = labels.filter((l) =>
        l.corners.some(([x, y]) => x < 0 || y < 0 || x > width || y > height),
      );
      expect(outside.map((l) => l.text)).toEqual([]);
      // The axis title sits below the rotated labels, not on them.
      const title = texts.find((t) => t.text === "Product" && t.visible);
      expect(title).toBeDefined();
      expect(overlapping([title!, ...labels])).toEqual([]);
      await screenshot(page, "viz-chart-crowded-categories");
      await page.setViewportSize(PHONE);
      await page.waitForTimeout(800);
      await screenshot(page, "viz-chart-crowded-categories-phone");
      expect(errors).toEqual([]);
      await context.close();

      // Horizontal bars: the category axis is y; each category still has its label, and the
      // axis title stays clear of the long labels.
      const swapped = await embed(
        "SELECT name, price FROM products ORDER BY id LIMIT 30",
        "CHART",
        "Prices by product",
        {
          globalSeriesType: "column",
          swappedAxes: true,
          sortX: false,
          columnMapping: { name: "x", price: "y" },
          xAxis: { type: "category", labels: { enabled: true }, title: { text: "Product" } },
          legend: { enabled: false },
        },
      );
      const bars = await chartDrawn(swapped.page);
      const drawn = await readTexts(swapped.page);
      const names = (
        await swapped.page.evaluate(() => {
          const host = (
            window as unknown as {
              sightlineECharts: {
                getInstanceByDom(el: Element): {
                  getOption(): { yAxis: { data?: string[] }[] };
                };
              };
            }
          ).sightlineECharts;
          const el = document.querySelector("[_echarts_instance_]")!;
          return host.getInstanceByDom(el).getOption().yAxis[0]!.data ?? [];
        })
      ).map(String);
      expect(bars.series[0]!.type).toBe("bar");
      expect(names).toHaveLength(30);
      const productLabels = drawn.texts.filter((t) => t.visible && names.includes(t.text));
      expect(new Set(productLabels.map((l) => l.text)).size).toBe(names.length);
      expect(overlapping(productLabels)).toEqual([]);
      const productTitle = drawn.texts.find((t) => t.text === "Product" && t.visible);
      expect(productTitle).toBeDefined();
      expect(overlapping([productTitle!, ...productLabels])).toEqual([]);
      await screenshot(swapped.page, "viz-chart-horizontal-categories");
      expect(swapped.errors).toEqual([]);
      await swapped.context.close();
    },
  );

  it(
    "CHART stacked bars with data labels: no label overprints another",
    { timeout: 60_000 },
    async () => {
      const { page, context, errors } = await embed(STATUS_BY_MONTH, "CHART", "Orders stacked", {
        globalSeriesType: "column",
        columnMapping: { month: "x", status: "series", orders: "y" },
        series: { stacking: "stack" },
        showDataLabels: true,
        legend: { enabled: true },
      });
      const chart = await chartDrawn(page);
      expect(chart.series).toHaveLength(5);
      await screenshot(page, "viz-chart-stacked-labels");
      const { texts } = await readTexts(page);
      const labels = texts.filter((t) => t.host && /^[\d,.]+$/.test(t.text));
      const shown = labels.filter((t) => t.visible);
      expect(overlapping(shown)).toEqual([]);
      // A segment its label fits in keeps the label. A quarter pixel each side at most, so two
      // neighbours that both fit overlap by no more than the half pixel overlapping() allows.
      const fits = (t: DrawnText) =>
        t.corners.every(
          ([x, y]) =>
            x >= t.host!.x - 0.25 &&
            x <= t.host!.x + t.host!.width + 0.25 &&
            y >= t.host!.y - 0.25 &&
            y <= t.host!.y + t.host!.height + 0.25,
        );
      const fitting = labels.filter(fits);
      expect(fitting.length).toBeGreaterThan(20);
      expect(fitting.filter((t) => !t.visible).map((t) => t.text)).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    },
  );

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

  it(
    "TABLE: itemsPerPage rows a page, with a pager that follows sorting and search",
    { timeout: 60_000 },
    async () => {
      const sql = "SELECT id, first_name, country FROM customers ORDER BY id LIMIT 200";
      const { page, context, errors } = await embed(sql, "TABLE", "Customers paged", {
        itemsPerPage: 10,
        columns: [
          { name: "id", title: "Customer", displayAs: "number", numberFormat: "0" },
          { name: "first_name", allowSearch: true },
        ],
      });
      const table = page.locator("[data-testid=table-visualization]");
      await table.locator("[role=cell]").first().waitFor();
      const ids = () =>
        table
          .locator("[role=row][data-index] [role=cell]:first-child")
          .allTextContents()
          .then((t) => t.map((s) => s.trim()));
      const range = (from: number, to: number, step = 1) =>
        Array.from({ length: Math.abs(to - from) / step + 1 }, (_, i) =>
          String(from + (to > from ? i : -i) * step),
        );
      // Page 1 of 20: the first 10 rows, and only they are in the document.
      expect(await ids()).toEqual(range(1, 10));
      const pager = table.locator(".ant-pagination");
      expect(await pager.locator(".ant-pagination-item").last().textContent()).toBe("20");
      expect(await pager.locator(".ant-pagination-item-active").textContent()).toBe("1");
      // No page-size changer (Redash has none).
      expect(await pager.locator(".ant-pagination-options").count()).toBe(0);
      await screenshot(page, "viz-table-paged");
      await page.setViewportSize(PHONE);
      await screenshot(page, "viz-table-paged-phone");
      await page.setViewportSize(DESKTOP);
      await pager.locator(".ant-pagination-next").click();
      await expect.poll(ids).toEqual(range(11, 20));
      await pager.locator(".ant-pagination-item[title='20']").click();
      await expect.poll(ids).toEqual(range(191, 200));
      // Sorting (ascending, then descending) starts again at the first page of the sorted rows.
      await table.locator("[role=columnheader]", { hasText: "Customer" }).click();
      await expect.poll(ids).toEqual(range(1, 10));
      await table.locator("[role=columnheader]", { hasText: "Customer" }).click();
      await expect.poll(ids).toEqual(range(200, 191));
      expect(await pager.locator(".ant-pagination-item-active").textContent()).toBe("1");
      // Search pages its matches; a single page has no pager.
      await pager.locator(".ant-pagination-next").click();
      await expect.poll(ids).toEqual(range(190, 181));
      await table.locator("input").fill("a");
      await expect.poll(async () => (await ids()).length).toBe(10);
      expect(await pager.locator(".ant-pagination-item-active").textContent()).toBe("1");
      await table.locator("input").fill("Grace");
      await expect
        .poll(() =>
          table
            .locator("[role=row][data-index] [role=cell]:nth-child(2)")
            .allTextContents()
            .then((t) => [...new Set(t)]),
        )
        .toEqual(["Grace"]);
      expect(await table.locator(".ant-pagination").count()).toBe(0);
      expect(errors).toEqual([]);
      await context.close();

      // 100,000 rows: 25 a page by default, and only that page is drawn.
      const big = await embed(
        "SELECT range AS i, range % 7 AS k FROM range(100000)",
        "TABLE",
        "Big table",
        {},
      );
      const bigTable = big.page.locator("[data-testid=table-visualization]");
      await bigTable.locator("[role=cell]").first().waitFor();
      expect(await bigTable.locator("[role=row][data-index]").count()).toBe(25);
      const bigPager = bigTable.locator(".ant-pagination");
      expect(await bigPager.locator(".ant-pagination-item").last().textContent()).toBe("4000");
      const started = Date.now();
      await bigPager.locator(".ant-pagination-item[title='4000']").click();
      await expect
        .poll(() =>
          bigTable.locator("[role=row][data-index] [role=cell]:first-child").allTextContents(),
        )
        .toEqual(range(99975, 99999).map((n) => Number(n).toLocaleString("en-US")));
      expect(Date.now() - started).toBeLessThan(3000);
      expect(await bigTable.locator("[role=row][data-index]").count()).toBe(25);
      expect(big.errors).toEqual([]);
      await big.context.close();
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

  it("PIVOT: dates sort by date, not by their DD/MM/YY text; whole sums show no decimals", async () => {
    // As text "03/02/24" < "10/03/24" < "15/01/24"; by date January comes first. An organisation
    // may choose DD/MM/YY (the default, YYYY-MM-DD, sorts the same as text and as dates).
    await app.api.post("/api/settings/organization", { date_format: "DD/MM/YY" });
    const sql = `SELECT DATE '2024-03-10' AS day, 2 AS n
      UNION ALL SELECT DATE '2024-01-15', 5
      UNION ALL SELECT DATE '2024-02-03', 7
      UNION ALL SELECT DATE '2024-01-15', 1`;
    const { page, context, errors } = await embed(sql, "PIVOT", "Items per day", {
      rows: ["day"],
      cols: [],
      vals: ["n"],
      aggregatorName: "Sum",
      controls: { enabled: true },
    });
    const table = page.locator("[data-testid=pivot-table]");
    await table.waitFor();
    const rowHeads = await table.locator("tbody tr th").allTextContents();
    expect(rowHeads.slice(0, 3)).toEqual(["15/01/24", "03/02/24", "10/03/24"]);
    const sums = await table.locator("tbody td").allTextContents();
    expect(sums.slice(0, 3)).toEqual(["6", "7", "2"]);
    expect(sums.join(" ")).not.toContain(".00");
    await screenshot(page, "viz-pivot-dates");
    await app.api.post("/api/settings/organization", { date_format: "YYYY-MM-DD" });
    expect(errors).toEqual([]);
    await context.close();
  });

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
    // The Demo data names the US as the countries map does.
    expect(chart.legend).toEqual(
      expect.arrayContaining(["Japan", "Germany", "United States of America"]),
    );
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
      const tiled = await embed(CITY_COORDS, "MAP", "Europe with tiles", options, {
        liveBuild: true,
      });
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
      // The tile colour is on screen, at the left of the map below the zoom buttons, away from the
      // markers. (Tiles come from another origin, so the canvas cannot be read back: the
      // screenshot is.)
      const box = (await tiled.page.locator("[_echarts_instance_]").boundingBox())!;
      const pixel = pngPixel(
        await tiled.page.screenshot({
          clip: { x: box.x + 30, y: box.y + 160, width: 1, height: 1 },
        }),
      );
      expect(pixel).toEqual([170, 211, 223]);
      expect(tiled.errors).toEqual([]);
      await tiled.context.close();
      await new Promise((r) => tileServer.close(r));

      // The same map with the tile server gone: the markers and the bundled outline still draw.
      const bare = await embed(CITY_COORDS, "MAP", "Europe without tiles", options, {
        liveBuild: true,
      });
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
