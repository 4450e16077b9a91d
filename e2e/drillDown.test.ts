// Drill-down (issue 19): an editor links a chart widget to another dashboard through the widget's
// Drill-down dialog; a click on a bar opens that dashboard with the clicked value as its
// parameter (p_<name>), and the breadcrumb leads back. A table column linked to a query shows
// real links carrying the row's values (a Ctrl-click opens a new tab).
import { beforeAll, describe, expect, it } from "vitest";
import type { Locator, Page } from "playwright-core";
import { PHONE, animationsSettled, screenshot } from "./browser";
import { useBrowserApp } from "./fixtures/browserApp";
import { clickBar, drawnChart } from "./fixtures/charts";
import {
  addVisualizationWidget,
  createDashboard,
  waitForWidgetsDrawn,
} from "./fixtures/dashboards";
import { demoDataSourceId } from "./fixtures/demo";
import { pollFor } from "./fixtures/poll";
import { createQuery, createVisualization } from "./fixtures/queries";

const poll = pollFor(30_000);

const SALES =
  "SELECT * FROM (VALUES ('FR', 10, DATE '2024-03-01'), ('DE', 20, DATE '2024-03-02'), ('IT', 5, DATE '2024-03-03')) AS t(country, sales, day)";

interface StoredWidget {
  id: number;
  options: Record<string, unknown>;
}

