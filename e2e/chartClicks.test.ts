// Charts as a newcomer tried them (issue 25): a new chart keeps the query's ORDER BY until Sort
// Values is turned on, draws no legend for its one series and writes a DECIMAL with its two
// decimals; on a dashboard a double click on a bar selects it once, a category's label selects
// too, a bar that drills down says so, and a chart that both drills down and filters offers both
// in a menu at the click.
import { beforeAll, describe, expect, it } from "vitest";
import type { Locator, Page } from "playwright-core";
import { PHONE, animationsSettled, screenshot } from "./browser";
import { useBrowserApp } from "./fixtures/browserApp";
import { chartPixel, clickBar, drawnChart } from "./fixtures/charts";
import {
  addVisualizationWidget,
  createDashboard,
  waitForWidgetsDrawn,
} from "./fixtures/dashboards";
import { demoDataSourceId } from "./fixtures/demo";
import { pollFor } from "./fixtures/poll";
import { createQuery, createVisualization, runQueryToEnd } from "./fixtures/queries";

const poll = pollFor(30_000);

// Ordered by revenue, which is not the names' order; revenue is a DECIMAL(10, 2).
const REVENUE = `SELECT category, CAST(revenue AS DECIMAL(10, 2)) AS revenue
  FROM (VALUES ('Toys', 12.5), ('Books', 1234.5), ('Garden', 3.25)) AS t(category, revenue)
  ORDER BY revenue DESC`;

const SALES =
  "SELECT * FROM (VALUES ('FR', 10), ('DE', 20), ('IT', 5)) AS t(country, sales) ORDER BY sales DESC";

/** The ECharts option of the chart inside `scope`: its legend and its category axis' data. */
async function drawnOption(scope: Locator) {
  return scope.locator("[_echarts_instance_]").evaluate((el) => {
    const host = (
      window as unknown as {
        sightlineECharts: {
          getInstanceByDom(el: Element): { getOption(): Record<string, unknown> };
        };
      }
    ).sightlineECharts;
    const option = host.getInstanceByDom(el).getOption() as {
      legend?: { show?: boolean }[];
      xAxis?: { data?: string[] }[];
    };
    return {
      legendShown: option.legend?.[0]?.show !== false,
      categories: option.xAxis?.[0]?.data ?? [],
    };
  });
}

/** Moves the mouse over the first series' bar of a category, as a user pointing at it. */
async function hoverBar(scope: Locator, page: Page, category: string, value: number) {
  const chart = scope.locator("[_echarts_instance_]");
  const point = await chartPixel(scope, [category, value / 2]);
  const box = await chart.boundingBox();
  if (!point || !box) throw new Error(`no bar for ${category}`);
  await page.mouse.move(box.x + point[0]!, box.y + point[1]!);
}

/** The middle of the text ECharts drew for a category's label, in the page's pixels. */
async function categoryLabelAt(scope: Locator, category: string): Promise<[number, number]> {
  return scope.locator("[_echarts_instance_]").evaluate((el, text) => {
    type El = {
      type?: string;
      isGroup?: boolean;
      style?: { text?: string };
      childrenRef(): El[];
      getBoundingRect(): { x: number; y: number; width: number; height: number };
      getComputedTransform(): number[] | null;
    };
    const host = (
      window as unknown as {
        sightlineECharts: {
          getInstanceByDom(el: Element): { getZr(): { storage: { getRoots(): El[] } } };
        };
      }
    ).sightlineECharts;
    let found: [number, number] | null = null;
    const visit = (e: El) => {
      if (!found && e.type === "text" && e.style?.text === text) {
        const r = e.getBoundingRect();
        const m = e.getComputedTransform() ?? [1, 0, 0, 1, 0, 0];
        const [x, y] = [r.x + r.width / 2, r.y + r.height / 2];
        found = [m[0]! * x + m[2]! * y + m[4]!, m[1]! * x + m[3]! * y + m[5]!];
      }
      if (e.isGroup) for (const child of e.childrenRef()) visit(child);
    };
    for (const root of host.getInstanceByDom(el).getZr().storage.getRoots()) visit(root);
    if (!found) throw new Error(`no label ${text}`);
    const box = el.getBoundingClientRect();
    const [x, y] = found as [number, number];
    return [box.left + x, box.top + y] as [number, number];
  }, category);
}

