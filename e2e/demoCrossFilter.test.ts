// Cross-filtering on the Demo dashboard, as a newcomer meets it (issue 25): the text box and the
// help say that charts can be clicked; a click on a country's bar visibly filters the status pie
// and the latest orders; the filter bar stays in view however far down the click was; each
// widget says which filters reach it (on the public page too); a city in the latest orders
// drills down to that city's orders. The Demo data moves with the clock: only facts that hold
// whatever the day are checked (Italy's rows are Italy's, Milan and Rome are its cities...).
import { beforeAll, describe, expect, it } from "vitest";
import type { Locator, Page } from "playwright-core";
import { BOTH_VIEWPORTS, animationsSettled, screenshot } from "./browser";
import { useBrowserApp, type Viewport } from "./fixtures/browserApp";
import { clickBar, drawnChart } from "./fixtures/charts";
import { waitForWidgetsDrawn } from "./fixtures/dashboards";
import { demoDashboardId, demoDataSourceId } from "./fixtures/demo";
import { pollFor } from "./fixtures/poll";

const poll = pollFor(30_000);

/** The top bar's height: the filter bar sticks right under it. */
const TOP_BAR = 56;

interface DemoWidget {
  id: number;
  visualization?: { query: { id: number; name: string } };
}

describe("Cross-filtering on the Demo dashboard", () => {
  const app = useBrowserApp();
  let dashboardId: number;
  /** Widget ids by the query's name without its "Demo: " prefix. */
  const ids = new Map<string, number>();
  let visualizationWidgets = 0;

  beforeAll(async () => {
    await demoDataSourceId(app.api);
    dashboardId = await demoDashboardId(app.api);
    const board = await app.api.get<{ widgets: DemoWidget[] }>(`/api/dashboards/${dashboardId}`);
    for (const w of board.body.widgets)
      if (w.visualization) ids.set(w.visualization.query.name.replace(/^Demo: /, ""), w.id);
    visualizationWidgets = ids.size;
  }, 120_000);

  const widget = (page: Page, name: string): Locator =>
    page.locator(`[data-widget-id="${ids.get(name)}"]`);
  const tags = (page: Page) => page.getByTestId("cross-filter-tag").allTextContents();
  const mark = (page: Page, name: string) =>
    widget(page, name).getByTestId("widget-filter-mark").textContent();

  /** A table widget's cells in one column (by its header's text), top to bottom. */
  async function column(scope: Locator, header: string): Promise<string[]> {
    return scope.evaluate((root, title) => {
      const headers = [...root.querySelectorAll("[role=columnheader]")].map((h) =>
        (h.textContent ?? "").trim(),
      );
      const at = headers.indexOf(title);
      return [...root.querySelectorAll("[role=row]")]
        .map((row) => row.querySelectorAll("[role=cell]"))
        .filter((cells) => cells.length > 0)
        .map((cells) => (cells[at]?.textContent ?? "").trim());
    }, header);
  }

  /** A bar's height from its ECharts data item: a number, [x, y], or { value }. */
  function barHeight(item: unknown): number {
    if (typeof item === "number") return item;
    if (Array.isArray(item)) return Number(item[item.length - 1]);
    if (item && typeof item === "object" && "value" in item) return barHeight(item.value);
    throw new Error(`no height in ${JSON.stringify(item)}`);
  }

  /** Clicks the bar of a category, halfway up, as drawn now. */
  async function clickCountry(page: Page, country: string) {
    const scope = widget(page, "Orders by country");
    const chart = await drawnChart(scope);
    const at = chart.categories.indexOf(country);
    expect(at, `no ${country} bar in ${chart.categories.join(", ")}`).toBeGreaterThanOrEqual(0);
    await clickBar(scope, country, barHeight(chart.series[0]!.data[at]));
  }

  /** Clicks a pie's slice in its middle, where ECharts laid it out. */
  async function clickSlice(scope: Locator, name: string) {
    const chart = scope.locator("[_echarts_instance_]");
    await chart.scrollIntoViewIfNeeded();
    const point = await chart.evaluate((el, slice) => {
      const echarts = (
        window as unknown as {
          sightlineECharts: {
            getInstanceByDom(el: Element): {
              getOption(): { series: { data: { name: string }[] }[] };
              getModel(): {
                getSeriesByIndex(i: number): {
                  getData(): {
                    getItemLayout(i: number): {
                      cx: number;
                      cy: number;
                      r: number;
                      r0: number;
                      startAngle: number;
                      endAngle: number;
                    };
                  };
                };
              };
            };
          };
        }
      ).sightlineECharts;
      const instance = echarts.getInstanceByDom(el);
      const index = instance.getOption().series[0]!.data.findIndex((d) => d.name === slice);
      if (index < 0) return null;
      const layout = instance.getModel().getSeriesByIndex(0).getData().getItemLayout(index);
      const angle = (layout.startAngle + layout.endAngle) / 2;
      const radius = (layout.r + layout.r0) / 2 || layout.r / 2;
      return [layout.cx + radius * Math.cos(angle), layout.cy + radius * Math.sin(angle)];
    }, name);
    if (!point) throw new Error(`no ${name} slice`);
    await chart.click({ position: { x: point[0]!, y: point[1]! } });
  }

  async function openDemo(viewport: Viewport, path = `/dashboards/${dashboardId}`) {
    const session = await app.openSignedIn(viewport);
    await session.page.goto(path);
    await waitForWidgetsDrawn(session.page, visualizationWidgets);
    return session;
  }

  for (const { name: size, viewport } of BOTH_VIEWPORTS) {
    it(
      `a click on a country filters the pie and the latest orders, the bar stays in view and each widget says what reaches it (${size})`,
      { timeout: 240_000 },
      async () => {
        const { page, context } = await openDemo(viewport);
        const text = page.locator("[data-widget-type=textbox]");
        expect(await text.textContent()).toContain("Charts and tables can be clicked.");
        // Nothing is set: no marks, the bar scrolls with the page.
        expect(await page.getByTestId("widget-filter-mark").count()).toBe(0);
        expect(await page.getByTestId("dashboard-filter-bar").getAttribute("data-sticky")).toBe(
          "false",
        );

        await clickCountry(page, "Italy");
        await poll(() => tags(page)).toEqual(["country: Italy"]);

        // The latest orders keep Italy's, from its two cities.
        const latest = widget(page, "Latest orders");
        await poll(async () => [...new Set(await column(latest, "country"))]).toEqual(["Italy"]);
        for (const city of await column(latest, "city")) expect(["Milan", "Rome"]).toContain(city);

        // Each widget says whether the filter reaches it.
        await poll(() => mark(page, "Orders by status")).toBe("Filtered by country");
        expect(await mark(page, "Latest orders")).toBe("Filtered by country");
        expect(await mark(page, "Orders by country")).toBe("Sets country filter");
        for (const other of ["Customers", "Orders per day", "Orders per month"])
          expect(await mark(page, other)).toBe("Not filtered");
        expect(
          await widget(page, "Orders per month")
            .getByTestId("widget-filter-mark")
            .getAttribute("aria-label"),
        ).toBe("Not filtered by country: no country column");

        // Far down the page, the filter is still in view, right under the top bar.
        await widget(page, "Orders per month").scrollIntoViewIfNeeded();
        const bar = page.getByTestId("dashboard-filter-bar");
        expect(await bar.getAttribute("data-sticky")).toBe("true");
        await poll(async () => Math.round((await bar.boundingBox())!.y)).toBe(TOP_BAR);
        await animationsSettled(page);
        await screenshot(page, `demo-cross-filter-sticky-${size}`, { fullPage: false });

        // A status slice adds a second filter: the pie highlights it (and still counts Italy's
        // orders only); the table and the pie say which filters reach them.
        await clickSlice(widget(page, "Orders by status"), "cancelled");
        await poll(() => tags(page)).toEqual(["country: Italy", "status: cancelled"]);
        await poll(() => mark(page, "Latest orders")).toBe("Filtered by country, status");
        expect(await mark(page, "Orders by status")).toBe("Filtered by country");
        expect(await mark(page, "Orders by country")).toBe("Not filtered");
        const rows = await column(latest, "status");
        const empty = await latest.getByTestId("cross-filter-empty").count();
        if (empty === 0) expect([...new Set(rows)]).toEqual(["cancelled"]);
        // The chips stand apart.
        const [first, second] = await page.getByTestId("cross-filter-tag").all();
        const a = (await first!.boundingBox())!;
        const b = (await second!.boundingBox())!;
        expect(b.y > a.y + a.height - 1 || b.x - (a.x + a.width) >= 6).toBe(true);
        await widget(page, "Orders by country").scrollIntoViewIfNeeded();
        await animationsSettled(page);
        await screenshot(page, `demo-cross-filter-two-${size}`, { fullPage: false });

        // Clear all: no marks, the bar scrolls with the page again.
        await page.getByTestId("cross-filters-clear").click();
        await poll(() => page.getByTestId("widget-filter-mark").count()).toBe(0);
        expect(await bar.getAttribute("data-sticky")).toBe("false");
        await context.close();
      },
    );
  }

  it("marks the widgets on the public page too", { timeout: 240_000 }, async () => {
    const share = await app.api.post<{ public_url: string }>(
      `/api/dashboards/${dashboardId}/share`,
    );
    expect(share.status, share.text).toBe(200);
    const url = new URL(share.body.public_url);
    for (const { name: size, viewport } of BOTH_VIEWPORTS) {
      const visitor = await app.open(viewport);
      const { page } = visitor;
      await page.goto(`${url.pathname}${url.search}`);
      await waitForWidgetsDrawn(page, visualizationWidgets);
      await clickCountry(page, "Japan");
      await poll(() => tags(page)).toEqual(["country: Japan"]);
      await poll(() => mark(page, "Latest orders")).toBe("Filtered by country");
      expect(await mark(page, "Orders per day")).toBe("Not filtered");
      await widget(page, "Latest orders").scrollIntoViewIfNeeded();
      await poll(async () =>
        Math.round((await page.getByTestId("dashboard-filter-bar").boundingBox())!.y),
      ).toBe(0);
      await animationsSettled(page);
      await screenshot(page, `demo-cross-filter-public-${size}`, { fullPage: false });
      await visitor.context.close();
    }
    await app.api.delete(`/api/dashboards/${dashboardId}/share`);
  });

  it("a city in the latest orders opens that city's orders", { timeout: 240_000 }, async () => {
    const { page, context } = await openDemo({ width: 1280, height: 800 });
    const latest = widget(page, "Latest orders");
    const link = latest.locator("[role=cell] a").first();
    const city = ((await link.textContent()) ?? "").trim();
    await link.click();
    await page.waitForURL((u) => u.pathname.startsWith("/queries/"));
    expect(new URL(page.url()).searchParams.get("p_city")).toBe(city);
    await poll(() => page.getByTestId("query-name").textContent()).toContain("Orders from a city");
    // It runs for the city clicked: every order is from a customer there (the dropdown shows it).
    await poll(() => page.textContent("[data-testid=result-rows]"), 60_000).toContain("Rows");
    await screenshot(page, "demo-drill-down-city");
    await context.close();
  });

  it("the help says that dashboard charts can be clicked", async () => {
    const { page, context } = await app.openSignedIn();
    await page.getByTestId("top-bar").getByText("Help").click();
    const frame = page.frameLocator("iframe");
    await poll(() => frame.locator("#dashboards").textContent({ timeout: 5000 })).toBe(
      "Dashboards: clicking charts to filter",
    );
    expect(await frame.locator("body").textContent()).toContain(
      "Charts and tables on a dashboard can be clicked.",
    );
    await context.close();
  });
});