describe("Drill-down from a dashboard", () => {
  const app = useBrowserApp();
  let source: { id: number; slug: string };
  let target: { id: number; slug: string };
  let detailQueryId: number;
  let chartWidget: number;
  let tableWidget: number;
  let targetWidget: number;

  beforeAll(async () => {
    const { api } = app;
    const dataSourceId = await demoDataSourceId(api);

    // The target: a dashboard whose widget maps its query's parameter to a dashboard parameter.
    target = await createDashboard(api, "Country detail", { published: true });
    const detail = await createQuery(api, {
      name: "Chosen country",
      sql: "SELECT * FROM (VALUES ('{{ country }}')) AS t(chosen)",
      dataSourceId,
      options: { parameters: [{ name: "country", title: "Country", type: "text", value: "none" }] },
      published: true,
    });
    targetWidget = await addVisualizationWidget(api, target.id, detail.visualizations[0]!.id, {
      isHidden: false,
      position: { col: 0, row: 0, sizeX: 3, sizeY: 6 },
      parameterMappings: {
        country: {
          name: "country",
          type: "dashboard-level",
          mapTo: "country",
          value: null,
          title: "",
        },
      },
    });

    // A query target with a text and a date parameter, for the table's link column.
    const orders = await createQuery(api, {
      name: "Orders of a day",
      sql: "SELECT '{{ country }}' AS country, '{{ day }}' AS day",
      dataSourceId,
      options: {
        parameters: [
          { name: "country", title: "Country", type: "text", value: "none" },
          { name: "day", title: "Day", type: "date", value: "2000-01-01" },
        ],
      },
      published: true,
    });
    detailQueryId = orders.id;

    // The source: a column chart and a table whose country column links to the query.
    source = await createDashboard(api, "Sales overview", { published: true });
    const sales = await createQuery(api, {
      name: "Sales by country",
      sql: SALES,
      dataSourceId,
      published: true,
    });
    const chart = await createVisualization(api, sales.id, {
      name: "Chart",
      type: "CHART",
      options: { globalSeriesType: "column", columnMapping: { country: "x", sales: "y" } },
    });
    const table = await createVisualization(api, sales.id, {
      name: "Linked table",
      type: "TABLE",
      options: {
        columns: [
          {
            name: "country",
            displayAs: "link",
            linkTextTemplate: "{{ @ }}",
            drillDown: {
              target: { type: "query", id: orders.id, name: "Orders of a day" },
              parameters: {
                country: { column: "country", type: "text" },
                day: { column: "day", type: "date" },
              },
              newTab: false,
            },
          },
        ],
      },
    });
    chartWidget = await addVisualizationWidget(api, source.id, chart, {
      isHidden: false,
      position: { col: 0, row: 0, sizeX: 3, sizeY: 8 },
    });
    tableWidget = await addVisualizationWidget(api, source.id, table, {
      isHidden: false,
      position: { col: 3, row: 0, sizeX: 3, sizeY: 8 },
    });
  }, 180_000);

  const widget = (page: Page, id: number): Locator => page.locator(`[data-widget-id="${id}"]`);

  const chart = (page: Page): Locator => widget(page, chartWidget);

  /** The chart's categories, as ECharts draws them. */
  const categories = async (page: Page) => (await drawnChart(chart(page))).categories;

  async function sourceDrawn(page: Page) {
    await waitForWidgetsDrawn(page, 2);
    // The chart orders its categories.
    await poll(() => categories(page), 60_000).toEqual(["DE", "FR", "IT"]);
  }

  const storedWidget = async (dashboardId: number, id: number) => {
    const board = await app.api.get<{ widgets: StoredWidget[] }>(`/api/dashboards/${dashboardId}`);
    return board.body.widgets.find((w) => w.id === id)?.options;
  };

  const trail = (page: Page) => page.getByTestId("drill-down-trail");

  /** Chooses the drill-down in the menu a click on a value that also cross-filters opens. */
  const openFromMenu = (page: Page) =>
    page
      .locator("[data-datum-actions]")
      .getByRole("menuitem", { name: "Open Country detail" })
      .click();

  /** On the source table's query page, its editor open at the country column's settings. */
  async function openCountryColumnEditor(
    page: Page,
  ): Promise<{ dialog: Locator; table: { id: number; query: { id: number } } }> {
    const board = await app.api.get<{
      widgets: { id: number; visualization: { id: number; query: { id: number } } }[];
    }>(`/api/dashboards/${source.id}`);
    const table = board.body.widgets.find((w) => w.id === tableWidget)!.visualization;
    await page.goto(`/queries/${table.query.id}/source#${table.id}`);
    await page.click("[data-testid=execute-query]");
    await poll(() => page.textContent("[data-testid=result-rows]")).toContain("Rows");
    await page.click("button:has-text('Edit Visualization')");
    await animationsSettled(page);
    const dialog = page.locator(".ant-modal");
    await dialog.locator(".ant-collapse-header", { hasText: "country" }).click();
    return { dialog, table };
  }

  it(
    "links a chart through the Drill-down dialog; a bar opens the dashboard with its value; the breadcrumb goes back",
    { timeout: 240_000 },
    async () => {
      const { page, context } = await app.openSignedIn();
      await page.goto(`/dashboards/${source.id}-${source.slug}?edit`);
      await sourceDrawn(page);

      await widget(page, chartWidget).getByRole("button", { name: "Widget menu" }).click();
      await page.getByRole("menuitem", { name: "Drill-down" }).click();
      await animationsSettled(page);
      const dialog = page.getByRole("dialog");
      await dialog.getByRole("combobox", { name: "Target dashboard" }).click();
      await dialog.getByRole("combobox", { name: "Target dashboard" }).fill("Country");
      await page.locator(".ant-select-item-option", { hasText: "Country detail" }).click();
      // The target's parameter named like a column starts mapped to it.
      const countryColumn = dialog.locator(".ant-select", {
        has: page.getByRole("combobox", { name: "Column for Country" }),
      });
      await poll(() => countryColumn.textContent()).toBe("country");
      await screenshot(page, "drill-down-dialog-desktop");
      await dialog.getByRole("button", { name: "Save" }).click();
      await poll(() => dialog.isVisible()).toBe(false);
      const saved = await storedWidget(source.id, chartWidget);
      expect(saved).toEqual({
        isHidden: false,
        position: { col: 0, row: 0, sizeX: 3, sizeY: 8 },
        drillDown: {
          target: { type: "dashboard", id: target.id, slug: target.slug, name: "Country detail" },
          parameters: { country: { column: "country", type: "text" } },
          newTab: false,
        },
      });

      // In view mode a bar opens the target with the clicked country.
      await page.getByRole("button", { name: "Done Editing" }).click();
      await poll(() => new URL(page.url()).searchParams.has("edit")).toBe(false);
      // The chart cross-filters too: a click offers both in a menu. A Ctrl-click's "Open"
      // opens the target in a new tab, as on a link.
      const opened = context.waitForEvent("page");
      await clickBar(chart(page), "FR", 10, { modifiers: ["Control"] });
      await openFromMenu(page);
      const tab = await opened;
      await tab.waitForURL((url) => url.pathname.startsWith(`/dashboards/${target.id}`));
      expect(new URL(tab.url()).searchParams.get("p_country")).toBe("FR");
      // The new tab has the breadcrumb too (handed over, as it has no history of its own).
      await poll(() => trail(tab).textContent()).toBe("Sales overview");
      await tab.close();
      expect(new URL(page.url()).pathname).toBe(`/dashboards/${source.id}-${source.slug}`);
      await clickBar(chart(page), "DE", 20);
      await openFromMenu(page);
      await page.waitForURL((url) => url.pathname.startsWith(`/dashboards/${target.id}`));
      expect(new URL(page.url()).searchParams.get("p_country")).toBe("DE");
      await poll(() => widget(page, targetWidget).getByRole("cell").allTextContents()).toEqual([
        "DE",
      ]);
      await expect(
        page.getByTestId("dashboard-parameters").getByRole("textbox").inputValue(),
      ).resolves.toBe("DE");
      await poll(() => trail(page).textContent()).toBe("Sales overview");
      await screenshot(page, "drill-down-target-desktop");

      // Applying another value changes the address in place: the breadcrumb stays.
      await page.getByTestId("dashboard-parameters").getByRole("textbox").fill("FR");
      await page.getByTestId("apply-parameters").click();
      await poll(() => new URL(page.url()).searchParams.get("p_country")).toBe("FR");
      await poll(() => widget(page, targetWidget).getByRole("cell").allTextContents()).toEqual([
        "FR",
      ]);
      expect(await trail(page).textContent()).toBe("Sales overview");

      // The breadcrumb goes back to the source as it was, and shows nothing there.
      await trail(page).getByRole("link", { name: "Sales overview" }).click();
      await page.waitForURL((url) => url.pathname === `/dashboards/${source.id}-${source.slug}`);
      await sourceDrawn(page);
      expect(await trail(page).count()).toBe(0);

      // The browser's Back returns to the target with its trail.
      await page.goBack();
      await page.waitForURL((url) => url.pathname.startsWith(`/dashboards/${target.id}`));
      await poll(() => trail(page).textContent()).toBe("Sales overview");
      await context.close();
    },
  );

  it(
    "a table column links each row to a query with its values; Ctrl-click opens a new tab",
    { timeout: 240_000 },
    async () => {
      const { page, context } = await app.openSignedIn();
      await page.goto(`/dashboards/${source.id}-${source.slug}`);
      await sourceDrawn(page);
      const link = widget(page, tableWidget).getByRole("link", { name: "FR", exact: true });
      const href = await link.getAttribute("href");
      expect(href).toBe(`/queries/${detailQueryId}?p_country=FR&p_day=2024-03-01`);
      expect(await link.getAttribute("target")).toBeNull();
      await screenshot(page, "drill-down-table-links-desktop");

      const opened = context.waitForEvent("page");
      await link.click({ modifiers: ["Control"] });
      const tab = await opened;
      await tab.waitForLoadState();
      expect(new URL(tab.url()).pathname + new URL(tab.url()).search).toBe(href);
      await poll(() => trail(tab).textContent()).toBe("Sales overview");
      await tab.locator("[data-testid=drill-down-trail] a").click();
      await tab.waitForURL((url) => url.pathname === `/dashboards/${source.id}-${source.slug}`);
      await tab.close();
      // The first tab stayed, unfiltered: the link's click is not a cross-filter click.
      expect(new URL(page.url()).pathname).toBe(`/dashboards/${source.id}-${source.slug}`);
      expect(new URL(page.url()).searchParams.has("cf")).toBe(false);

      await link.click();
      await page.waitForURL((url) => url.pathname === `/queries/${detailQueryId}`);
      await poll(() => trail(page).textContent()).toBe("Sales overview");
      await poll(() => page.getByRole("textbox").first().inputValue()).toBe("FR");
      // The query ran with the row's values, the date as the Date parameter takes it.
      await poll(() => page.getByRole("cell").allTextContents()).toEqual(["FR", "2024-03-01"]);
      await screenshot(page, "drill-down-query-desktop");
      await trail(page).getByRole("link", { name: "Sales overview" }).click();
      await page.waitForURL((url) => url.pathname === `/dashboards/${source.id}-${source.slug}`);
      await context.close();
    },
  );

  it("drills down on a phone too", { timeout: 180_000 }, async () => {
    const { page, context } = await app.openSignedIn(PHONE);
    await page.goto(`/dashboards/${source.id}-${source.slug}`);
    await sourceDrawn(page);
    await screenshot(page, "drill-down-source-phone");
    await clickBar(chart(page), "IT", 5);
    await openFromMenu(page);
    await page.waitForURL((url) => url.searchParams.get("p_country") === "IT");
    await poll(() => widget(page, targetWidget).getByRole("cell").allTextContents()).toEqual([
      "IT",
    ]);
    await poll(() => trail(page).textContent()).toBe("Sales overview");
    await screenshot(page, "drill-down-target-phone");

    await page.goto(`/dashboards/${source.id}-${source.slug}?edit`);
    await sourceDrawn(page);
    await widget(page, chartWidget).getByRole("button", { name: "Widget menu" }).click();
    await page.getByRole("menuitem", { name: "Drill-down" }).click();
    await animationsSettled(page);
    await poll(() => page.getByRole("dialog").textContent()).toContain("Country detail");
    await screenshot(page, "drill-down-dialog-phone");
    await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
    await context.close();
  });

  it(
    "the table editor links a column to a dashboard instead of a URL template",
    { timeout: 180_000 },
    async () => {
      const { page, context } = await app.openSignedIn();
      const { dialog, table } = await openCountryColumnEditor(page);
      // Stored as a query link: the column shows its target.
      await poll(() => dialog.textContent()).toContain("Orders of a day");
      await dialog.getByText("Dashboard", { exact: true }).click();
      await dialog.getByRole("combobox", { name: "Target dashboard" }).click();
      await dialog.getByRole("combobox", { name: "Target dashboard" }).fill("Country");
      await page.locator(".ant-select-item-option", { hasText: "Country detail" }).click();
      await poll(() =>
        dialog
          .locator(".ant-select", {
            has: page.getByRole("combobox", { name: "Column for Country" }),
          })
          .textContent(),
      ).toBe("country");
      await screenshot(page, "drill-down-column-editor-desktop");
      await dialog.locator(".ant-modal-footer button", { hasText: "Save" }).click();
      await poll(async () => {
        const query = await app.api.get<{
          visualizations: { id: number; options: { columns?: Record<string, unknown>[] } }[];
        }>(`/api/queries/${table.query.id}`);
        const saved = query.body.visualizations.find((v) => v.id === table.id);
        return saved?.options.columns?.find((c) => c.name === "country")?.drillDown;
      }).toEqual({
        target: { type: "dashboard", id: target.id, slug: target.slug, name: "Country detail" },
        parameters: { country: { column: "country", type: "text" } },
        newTab: false,
      });

      await page.goto(`/dashboards/${source.id}-${source.slug}`);
      await sourceDrawn(page);
      const link = widget(page, tableWidget).getByRole("link", { name: "IT", exact: true });
      await poll(() => link.getAttribute("href")).toBe(
        `/dashboards/${target.id}-${target.slug}?p_country=IT`,
      );
      await link.click();
      await poll(() => widget(page, targetWidget).getByRole("cell").allTextContents()).toEqual([
        "IT",
      ]);
      await poll(() => trail(page).textContent()).toBe("Sales overview");
      await context.close();
    },
  );

  it("the table editor's link settings fit a phone", { timeout: 180_000 }, async () => {
    const { page, context } = await app.openSignedIn(PHONE);
    const { dialog } = await openCountryColumnEditor(page);
    const parameters = dialog.getByTestId("drill-down-parameters");
    await parameters.scrollIntoViewIfNeeded();
    await animationsSettled(page);
    await screenshot(page, "drill-down-column-editor-phone");
    // Nothing of the link settings reaches past the screen's right edge.
    const fields = dialog.locator("[data-testid=drill-down-parameters] .ant-select");
    expect(await fields.count()).toBeGreaterThan(0);
    for (const field of await fields.all()) {
      const box = (await field.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    }
    await context.close();
  });

  it(
    "on the public page a visitor gets the linked values as text and clicks filter instead of drilling down",
    { timeout: 180_000 },
    async () => {
      const share = await app.api.post<{ public_url: string }>(
        `/api/dashboards/${source.id}/share`,
      );
      const publicPath = new URL(share.body.public_url).pathname;
      const { page, context } = await app.open();
      await page.goto(publicPath);
      await sourceDrawn(page);
      const table = widget(page, tableWidget);
      await poll(() => table.getByRole("cell").allTextContents()).toContain("FR");
      // A visitor is not signed in: a link would only lead to the login page.
      expect(await table.getByRole("link").count()).toBe(0);
      expect(await table.locator("[data-drill-down-text]").count()).toBe(3);
      await screenshot(page, "drill-down-public-desktop");
      // The chart's drill-down is off: a bar cross-filters the page, which stays where it is.
      await clickBar(chart(page), "DE", 20);
      await poll(() => new URL(page.url()).searchParams.has("cf")).toBe(true);
      expect(new URL(page.url()).pathname).toBe(publicPath);
      await context.close();
    },
  );
});
