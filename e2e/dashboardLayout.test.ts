import { beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { DESKTOP, PHONE, screenshot } from "./browser";
import { useBrowserApp } from "./fixtures/browserApp";
import {
  createDashboard,
  dragResizeHandle,
  waitForBoxSettled,
  type WidgetPosition,
} from "./fixtures/dashboards";
import { addDemoWidgets, demoWidget, type DemoType } from "./fixtures/demoWidgets";
import { pollFor } from "./fixtures/poll";

const poll = pollFor(30_000);

/** Every visualization type over the Demo data, at Redash's default size for its type. */
const WIDGETS = [
  demoWidget("COUNTER", { col: 0, row: 0, sizeX: 2, sizeY: 5 }),
  demoWidget("CHART", { col: 2, row: 0, sizeX: 4, sizeY: 8 }),
  demoWidget("DETAILS", { col: 0, row: 5, sizeX: 2, sizeY: 2, autoHeight: true }),
  demoWidget("TABLE", { col: 0, row: 8, sizeX: 3, sizeY: 14, autoHeight: true }),
  demoWidget("PIVOT", { col: 3, row: 8, sizeX: 3, sizeY: 10 }),
  demoWidget("FUNNEL", { col: 0, row: 22, sizeX: 3, sizeY: 10 }),
  demoWidget("CHOROPLETH", { col: 3, row: 22, sizeX: 3, sizeY: 8 }),
  demoWidget("SANKEY", { col: 0, row: 32, sizeX: 3, sizeY: 7 }),
  demoWidget("SUNBURST_SEQUENCE", { col: 3, row: 32, sizeX: 3, sizeY: 7 }),
  demoWidget("WORD_CLOUD", { col: 0, row: 39, sizeX: 3, sizeY: 8 }),
  demoWidget("BOXPLOT", { col: 3, row: 39, sizeX: 3, sizeY: 8 }),
];

/** Sizes and auto-height of dashboard widgets, with every visualization type on one dashboard. */
describe("dashboard layout in the browser", () => {
  const app = useBrowserApp();
  let dashboardId: number;
  let widgetIds: Map<DemoType, number>;

  beforeAll(async () => {
    dashboardId = (await createDashboard(app.api, "Every type")).id;
    widgetIds = await addDemoWidgets(app.api, dashboardId, WIDGETS);
  }, 180_000);

  const signedIn = app.openSignedIn;

  const cell = (page: Page, type: DemoType) =>
    page.locator(`[data-widget-id="${widgetIds.get(type)}"]`);
  /** How far a cell's card content reaches past the cell (positive: cut off). */
  const overflow = (page: Page, type: DemoType) =>
    cell(page, type).evaluate((el) => {
      const card = el.firstElementChild!;
      const parts = Array.from(card.children).reduce(
        (sum, part) => sum + part.getBoundingClientRect().height,
        0,
      );
      return Math.round(parts - el.getBoundingClientRect().height);
    });
  const storedPosition = async (type: DemoType) => {
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
      // Auto-height follows the drawn content a poll later: measure once the box has settled.
      await waitForBoxSettled(table);
      const before = (await table.boundingBox())!.height;
      await dragResizeHandle(table, 160);
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
      await poll(() => widgets.count()).toBeGreaterThanOrEqual(6);
      await poll(() => widgets.locator("canvas").count()).toBe(4);
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
