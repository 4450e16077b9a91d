// Dashboard defects found while building cross-filtering (issues 16, 19). A dashboard's widgets
// keep their drawn results through a change of screen width (the grid becomes one column below
// 800 px), a switch into edit mode and back, and a full-page screenshot: none of these may run a
// widget's query again or bring back its spinner. The active cross-filters' tags sit in the one
// bar with the parameters (UI.md), and a table's clickable cells work from the keyboard.
import { beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { DESKTOP, PHONE, animationsSettled, screenshot } from "./browser";
import { useBrowserApp } from "./fixtures/browserApp";
import {
  addVisualizationWidget,
  createDashboard,
  waitForWidgetsDrawn,
} from "./fixtures/dashboards";
import { demoDataSourceId } from "./fixtures/demo";
import { pollFor } from "./fixtures/poll";
import { createQuery, createQueryWithVisualization } from "./fixtures/queries";

const poll = pollFor(30_000);

/** More widgets than the grid mounts in one frame (6), so later ones mount in later frames. */
const WIDGETS = 8;

/** Runs of widget queries the page asks for. */
function countRuns(page: Page): () => number {
  let runs = 0;
  page.on("request", (req) => {
    if (req.method() === "POST" && /\/api\/queries\/\d+\/results$/.test(req.url())) runs += 1;
  });
  return () => runs;
}

/**
 * Marks every widget card's element and from then on counts spinners appearing in widgets: a
 * remounted widget has an unmarked card, and shows a spinner while it loads and waits to draw.
 */
async function watchWidgets(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { spinnersSeen: number };
    w.spinnersSeen = 0;
    for (const card of document.querySelectorAll<HTMLElement>("[data-testid=widget]"))
      card.dataset.kept = "yes";
    new MutationObserver((records) => {
      for (const record of records)
        for (const node of record.addedNodes)
          if (
            node instanceof Element &&
            ((node.closest("[data-testid=widget]") && node.matches(".ant-spin-spinning")) ||
              node.querySelector("[data-testid=widget] .ant-spin-spinning"))
          )
            w.spinnersSeen += 1;
    }).observe(document.body, { childList: true, subtree: true });
  });
}

async function widgetsKept(page: Page) {
  return page.evaluate(() => ({
    /** Cards on the page, and those still the elements first drawn. */
    cards: document.querySelectorAll("[data-testid=widget]").length,
    kept: document.querySelectorAll("[data-testid=widget][data-kept=yes]").length,
    spinnersSeen: (window as unknown as { spinnersSeen: number }).spinnersSeen,
  }));
}

describe("Dashboard widgets across resizes and edit mode", () => {
  const app = useBrowserApp();
  let dashboardId: number;

  beforeAll(async () => {
    const dataSourceId = await demoDataSourceId(app.api);
    const board = await createDashboard(app.api, "Resize me");
    dashboardId = board.id;
    for (let i = 0; i < WIDGETS / 2; i++) {
      const saved = await createQueryWithVisualization(
        app.api,
        dataSourceId,
        {
          name: `Orders ${i}`,
          sql: `SELECT status, count(*) + ${i} AS orders FROM orders GROUP BY 1 ORDER BY 1`,
        },
        { type: "CHART", options: { columnMapping: { status: "x", orders: "y" } } },
      );
      // The chart and, beside it, the query's table.
      const query = await app.api.get<{ visualizations: { id: number; type: string }[] }>(
        `/api/queries/${saved.queryId}`,
      );
      const table = query.body.visualizations.find((v) => v.type === "TABLE")!;
      for (const [col, visualizationId] of [
        [0, saved.visualizationId],
        [3, table.id],
      ] as const) {
        await addVisualizationWidget(app.api, dashboardId, visualizationId, {
          position: { col, row: i * 8, sizeX: 3, sizeY: 8 },
        });
      }
    }
  }, 120_000);

  it(
    "keeps every widget drawn through resizes, edit mode and a full-page screenshot",
    { timeout: 120_000 },
    async () => {
      const { page, context } = await app.openSignedIn(DESKTOP);
      const runs = countRuns(page);
      await page.goto(`/dashboards/${dashboardId}`);
      await waitForWidgetsDrawn(page, WIDGETS);
      const loadRuns = runs();
      expect(loadRuns).toBeGreaterThan(0);
      await watchWidgets(page);

      // To a phone's width: one column, then back to the grid.
      await page.setViewportSize(PHONE);
      await poll(() =>
        page
          .locator("[data-widget-id]")
          .first()
          .evaluate((cell) => cell.clientWidth),
      ).toBeLessThan(400);
      await waitForWidgetsDrawn(page, WIDGETS);
      await animationsSettled(page);
      await screenshot(page, "dashboard-resize-phone");
      await page.setViewportSize(DESKTOP);
      await poll(() =>
        page
          .locator("[data-widget-id]")
          .first()
          .evaluate((cell) => cell.clientWidth),
      ).toBeLessThan(700);
      await waitForWidgetsDrawn(page, WIDGETS);

      // Into edit mode and out again.
      await page.getByTestId("dashboard-more").click();
      await page.getByRole("menuitem", { name: "Edit" }).click();
      await page.getByTestId("done-editing").waitFor();
      await waitForWidgetsDrawn(page, WIDGETS);
      await animationsSettled(page);
      await screenshot(page, "dashboard-resize-editing");
      await page.getByTestId("done-editing").click();
      await page.getByTestId("done-editing").waitFor({ state: "detached" });
      await waitForWidgetsDrawn(page, WIDGETS);

      expect({ ...(await widgetsKept(page)), runs: runs() }).toEqual({
        cards: WIDGETS,
        kept: WIDGETS,
        spinnersSeen: 0,
        runs: loadRuns,
      });
      await context.close();
    },
  );
});

