// Cross-filtering (issue 19): a click on a bar or a table cell filters the other widgets' loaded
// rows (by column name, or a column mapped to it), a widget mapping the column to a parameter
// runs again with it, the filters live in the address (a shared link opens filtered), the public
// page filters too, and editors switch it off per dashboard and per widget.
import { beforeAll, describe, expect, it } from "vitest";
import type { Locator, Page } from "playwright-core";
import { BOTH_VIEWPORTS, PHONE, animationsSettled, screenshot } from "./browser";
import { useBrowserApp } from "./fixtures/browserApp";
import { chartPixel, clickBar, clickChartAt, drawnChart } from "./fixtures/charts";
import {
  addVisualizationWidget,
  createDashboard,
  type WidgetPosition,
} from "./fixtures/dashboards";
import { demoDataSourceId } from "./fixtures/demo";
import { createQuery, createVisualization } from "./fixtures/queries";
import { pollFor } from "./fixtures/poll";

const poll = pollFor(30_000);

interface Widgets {
  chart: number;
  customers: number;
  cities: number;
  picked: number;
}

describe("Cross-filtering on a dashboard", () => {
  const app = useBrowserApp();
  let dashboardId: number;
  let ids: Widgets;

  /** A published query on the Demo data source, and its widget on the dashboard. */
  async function addWidget(
    name: string,
    sql: string,
    position: WidgetPosition,
    visualization?: { type: string; options: Record<string, unknown> },
    extra: {
      options?: Record<string, unknown>;
      widgetOptions?: Record<string, unknown>;
      dashboard?: number;
    } = {},
  ): Promise<number> {
    const query = await createQuery(app.api, {
      name,
      sql,
      dataSourceId: await demoDataSourceId(app.api),
      options: extra.options ?? {},
      published: true,
    });
    const visualizationId = visualization
      ? await createVisualization(app.api, query.id, { name, ...visualization })
      : query.visualizations[0]!.id;
    return addVisualizationWidget(app.api, extra.dashboard ?? dashboardId, visualizationId, {
      isHidden: false,
      position,
      ...extra.widgetOptions,
    });
  }

  beforeAll(async () => {
    dashboardId = (await createDashboard(app.api, "Shop filters")).id;
    const chart = await addWidget(
      "Sales by country",
      "SELECT * FROM (VALUES ('FR', 10), ('DE', 20), ('IT', 5)) AS t(country, sales)",
      { col: 0, row: 0, sizeX: 3, sizeY: 8 },
      {
        type: "CHART",
        options: { globalSeriesType: "column", columnMapping: { country: "x", sales: "y" } },
      },
    );
    const customers = await addWidget(
      "Customers",
      "SELECT * FROM (VALUES ('FR', 'Alice'), ('FR', 'Bob'), ('DE', 'Carl'), ('IT', 'Dora')) AS t(country, customer)",
      { col: 3, row: 0, sizeX: 3, sizeY: 8 },
    );
    // Its column has another name: the dashboard maps "country" to it.
    const cities = await addWidget(
      "Cities",
      "SELECT * FROM (VALUES ('FR', 'Paris'), ('DE', 'Berlin'), ('IT', 'Rome'), ('DE', 'Munich')) AS t(land, city)",
      { col: 0, row: 8, sizeX: 3, sizeY: 8 },
    );
    // Its query takes the country as a parameter: the dashboard maps "country" to it.
    const picked = await addWidget(
      "Picked country",
      "SELECT * FROM (VALUES ('{{ pick }}')) AS t(picked)",
      { col: 3, row: 8, sizeX: 3, sizeY: 8 },
      undefined,
      {
        options: {
          parameters: [
            {
              name: "pick",
              title: "pick",
              type: "enum",
              enumOptions: "none\nFR\nDE\nIT",
              value: "none",
            },
          ],
        },
        widgetOptions: {
          parameterMappings: {
            pick: { name: "pick", type: "static-value", mapTo: "pick", value: "none", title: "" },
          },
        },
      },
    );
    ids = { chart, customers, cities, picked };
    const { body: board } = await app.api.get<{
      version: number;
      options: Record<string, unknown>;
    }>(`/api/dashboards/${dashboardId}`);
    const saved = await app.api.post(`/api/dashboards/${dashboardId}`, {
      version: board.version,
      options: {
        ...board.options,
        crossFilter: {
          enabled: true,
          mappings: { country: { [cities]: "land" } },
          parameters: { country: { [picked]: "pick" } },
        },
      },
    });
    expect(saved.status, saved.text).toBe(200);
  }, 180_000);

  const signedIn = app.openSignedIn;

  const widget = (page: Page, id: number): Locator => page.locator(`[data-widget-id="${id}"]`);

  /** The texts of a table widget's cells in one column, top to bottom. */
  async function column(page: Page, id: number, index: number): Promise<string[]> {
    return widget(page, id)
      .locator("[role=row]:has([role=cell])")
      .evaluateAll(
        (rows, i) => rows.map((r) => r.querySelectorAll("[role=cell]")[i]?.textContent ?? ""),
        index,
      );
  }

  /** The chart's categories and each bar's opacity (1 unless dimmed), as ECharts draws them. */
  async function bars(page: Page, id: number): Promise<{ x: string; opacity: number }[]> {
    const chart = await drawnChart(widget(page, id));
    return chart.categories.map((x, i) => {
      const d = chart.series[0]!.data[i] as { itemStyle?: { opacity?: number } } | null;
      return { x, opacity: d?.itemStyle?.opacity ?? 1 };
    });
  }

  /** Errors the page threw, reported with a failure to draw. */
  const pageErrors: string[] = [];
  const watched = new WeakSet<Page>();

  async function drawn(page: Page) {
    if (!watched.has(page)) {
      watched.add(page);
      page.on("pageerror", (error) => pageErrors.push(error.stack ?? error.message));
    }
    const widgets = page.locator("[data-widget-type=visualization]");
    await poll(() => widgets.filter({ hasText: "Updated" }).count(), 60_000)
      .toBe(4)
      .catch(async (error: unknown) => {
        await screenshot(page, "cross-filter-not-drawn");
        throw new Error(`not drawn; page errors: ${pageErrors.join("\n") || "none"}`, {
          cause: error,
        });
      });
    await poll(() => widgets.locator(".ant-spin-spinning").count(), 60_000).toBe(0);
    await poll(() => bars(page, ids.chart).then((b) => b.length), 60_000).toBeGreaterThan(0);
  }

  const tags = (page: Page) => page.getByTestId("cross-filter-tag").allTextContents();

  it(
    "a bar and table cells filter the other widgets; the link opens filtered",
    { timeout: 240_000 },
    async () => {
      const { page, context } = await signedIn();
      await page.goto(`/dashboards/${dashboardId}`);
      await drawn(page);
      expect(await column(page, ids.customers, 1)).toEqual(["Alice", "Bob", "Carl", "Dora"]);
      expect(await column(page, ids.picked, 0)).toEqual(["none"]);

      // A bar: the other widgets keep DE's rows; the chart dims the other bars.
      await clickBar(widget(page, ids.chart), "DE", 20);
      await poll(() => tags(page)).toEqual(["country: DE"]);
      await poll(() => column(page, ids.customers, 1)).toEqual(["Carl"]);
      await poll(() => column(page, ids.cities, 1)).toEqual(["Berlin", "Munich"]);
      // Mapped to a parameter: that widget ran again with it.
      await poll(() => column(page, ids.picked, 0)).toEqual(["DE"]);
      expect(await bars(page, ids.chart)).toEqual([
        { x: "DE", opacity: 1 },
        { x: "FR", opacity: 0.25 },
        { x: "IT", opacity: 0.25 },
      ]);
      expect(new URL(page.url()).searchParams.get("cf")).toContain('"DE"');
      await screenshot(page, "cross-filter-bar-desktop");

      // Clicking the bar again removes the filter.
      await clickBar(widget(page, ids.chart), "DE", 20);
      await poll(() => tags(page)).toEqual([]);
      await poll(() => column(page, ids.customers, 1)).toEqual(["Alice", "Bob", "Carl", "Dora"]);
      expect(new URL(page.url()).searchParams.has("cf")).toBe(false);

      // From the keyboard: the chart takes focus, the arrow keys move between the bars (DE, FR,
      // IT) and Enter filters by the one reached, as a click does; Enter again removes it.
      await widget(page, ids.chart).locator("[aria-roledescription=chart]").focus();
      await page.keyboard.press("ArrowRight");
      await page.keyboard.press("ArrowRight");
      await page.keyboard.press("Enter");
      await poll(() => tags(page)).toEqual(["country: FR"]);
      await poll(() => bars(page, ids.chart).then((b) => b.map((x) => x.opacity))).toEqual([
        0.25, 1, 0.25,
      ]);
      await screenshot(page, "cross-filter-keyboard-desktop");
      await page.keyboard.press("Enter");
      await poll(() => tags(page)).toEqual([]);
      // Escape lets go of the bar, and only then reaches the page.
      await page.keyboard.press("Escape");

      // A table cell of a mapped column ("land" is the dashboard's "country"): the chart keeps FR.
      const cities = widget(page, ids.cities);
      await cities.getByRole("cell", { name: "FR", exact: true }).click();
      await poll(() => tags(page)).toEqual(["country: FR"]);
      await poll(() => bars(page, ids.chart)).toEqual([{ x: "FR", opacity: 1 }]);
      await poll(() => column(page, ids.customers, 1)).toEqual(["Alice", "Bob"]);
      // The clicked widget is not filtered; it marks its selection.
      expect(await column(page, ids.cities, 1)).toEqual(["Paris", "Berlin", "Rome", "Munich"]);
      expect(await cities.locator("[role=cell][aria-selected=true]").allTextContents()).toEqual([
        "FR",
      ]);

      // Ctrl-click adds a value; a cell of another column adds a second filter (AND).
      await cities.getByRole("cell", { name: "IT", exact: true }).click({ modifiers: ["Control"] });
      await poll(() => tags(page)).toEqual(["country: FR, IT"]);
      await poll(() => column(page, ids.customers, 1)).toEqual(["Alice", "Bob", "Dora"]);
      await widget(page, ids.customers).getByRole("cell", { name: "Bob", exact: true }).click();
      await poll(() => tags(page)).toEqual(["country: FR, IT", "customer: Bob"]);
      await screenshot(page, "cross-filter-table-desktop");

      // The address is the state: a fresh browser context opens the same filtered dashboard.
      const link = page.url();
      const other = await signedIn();
      await other.page.goto(link);
      await drawn(other.page);
      await poll(() => tags(other.page)).toEqual(["country: FR, IT", "customer: Bob"]);
      await poll(() => column(other.page, ids.customers, 1)).toEqual(["Alice", "Bob", "Dora"]);
      await poll(() => bars(other.page, ids.chart).then((b) => b.map((x) => x.x))).toEqual([
        "FR",
        "IT",
      ]);
      await other.context.close();

      // Escape removes the latest filter; Clear all the rest.
      await page.keyboard.press("Escape");
      await poll(() => tags(page)).toEqual(["country: FR, IT"]);
      await page.getByTestId("cross-filters-clear").click();
      await poll(() => tags(page)).toEqual([]);
      await poll(() => bars(page, ids.chart).then((b) => b.length)).toBe(3);
      await context.close();
    },
  );

  it("filters on a phone too", { timeout: 120_000 }, async () => {
    const { page, context } = await signedIn(PHONE);
    await page.goto(`/dashboards/${dashboardId}`);
    await drawn(page);
    await widget(page, ids.customers).getByRole("cell", { name: "DE", exact: true }).click();
    await poll(() => tags(page)).toEqual(["country: DE"]);
    await poll(() => bars(page, ids.chart).then((b) => b.map((x) => x.x))).toEqual(["DE"]);
    await screenshot(page, "cross-filter-phone");
    // The settings dialog fits a phone.
    await page.goto(`/dashboards/${dashboardId}?edit`);
    await drawn(page);
    await page.getByRole("button", { name: "Cross-filtering" }).click();
    await animationsSettled(page);
    await poll(() => page.getByRole("dialog").getByTestId("cross-filter-mapping").count()).toBe(2);
    await screenshot(page, "cross-filter-settings-phone");
    await context.close();
  });

  it(
    "works on the public dashboard: a filtered link, and clicks",
    { timeout: 120_000 },
    async () => {
      const share = await app.api.post<{ public_url: string }>(
        `/api/dashboards/${dashboardId}/share`,
        {},
      );
      expect(share.status, share.text).toBe(200);
      const publicUrl = new URL(share.body.public_url);
      const cf = JSON.stringify([
        { column: "country", values: ["IT"], type: "string", widget: ids.chart },
      ]);
      for (const { name, viewport } of BOTH_VIEWPORTS) {
        const { page, context } = await app.open(viewport);
        await page.goto(`${publicUrl.pathname}?cf=${encodeURIComponent(cf)}`);
        await drawn(page);
        await poll(() => tags(page)).toEqual(["country: IT"]);
        await poll(() => column(page, ids.customers, 1)).toEqual(["Dora"]);
        await poll(() => column(page, ids.picked, 0)).toEqual(["IT"]);
        await screenshot(page, `cross-filter-public-${name}`);
        // A read-only viewer clicks too.
        await widget(page, ids.customers).getByRole("cell", { name: "Dora", exact: true }).click();
        await poll(() => tags(page)).toEqual(["country: IT", "customer: Dora"]);
        await context.close();
      }
      // A value no row has: the widgets it filters say so.
      const { page, context } = await app.open();
      const none = JSON.stringify([{ column: "country", values: ["XX"], widget: ids.chart }]);
      await page.goto(`${publicUrl.pathname}?cf=${encodeURIComponent(none)}`);
      await poll(() => page.getByTestId("cross-filter-empty").allTextContents()).toEqual([
        "No rows match the cross-filters.",
        "No rows match the cross-filters.",
      ]);
      await context.close();
    },
  );

  it(
    "editors switch it off per widget and per dashboard; other option keys stay",
    { timeout: 120_000 },
    async () => {
      const { page, context } = await signedIn();
      await page.goto(`/dashboards/${dashboardId}?edit`);
      await drawn(page);
      // A widget switched off: its clicks filter nothing.
      await widget(page, ids.customers).getByRole("button", { name: "Widget menu" }).click();
      await page.getByRole("menuitem", { name: "Turn Off Cross-filtering" }).click();
      await poll(async () => {
        const board = await app.api.get<{
          widgets: { id: number; options: Record<string, unknown> }[];
        }>(`/api/dashboards/${dashboardId}`);
        return board.body.widgets.find((w) => w.id === ids.customers)?.options;
      }).toMatchObject({ crossFilter: { enabled: false }, position: { col: 3, row: 0 } });
      await widget(page, ids.customers).getByRole("cell", { name: "Carl", exact: true }).click();
      await clickBar(widget(page, ids.chart), "FR", 10);
      await poll(() => tags(page)).toEqual(["country: FR"]);
      // Nor is it filtered.
      expect(await column(page, ids.customers, 1)).toEqual(["Alice", "Bob", "Carl", "Dora"]);
      await page.getByTestId("cross-filters-clear").click();

      // The dashboard's dialog: off, saved with the mappings kept.
      await page.getByRole("button", { name: "Cross-filtering" }).click();
      await animationsSettled(page);
      const dialog = page.getByRole("dialog");
      await poll(() => dialog.getByTestId("cross-filter-mapping").count()).toBe(2);
      // A new mapping, its names picked from the loaded widgets' columns.
      await dialog.getByRole("button", { name: "Add Mapping" }).click();
      const added = dialog.getByTestId("cross-filter-mapping").nth(2);
      const option = (text: string) =>
        page.locator(".ant-select-dropdown:visible .ant-select-item-option", {
          hasText: new RegExp(`^${text}$`),
        });
      await added.getByRole("combobox", { name: "Filter column" }).fill("cust");
      await option("customer").click();
      await added.getByRole("combobox", { name: "Widget" }).click();
      await option("Cities").click();
      await added.getByRole("combobox", { name: "Column", exact: true }).fill("ci");
      await option("city").click();
      await screenshot(page, "cross-filter-settings-desktop");
      await dialog.getByRole("switch", { name: "Cross-filtering" }).click();
      await dialog.getByRole("button", { name: "Save" }).click();
      await poll(async () => {
        const board = await app.api.get<{ options: Record<string, unknown> }>(
          `/api/dashboards/${dashboardId}`,
        );
        return board.body.options.crossFilter;
      }).toEqual({
        enabled: false,
        mappings: { country: { [ids.cities]: "land" }, customer: { [ids.cities]: "city" } },
        parameters: { country: { [ids.picked]: "pick" } },
      });
      await clickBar(widget(page, ids.chart), "FR", 10);
      await page.waitForTimeout(500);
      expect(await tags(page)).toEqual([]);
      expect(await column(page, ids.cities, 1)).toEqual(["Paris", "Berlin", "Rome", "Munich"]);
      await context.close();
    },
  );
  it("a funnel step and a map region filter too", { timeout: 180_000 }, async () => {
    const dashboard = (await createDashboard(app.api, "Regions")).id;
    const funnel = await addWidget(
      "Visits",
      "SELECT * FROM (VALUES ('France', 100), ('Germany', 60)) AS t(country, visits)",
      { col: 0, row: 0, sizeX: 3, sizeY: 8 },
      {
        type: "FUNNEL",
        options: {
          stepCol: { colName: "country", displayAs: "Country" },
          valueCol: { colName: "visits", displayAs: "Visits" },
          autoSort: true,
        },
      },
      { dashboard },
    );
    const map = await addWidget(
      "Customers map",
      "SELECT * FROM (VALUES ('France', 3), ('Germany', 5)) AS t(country, customers)",
      { col: 3, row: 0, sizeX: 3, sizeY: 8 },
      {
        type: "CHOROPLETH",
        options: {
          mapType: "countries",
          keyColumn: "country",
          targetField: "name",
          valueColumn: "customers",
        },
      },
      { dashboard },
    );
    const people = await addWidget(
      "People",
      "SELECT * FROM (VALUES ('France', 'Ana'), ('Germany', 'Ben'), ('Germany', 'Cleo')) AS t(country, person)",
      { col: 0, row: 8, sizeX: 3, sizeY: 6 },
      undefined,
      { dashboard },
    );
    const { page, context } = await signedIn();
    await page.goto(`/dashboards/${dashboard}`);
    const widgets = page.locator("[data-widget-type=visualization]");
    await poll(() => widgets.filter({ hasText: "Updated" }).count(), 60_000).toBe(3);
    await poll(() => widget(page, map).locator("[_echarts_instance_] canvas").count(), 60_000).toBe(
      1,
    );
    await poll(() => column(page, people, 1)).toEqual(["Ana", "Ben", "Cleo"]);

    // A funnel step.
    await widget(page, funnel)
      .getByRole("row", { name: /Germany/ })
      .click();
    await poll(() => tags(page)).toEqual(["country: Germany"]);
    await poll(() => column(page, people, 1)).toEqual(["Ben", "Cleo"]);
    await page.keyboard.press("Escape");
    await poll(() => tags(page)).toEqual([]);

    // A region of the map, where ECharts drew France.
    const france = [2.4, 46.8];
    // Until the map has laid out, a point has no pixel.
    await poll(() => chartPixel(widget(page, map), france)).not.toBeNull();
    await clickChartAt(widget(page, map), france);
    await poll(() => tags(page)).toEqual(["country: France"]);
    await poll(() => column(page, people, 1)).toEqual(["Ana"]);
    await poll(() => widget(page, funnel).getByRole("row").allTextContents()).toHaveLength(2);
    await screenshot(page, "cross-filter-map-funnel-desktop");
    await context.close();
  });
});