describe("charts as a newcomer uses them", () => {
  const app = useBrowserApp();
  let dataSourceId: number;
  let dashboard: { id: number; slug: string };
  let target: { id: number; slug: string };
  let filterWidget: number;
  let bothWidget: number;
  let drillWidget: number;

  beforeAll(async () => {
    const { api } = app;
    dataSourceId = await demoDataSourceId(api);
    target = await createDashboard(api, "Country detail", { published: true });
    dashboard = await createDashboard(api, "Sales clicks", { published: true });
    const sales = await createQuery(api, {
      name: "Sales by country",
      sql: SALES,
      dataSourceId,
      published: true,
    });
    const chart = async (name: string) =>
      createVisualization(api, sales.id, {
        name,
        type: "CHART",
        options: { globalSeriesType: "column", columnMapping: { country: "x", sales: "y" } },
      });
    const link = {
      target: { type: "dashboard", id: target.id, slug: target.slug, name: "Country detail" },
      parameters: {},
      newTab: false,
    };
    const at = (col: number, row: number) => ({ col, row, sizeX: 3, sizeY: 8 });
    filterWidget = await addVisualizationWidget(api, dashboard.id, await chart("Filters"), {
      isHidden: false,
      position: at(0, 0),
    });
    bothWidget = await addVisualizationWidget(api, dashboard.id, await chart("Both"), {
      isHidden: false,
      position: at(3, 0),
      drillDown: link,
    });
    // Cross-filtering off for this widget: a click only drills down.
    drillWidget = await addVisualizationWidget(api, dashboard.id, await chart("Drill"), {
      isHidden: false,
      position: at(0, 8),
      drillDown: link,
      crossFilter: { enabled: false },
    });
  }, 180_000);

  const widget = (page: Page, id: number): Locator => page.locator(`[data-widget-id="${id}"]`);
  const filters = (page: Page) => page.getByTestId("cross-filter-tag").allTextContents();

  async function openDashboard(page: Page) {
    await page.goto(`/dashboards/${dashboard.id}-${dashboard.slug}`);
    await waitForWidgetsDrawn(page, 3);
    // Stored without sortX: sorted, as Redash draws them.
    await poll(async () => (await drawnChart(widget(page, filterWidget))).categories).toEqual([
      "DE",
      "FR",
      "IT",
    ]);
  }

  it(
    "a new chart keeps the query's order, has no legend for one series and writes DECIMALs with two decimals",
    { timeout: 180_000 },
    async () => {
      const query = await createQuery(app.api, {
        name: "Revenue by category",
        sql: REVENUE,
        dataSourceId,
      });
      await runQueryToEnd(app.api, query.id);
      const { page, context } = await app.openSignedIn();
      await page.goto(`/queries/${query.id}/source`);
      await poll(() => page.textContent("[data-testid=result-rows]")).toContain("3 Rows");
      await page.click("button:has-text('Add Visualization')");
      await page.waitForSelector("[data-testid=save-visualization]");
      await animationsSettled(page);
      const dialog = page.locator(".ant-modal");
      await poll(async () => (await drawnOption(dialog)).categories).toEqual([
        "Books",
        "Toys",
        "Garden",
      ]);
      expect((await drawnOption(dialog)).legendShown).toBe(false);
      await hoverBar(dialog, page, "Books", 1234.5);
      await poll(() => dialog.locator("[_echarts_instance_]").textContent()).toContain(
        "revenue: 1,234.50",
      );
      expect(await dialog.locator("[_echarts_instance_]").textContent()).not.toContain(
        "1,234.50000",
      );
      await screenshot(page, "chart-new-keeps-order-desktop", { fullPage: false });

      // The X Axis tab's Sort Values switch is off; turned on, the categories sort.
      await dialog.getByRole("tab", { name: "X Axis" }).click();
      const sortSwitch = dialog.locator("div", { hasText: /^Sort Values$/ }).getByRole("switch");
      expect(await sortSwitch.getAttribute("aria-checked")).toBe("false");
      await sortSwitch.click();
      await poll(async () => (await drawnOption(dialog)).categories).toEqual([
        "Books",
        "Garden",
        "Toys",
      ]);
      await sortSwitch.click();
      await poll(async () => (await drawnOption(dialog)).categories).toEqual([
        "Books",
        "Toys",
        "Garden",
      ]);
      await page.click("[data-testid=save-visualization]");
      await poll(() => page.locator(".ant-tabs-tab").allTextContents()).toEqual(["Table", "Chart"]);
      const saved = await app.api.get<{
        visualizations: { type: string; options: Record<string, unknown> }[];
      }>(`/api/queries/${query.id}`);
      const options = saved.body.visualizations.find((v) => v.type === "CHART")!.options;
      expect(options.sortX).toBe(false);
      expect(options.legend).toMatchObject({ enabled: true, hideWhenOneSeries: true });
      // The saved chart on the query page keeps the order too.
      await poll(async () => (await drawnOption(page.locator("body"))).categories).toEqual([
        "Books",
        "Toys",
        "Garden",
      ]);
      await context.close();
    },
  );

  it(
    "a double click on a bar selects it once; a category's label selects it too",
    { timeout: 180_000 },
    async () => {
      const { page, context } = await app.openSignedIn();
      await openDashboard(page);
      const chart = widget(page, filterWidget);
      const point = await chartPixel(chart, ["FR", 5]);
      await chart.locator("[_echarts_instance_]").dblclick({
        position: { x: point![0]!, y: point![1]! },
      });
      await poll(() => filters(page)).toEqual(["country: FR"]);
      // Still selected a moment later (a second toggle would have removed it).
      await page.waitForTimeout(500);
      expect(await filters(page)).toEqual(["country: FR"]);
      expect(new URL(page.url()).searchParams.get("cf")).toContain('"FR"');

      // The label under a bar selects its category.
      const [x, y] = await categoryLabelAt(chart, "IT");
      await page.mouse.click(x, y);
      await poll(() => filters(page)).toEqual(["country: IT"]);
      await screenshot(page, "chart-label-selects-desktop");
      await context.close();
    },
  );

  it(
    "a bar that drills down says so, and one that also filters offers both in a menu",
    { timeout: 180_000 },
    async () => {
      const { page, context } = await app.openSignedIn();
      await openDashboard(page);

      // Drill-down only: the tooltip says where a click leads, and a click goes there.
      const drill = widget(page, drillWidget);
      await drill.scrollIntoViewIfNeeded();
      await hoverBar(drill, page, "DE", 20);
      await poll(() =>
        drill.getByText("Click to open Country detail", { exact: true }).count(),
      ).toBe(1);

      // Both: the tooltip names both, and a click opens a menu of the two.
      const both = widget(page, bothWidget);
      await both.scrollIntoViewIfNeeded();
      await hoverBar(both, page, "DE", 20);
      await poll(() =>
        both
          .getByText("Click to open Country detail or filter the dashboard", { exact: true })
          .count(),
      ).toBe(1);
      await screenshot(page, "chart-click-hint-desktop", { fullPage: false });
      await clickBar(both, "DE", 20);
      const menu = page.locator("[data-datum-actions]").getByRole("menuitem");
      await poll(() => menu.allTextContents()).toEqual([
        "Open Country detail",
        "Filter by country: DE",
      ]);
      // The value's tooltip gives way to the menu.
      await poll(() =>
        both
          .getByText("Click to open Country detail or filter the dashboard", { exact: true })
          .isVisible(),
      ).toBe(false);
      await screenshot(page, "chart-click-menu-desktop", { fullPage: false });
      await page.getByRole("menuitem", { name: "Filter by country: DE" }).click();
      await poll(() => filters(page)).toEqual(["country: DE"]);
      expect(new URL(page.url()).pathname).toBe(`/dashboards/${dashboard.id}-${dashboard.slug}`);
      await poll(() => menu.count()).toBe(0);

      // Escape closes the menu and leaves the filter be.
      await clickBar(both, "FR", 10);
      await poll(() => menu.count()).toBe(2);
      await page.keyboard.press("Escape");
      await poll(() => menu.count()).toBe(0);
      expect(await filters(page)).toEqual(["country: DE"]);

      await clickBar(both, "IT", 5);
      await page.getByRole("menuitem", { name: "Open Country detail" }).click();
      await page.waitForURL((url) => url.pathname.startsWith(`/dashboards/${target.id}`));
      await context.close();
    },
  );

  it("the menu fits a phone and is used by touch", { timeout: 180_000 }, async () => {
    const { page, context } = await app.openSignedIn(PHONE);
    await openDashboard(page);
    const both = widget(page, bothWidget);
    await both.scrollIntoViewIfNeeded();
    await clickBar(both, "FR", 10);
    const item = page.getByRole("menuitem", { name: "Filter by country: FR" });
    await poll(() => item.count()).toBe(1);
    const box = (await item.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, "chart-click-menu-phone", { fullPage: false });
    await item.click();
    await poll(() => filters(page)).toEqual(["country: FR"]);
    await context.close();
  });
});