describe("Dashboard filter bar and keyboard cross-filtering", () => {
  const app = useBrowserApp();
  let dashboardId: number;
  let customersWidget: number;

  /** A published query's table on the dashboard; the dashboard's `region` parameter feeds it. */
  async function addTable(name: string, sql: string, col: number): Promise<number> {
    const dataSourceId = await demoDataSourceId(app.api);
    const query = await createQuery(app.api, {
      name,
      sql,
      dataSourceId,
      published: true,
      options: { parameters: [{ name: "region", title: "Region", type: "text", value: "EU" }] },
    });
    return addVisualizationWidget(app.api, dashboardId, query.visualizations[0]!.id, {
      position: { col, row: 0, sizeX: 3, sizeY: 8 },
      parameterMappings: {
        region: {
          name: "region",
          type: "dashboard-level",
          mapTo: "region",
          value: null,
          title: "",
        },
      },
    });
  }

  beforeAll(async () => {
    const board = await createDashboard(app.api, "Keyboard filters");
    dashboardId = board.id;
    customersWidget = await addTable(
      "Customers",
      "SELECT * FROM (VALUES ('FR', 'Alice'), ('DE', 'Carl'), ('IT', 'Dora')) AS t(country, customer) WHERE '{{ region }}' <> ''",
      0,
    );
    await addTable(
      "Cities",
      "SELECT * FROM (VALUES ('FR', 'Paris'), ('DE', 'Berlin'), ('IT', 'Rome')) AS t(country, city) WHERE '{{ region }}' <> ''",
      3,
    );
    const { body } = await app.api.get<{ version: number; options: Record<string, unknown> }>(
      `/api/dashboards/${dashboardId}`,
    );
    const saved = await app.api.post(`/api/dashboards/${dashboardId}`, {
      version: body.version,
      options: { ...body.options, crossFilter: { enabled: true } },
    });
    expect(saved.status, saved.text).toBe(200);
  }, 120_000);

  const tags = (page: Page) => page.getByTestId("cross-filter-tag").allTextContents();
  const cities = (page: Page) =>
    page
      .locator("[data-widget-type=visualization]", { hasText: "Cities" })
      .locator("[role=row][data-index] [role=cell]:last-child")
      .allTextContents();

  it(
    "filters from a table cell with Enter and Space; the tags sit in the parameters' bar",
    { timeout: 120_000 },
    async () => {
      const { page, context } = await app.openSignedIn(DESKTOP);
      await page.goto(`/dashboards/${dashboardId}`);
      await waitForWidgetsDrawn(page, 2);
      const customers = page.locator(`[data-widget-id="${customersWidget}"]`);
      // Tab from the widget's title reaches the table's one tab stop: its first cell.
      await customers.getByRole("link", { name: "Customers" }).focus();
      const focused = () =>
        page.evaluate(() =>
          document.activeElement?.getAttribute("role") === "cell"
            ? document.activeElement.textContent
            : null,
        );
      for (let i = 0; i < 6 && (await focused()) === null; i++) await page.keyboard.press("Tab");
      expect(await focused()).toBe("FR");
      await page.keyboard.press("ArrowDown");
      expect(await focused()).toBe("DE");
      await page.keyboard.press("Enter");
      await poll(() => tags(page)).toEqual(["country: DE"]);
      await poll(() => cities(page)).toEqual(["Berlin"]);
      // The keyboard stays on the cell; Space on it again takes the filter off, as a click does.
      expect(await focused()).toBe("DE");

      // One bar: the parameter and, on its line, the tag.
      const bar = page.getByTestId("dashboard-filter-bar");
      const parameter = (await bar.getByTestId("dashboard-parameters").boundingBox())!;
      const tag = (await bar.getByTestId("cross-filter-tag").boundingBox())!;
      expect(tag.x).toBeGreaterThan(parameter.x + parameter.width);
      expect(tag.y).toBeGreaterThan(parameter.y);
      expect(tag.y + tag.height).toBeLessThan(parameter.y + parameter.height);
      await animationsSettled(page);
      await screenshot(page, "dashboard-filter-bar-desktop");

      await page.keyboard.press("Space");
      await poll(() => tags(page)).toEqual([]);
      await poll(() => cities(page)).toEqual(["Paris", "Berlin", "Rome"]);
      await context.close();
    },
  );

  it("shows the bar on a phone", { timeout: 60_000 }, async () => {
    const { page, context } = await app.openSignedIn(PHONE);
    const cf = JSON.stringify([{ column: "country", values: ["IT"], type: "string" }]);
    await page.goto(`/dashboards/${dashboardId}?cf=${encodeURIComponent(cf)}`);
    await waitForWidgetsDrawn(page, 2);
    await poll(() => tags(page)).toEqual(["country: IT"]);
    const bar = page.getByTestId("dashboard-filter-bar");
    expect(await bar.getByTestId("dashboard-parameters").count()).toBe(1);
    const box = (await bar.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    await animationsSettled(page);
    await screenshot(page, "dashboard-filter-bar-phone");
    await context.close();
  });
});
