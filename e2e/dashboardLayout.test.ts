import { beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { DESKTOP, PHONE, screenshot } from "./browser";
import { useBrowserApp } from "./fixtures/browserApp";
import {
  addVisualizationWidget,
  createDashboard,
  type WidgetPosition,
} from "./fixtures/dashboards";
import { demoDataSourceId } from "./fixtures/demo";
import { createQueryWithVisualization } from "./fixtures/queries";
import { pollFor } from "./fixtures/poll";

const poll = pollFor(30_000);

/** Every visualization type over the Demo data, at Redash's default size for its type. */
const WIDGETS: {
  type: string;
  name: string;
  sql: string;
  options: Record<string, unknown>;
  position: WidgetPosition;
}[] = [
  {
    type: "COUNTER",
    name: "Orders",
    sql: "SELECT count(*) AS orders FROM orders",
    options: { counterColName: "orders", rowNumber: 1, counterLabel: "Orders placed" },
    position: { col: 0, row: 0, sizeX: 2, sizeY: 5 },
  },
  {
    type: "CHART",
    name: "Orders by status",
    sql: "SELECT status, count(*) AS orders FROM orders GROUP BY 1 ORDER BY 2 DESC",
    options: { globalSeriesType: "column", columnMapping: { status: "x", orders: "y" } },
    position: { col: 2, row: 0, sizeX: 4, sizeY: 8 },
  },
  {
    type: "DETAILS",
    name: "First customer",
    sql: "SELECT id, first_name, last_name, country, email FROM customers ORDER BY id LIMIT 3",
    options: {},
    position: { col: 0, row: 5, sizeX: 2, sizeY: 2, autoHeight: true },
  },
  {
    type: "TABLE",
    name: "Customers",
    sql: "SELECT id, first_name, country, signup_date FROM customers ORDER BY id LIMIT 8",
    options: {},
    position: { col: 0, row: 8, sizeX: 3, sizeY: 14, autoHeight: true },
  },
  {
    type: "PIVOT",
    name: "Items by category",
    sql: `SELECT p.category, o.status, count(*) AS items FROM order_items oi
      JOIN orders o ON o.id = oi.order_id JOIN products p ON p.id = oi.product_id GROUP BY 1, 2`,
    options: { rows: ["category"], cols: ["status"], vals: ["items"], controls: { enabled: true } },
    position: { col: 3, row: 8, sizeX: 3, sizeY: 10 },
  },
  {
    type: "FUNNEL",
    name: "Order funnel",
    sql: "SELECT status, count(*) AS orders FROM orders GROUP BY 1",
    options: {
      stepCol: { colName: "status", displayAs: "Status" },
      valueCol: { colName: "orders", displayAs: "Orders" },
      autoSort: true,
    },
    position: { col: 0, row: 22, sizeX: 3, sizeY: 10 },
  },
  {
    type: "CHOROPLETH",
    name: "Customers by country",
    sql: "SELECT country, count(*) AS customers FROM customers GROUP BY 1",
    options: { mapType: "countries", keyColumn: "country", targetField: "name" },
    position: { col: 3, row: 22, sizeX: 3, sizeY: 8 },
  },
  {
    type: "SANKEY",
    name: "Status by country",
    sql: `SELECT c.country AS stage1, o.status AS stage2, count(*) AS value FROM orders o
      JOIN customers c ON c.id = o.customer_id WHERE c.country IN ('Japan', 'France') GROUP BY 1, 2`,
    options: {},
    position: { col: 0, row: 32, sizeX: 3, sizeY: 7 },
  },
  {
    type: "SUNBURST_SEQUENCE",
    name: "Status rings",
    sql: `SELECT c.country AS a_country, o.status AS b_status, count(*) AS value FROM orders o
      JOIN customers c ON c.id = o.customer_id WHERE c.country IN ('Japan', 'India') GROUP BY 1, 2`,
    options: {},
    position: { col: 3, row: 32, sizeX: 3, sizeY: 7 },
  },
  {
    type: "WORD_CLOUD",
    name: "Product words",
    sql: "SELECT name FROM products",
    options: { column: "name" },
    position: { col: 0, row: 39, sizeX: 3, sizeY: 8 },
  },
  {
    type: "BOXPLOT",
    name: "Prices",
    sql: `SELECT max(CASE WHEN category = 'Books' THEN price END) AS books,
        max(CASE WHEN category = 'Toys' THEN price END) AS toys
      FROM (SELECT *, row_number() OVER (PARTITION BY category ORDER BY id) AS n FROM products)
      GROUP BY n`,
    options: { xAxisLabel: "Category", yAxisLabel: "Price" },
    position: { col: 3, row: 39, sizeX: 3, sizeY: 8 },
  },
];

/** Sizes and auto-height of dashboard widgets, with every visualization type on one dashboard. */
describe("dashboard layout in the browser", () => {
  const app = useBrowserApp();
  let dashboardId: number;
  const widgetIds = new Map<string, number>();

  beforeAll(async () => {
    const dataSourceId = await demoDataSourceId(app.api);
    dashboardId = (await createDashboard(app.api, "Every type")).id;
    for (const w of WIDGETS) {
      const saved = await createQueryWithVisualization(
        app.api,
        dataSourceId,
        { sql: w.sql, name: w.name },
        { type: w.type, options: w.options },
      );
      const widgetId = await addVisualizationWidget(app.api, dashboardId, saved.visualizationId, {
        isHidden: false,
        position: w.position,
        parameterMappings: {},
      });
      widgetIds.set(w.type, widgetId);
    }
  }, 180_000);

  const signedIn = app.openSignedIn;

  const cell = (page: Page, type: string) =>
    page.locator(`[data-widget-id="${widgetIds.get(type)}"]`);
  /** How far a cell's card content reaches past the cell (positive: cut off). */
  const overflow = (page: Page, type: string) =>
    cell(page, type).evaluate((el) => {
      const card = el.firstElementChild!;
      const parts = Array.from(card.children).reduce(
        (sum, part) => sum + part.getBoundingClientRect().height,
        0,
      );
      return Math.round(parts - el.getBoundingClientRect().height);
    });
  const storedPosition = async (type: string) => {
    const dashboard = await app.api.get<{
      widgets: { id: number; options: { position: WidgetPosition } }[];
    }>(`/api/dashboards/${dashboardId}`);
    return dashboard.body.widgets.find((w) => w.id === widgetIds.get(type))!.options.position;
  };

  it(
    "draws every type at its size; auto-height widgets fit their content on desktop and phone",
    { timeout: 180_000 },
    async () => {
      for (const viewport of [DESKTOP, PHONE]) {
        const { page, context } = await signedIn(viewport);
        const errors: string[] = [];
        page.on("pageerror", (e) => errors.push(e.message));
        await page.goto(`/dashboards/${dashboardId}`);
        const table = cell(page, "TABLE");
        await poll(() => table.locator("[role=row][data-index]").count()).toBe(8);
        await poll(() => cell(page, "DETAILS").getByTestId("details-visualization").count()).toBe(
          1,
        );
        // The table widget stored 14 rows high shrinks to its 8 rows: nothing cut, nothing to
        // scroll, no empty space of more than a grid row left under the pager.
        await poll(() => overflow(page, "TABLE")).toBeLessThanOrEqual(0);
        await poll(() => overflow(page, "TABLE")).toBeGreaterThan(-50);
        const scroll = table.getByTestId("table-scroll");
        expect(await scroll.evaluate((el) => el.scrollHeight - el.clientHeight)).toBe(0);
        // The details view (stored 2 rows) grows to show every field.
        await poll(() => overflow(page, "DETAILS")).toBeLessThanOrEqual(0);
        expect(await cell(page, "DETAILS").textContent()).toContain("email");
        // A chart keeps its stored height: 8 rows of 50 px less the last margin.
        if (viewport === DESKTOP)
          expect(Math.round((await cell(page, "CHART").boundingBox())!.height)).toBe(388);
        await poll(() => page.locator("[data-widget-type=visualization] canvas").count()).toBe(
          WIDGETS.length - 5, // counter, details, table, pivot and funnel draw no canvas
        );
        const text = await page.getByTestId("dashboard-grid").textContent();
        expect(text).not.toContain("Error running query");
        expect(text).toContain("Orders placed");
        const pageOverflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(pageOverflow).toBeLessThanOrEqual(0);
        await screenshot(
          page,
          `dashboard-every-type-${viewport === DESKTOP ? "desktop" : "phone"}`,
        );
        expect(errors).toEqual([]);
        await context.close();
      }
      // Looking never saves anything: the stored positions are as given.
      expect(await storedPosition("TABLE")).toEqual(WIDGETS[3]!.position);
    },
  );

  it(
    "resizing an auto-height widget's height turns auto-height off",
    { timeout: 90_000 },
    async () => {
      const { page, context } = await signedIn();
      await page.goto(`/dashboards/${dashboardId}?edit`);
      const table = cell(page, "TABLE");
      await poll(() => table.locator("[role=row][data-index]").count()).toBe(8);
      await poll(() => overflow(page, "TABLE")).toBeLessThanOrEqual(0);
      // Auto-height follows the drawn content a poll later: measure and grab the handle once the
      // widget's box has stopped changing.
      let last = "";
      await poll(async () => {
        const now = JSON.stringify(await table.boundingBox());
        const settled = now === last;
        last = now;
        return settled;
      }).toBe(true);
      const before = (await table.boundingBox())!.height;
      const handle = table.locator(".react-resizable-handle");
      await handle.scrollIntoViewIfNeeded();
      const box = (await handle.boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + 4, box.y + 60, { steps: 8 });
      await page.mouse.move(box.x + 4, box.y + 160, { steps: 8 });
      await page.mouse.up();
      await poll(async () => (await storedPosition("TABLE")).autoHeight).toBe(false);
      const stored = await storedPosition("TABLE");
      // The widget keeps the height it was given; the table scrolls no more, and the cell stays tall.
      await page.waitForTimeout(600); // a few auto-height polls: none may shrink it back
      expect((await table.boundingBox())!.height).toBeGreaterThan(before + 50);
      expect(stored.sizeY).toBeGreaterThan(5);
      await poll(() => page.getByTestId("save-status").textContent()).toBe("Saved");
      await context.close();
    },
  );

  it("shows the Demo dashboard whole on desktop and phone", { timeout: 120_000 }, async () => {
    const list = await app.api.get<{ results: { id: number; name: string }[] }>(
      "/api/dashboards?q=Demo",
    );
    const demo = list.body.results.find((d) => d.name.startsWith("Demo"))!;
    for (const viewport of [DESKTOP, PHONE]) {
      const { page, context } = await signedIn(viewport);
      await page.goto(`/dashboards/${demo.id}`);
      const widgets = page.locator("[data-widget-type=visualization]");
      await poll(() => widgets.count()).toBeGreaterThanOrEqual(4);
      await poll(() => widgets.locator("canvas").count()).toBe(3);
      await poll(() => page.getByTestId("counter-value").count()).toBe(1);
      // Every card's parts fit inside its cell (the text box included).
      const cut = await page.locator("[data-widget-id]").evaluateAll((cells) =>
        cells
          .map((cell) => {
            // The card, or a text box's scrolling text.
            const box =
              cell.querySelector("[data-widget-type=textbox] > div") ?? cell.firstElementChild!;
            return box.scrollHeight - box.clientHeight;
          })
          .filter((px) => px > 1),
      );
      expect(cut).toEqual([]);
      await screenshot(page, `dashboard-demo-${viewport === DESKTOP ? "desktop" : "phone"}`);
      await context.close();
    }
  });
});
