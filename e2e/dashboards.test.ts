import { beforeAll, describe, expect, it } from "vitest";
import { PHONE, animationsSettled, screenshot } from "./browser";
import { useBrowserApp } from "./fixtures/browserApp";
import {
  addTextboxWidget,
  addVisualizationWidget,
  createDashboard,
  type WidgetPosition,
} from "./fixtures/dashboards";
import { dataSourceIdByName } from "./fixtures/demo";
import { createQuery, createVisualization } from "./fixtures/queries";
import { pollFor } from "./fixtures/poll";

const poll = pollFor(20_000);

interface SavedDashboard {
  id: number;
  name: string;
  tags: string[];
  is_draft: boolean;
  widgets: {
    id: number;
    text: string;
    visualization?: { id: number };
    options: { position: WidgetPosition };
  }[];
}

/** Browser flows of the dashboards area against a real server. */
describe("dashboards in the browser", () => {
  const app = useBrowserApp();
  let demoId: number;
  let queryId: number;

  beforeAll(async () => {
    demoId = await dataSourceIdByName(app.api, "Demo");
    queryId = (
      await createQuery(app.api, {
        name: "Orders by month",
        sql: "SELECT * FROM (VALUES ('Jan', 120), ('Feb', 145), ('Mar', 98), ('Apr', 171)) AS t(month, orders)",
        dataSourceId: demoId,
        published: true,
      })
    ).id;
    await createVisualization(app.api, queryId, {
      type: "CHART",
      name: "Chart",
      options: { globalSeriesType: "column", columnMapping: { month: "x", orders: "y" } },
    });
  }, 60_000);

  const signedIn = app.openSignedIn;

  const getDashboard = async (id: number) =>
    (await app.api.get<SavedDashboard>(`/api/dashboards/${id}`)).body;

  it(
    "creates a dashboard from the Create menu, adds a query widget and a text box, moves and resizes them, publishes it and shows it after a reload",
    { timeout: 180_000 },
    async () => {
      const { page, context } = await signedIn();
      await page.getByTestId("create-menu").click();
      await page.getByRole("menuitem", { name: "Dashboard", exact: true }).click();
      await page.getByTestId("new-dashboard-name").fill("Sales overview");
      await page.keyboard.press("Enter");
      await page.waitForURL(/\/dashboards\/\d+-sales-overview\?edit/);
      const id = Number(/\/dashboards\/(\d+)/.exec(page.url())![1]);
      await poll(() => page.getByTestId("save-status").textContent()).toBe("Saved");
      await poll(() => page.getByTestId("dashboard-header").textContent()).toContain("Unpublished");

      // The title is edited in place; tags from the header.
      const historyLength = await page.evaluate(() => history.length);
      await page.getByTestId("dashboard-title").getByRole("button").click();
      await page.getByTestId("dashboard-header").locator("textarea").fill("Sales overview 2026");
      await page.keyboard.press("Enter");
      await poll(async () => (await getDashboard(id)).name).toBe("Sales overview 2026");
      // The address shows the new slug, replacing the old one (Back does not return to it).
      await page.waitForURL(new RegExp(`/dashboards/${id}-sales-overview-2026\\?edit`));
      expect(await page.evaluate(() => history.length)).toBe(historyLength);
      await page.getByRole("button", { name: "Add tag" }).click();
      await animationsSettled(page);
      await page.getByRole("combobox", { name: "Tags" }).fill("sales");
      await page.keyboard.press("Enter");
      // Closes the suggestions list, which covers the dialog's buttons.
      await page.getByRole("dialog").getByText("Add/Edit Tags").click();
      await page.getByRole("button", { name: "OK" }).click();
      await poll(async () => (await getDashboard(id)).tags).toEqual(["sales"]);

      // A text box, with its preview.
      await page.getByRole("button", { name: "Add Textbox" }).click();
      await animationsSettled(page);
      await page.getByTestId("textbox-text").fill("## Welcome\n\nThe **sales** board.");
      await poll(() => page.getByTestId("textbox-preview").innerHTML()).toContain(
        "<h2>Welcome</h2>",
      );
      await page.getByTestId("textbox-save").click();
      await poll(() => page.locator("[data-widget-type=textbox] h2").textContent()).toBe("Welcome");

      // A query's chart: search the query, its first chart is preselected.
      await page.getByRole("button", { name: "Add Widget" }).click();
      await animationsSettled(page);
      expect(await page.getByTestId("add-widget-save").isDisabled()).toBe(true);
      // Recent queries before any search.
      await poll(() => page.getByRole("dialog").textContent()).toContain("Recent queries");
      await poll(() => page.getByTestId("add-widget-query").allTextContents()).toContain(
        "Orders by month",
      );
      await page.getByPlaceholder("Search a query by name").fill("Orders by");
      await page.getByTestId("add-widget-query").filter({ hasText: "Orders by month" }).click();
      // Its chart is preselected, not the table every query starts with (issue 25).
      await poll(() => page.getByTestId("add-widget-visualization").textContent()).toContain(
        "Chart (CHART)",
      );
      await page.getByTestId("add-widget-save").click();
      const chartWidget = page.locator("[data-widget-type=visualization]");
      await poll(() => chartWidget.locator("canvas").count(), 30_000).toBeGreaterThan(0);
      expect(await chartWidget.textContent()).toContain("Orders by month");

      // New widgets sit side by side, each at its kind's default size: a text box 3×3, a chart
      // 3×8 (Redash's sizes).
      const saved = await getDashboard(id);
      const text = saved.widgets.find((w) => !w.visualization)!;
      const chart = saved.widgets.find((w) => w.visualization)!;
      expect(text.options.position).toMatchObject({ col: 0, row: 0, sizeX: 3, sizeY: 3 });
      expect(chart.options.position).toMatchObject({
        col: 3,
        row: 0,
        sizeX: 3,
        sizeY: 8,
        minSizeY: 5,
        autoHeight: false,
      });

      // Resize the chart two rows taller, then move the text box under it.
      const handle = page.locator(`[data-widget-id="${chart.id}"] .react-resizable-handle`);
      const box = (await handle.boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + 10, box.y + 60, { steps: 8 });
      await page.mouse.move(box.x + 10, box.y + 124, { steps: 8 });
      await page.mouse.up();
      await poll(
        async () =>
          (await getDashboard(id)).widgets.find((w) => w.id === chart.id)!.options.position.sizeY,
      ).toBeGreaterThan(8);
      await poll(() => page.getByTestId("save-status").textContent()).toBe("Saved");

      const textCard = page.locator(`[data-widget-id="${text.id}"]`);
      const from = (await textCard.boundingBox())!;
      await page.mouse.move(from.x + from.width / 2, from.y + 20);
      await page.mouse.down();
      await page.mouse.move(from.x + from.width, from.y + 150, { steps: 10 });
      await page.mouse.move(from.x + from.width * 1.5, from.y + 350, { steps: 10 });
      await page.mouse.up();
      await poll(
        async () =>
          (await getDashboard(id)).widgets.find((w) => w.id === text.id)!.options.position.row,
      ).toBeGreaterThan(0);
      await poll(() => page.getByTestId("save-status").textContent()).toBe("Saved");
      await screenshot(page, "dashboard-editing-desktop");

      // Done Editing, then Publish.
      await page.getByTestId("done-editing").click();
      await page.waitForURL((url) => !url.search.includes("edit"));
      await page.getByRole("button", { name: "Publish" }).click();
      await poll(async () => (await getDashboard(id)).is_draft).toBe(false);
      await poll(() => page.getByTestId("dashboard-header").textContent()).not.toContain(
        "Unpublished",
      );

      // After a reload the same dashboard shows, widgets where they were left.
      await page.reload();
      await poll(
        () => page.locator("[data-widget-type=visualization] canvas").count(),
        30_000,
      ).toBeGreaterThan(0);
      await poll(() => page.locator("[data-widget-type=textbox] h2").textContent()).toBe("Welcome");
      const chartBox = (await page.locator(`[data-widget-id="${chart.id}"]`).boundingBox())!;
      const textBox = (await page.locator(`[data-widget-id="${text.id}"]`).boundingBox())!;
      expect(textBox.y).toBeGreaterThan(chartBox.y);
      // View mode shows no resize handles.
      const visibleHandles = await page
        .locator(".react-resizable-handle")
        .evaluateAll((els) => els.filter((el) => (el as HTMLElement).offsetParent !== null).length);
      expect(visibleHandles).toBe(0);
      await screenshot(page, "dashboard-view-desktop");

      // Refresh runs the widgets' queries again, without a cached result.
      const runs: { max_age?: number }[] = [];
      page.on("request", (req) => {
        if (/\/api\/queries\/\d+\/results$/.test(new URL(req.url()).pathname))
          runs.push(JSON.parse(req.postData() ?? "{}") as { max_age?: number });
      });
      await poll(() => page.getByTestId("dashboard-refresh").isEnabled()).toBe(true);
      await page.getByTestId("dashboard-refresh").click();
      await poll(() => runs.some((r) => r.max_age === 0)).toBe(true);
      await poll(() => page.getByTestId("dashboard-refresh").isEnabled()).toBe(true);

      // Auto-refresh from the interval menu, kept in the address; a flag under 30 s is clamped.
      await page.getByRole("button", { name: "Refresh interval" }).click();
      await page.getByRole("menuitem", { name: "Every minute" }).click();
      await page.waitForURL((url) => url.searchParams.get("refresh") === "60");
      await poll(() => page.getByTestId("dashboard-refresh").textContent()).toBe("Every minute");
      await page.getByRole("button", { name: "Refresh interval" }).click();
      await page.getByRole("menuitem", { name: "Disable auto refresh" }).click();
      await page.waitForURL((url) => !url.searchParams.has("refresh"));
      await poll(() => page.getByTestId("dashboard-refresh").textContent()).toBe("Refresh");
      await page.goto(`/dashboards/${id}?refresh=5`);
      await poll(() => page.getByTestId("dashboard-refresh").textContent()).toBe("Every minute");

      // Fullscreen covers the frame.
      await page.getByTestId("dashboard-fullscreen").click();
      await page.waitForURL((url) => url.searchParams.has("fullscreen"));
      await poll(async () => (await page.getByTestId("dashboard-page").boundingBox())?.y).toBe(0);
      await screenshot(page, "dashboard-fullscreen-desktop");
      await page.getByTestId("dashboard-fullscreen").click();
      await page.waitForURL((url) => !url.searchParams.has("fullscreen"));

      // The list shows it, published.
      await page.goto("/dashboards");
      await poll(() => page.getByTestId("dashboards-table").textContent()).toContain(
        "Sales overview",
      );
      expect(await page.getByTestId("tags-filter").textContent()).toContain("sales");
      await screenshot(page, "dashboards-list-desktop");
      await page.goto("/dashboards?q=no-such-dashboard");
      await poll(() => page.getByTestId("empty-state").textContent()).toContain(
        "Sorry, we couldn't find anything.",
      );
      await context.close();

      // On a phone: one column, in reading order.
      const phone = await signedIn(PHONE);
      await phone.page.goto(`/dashboards/${id}`);
      await poll(
        () => phone.page.locator("[data-widget-type=visualization] canvas").count(),
        30_000,
      ).toBeGreaterThan(0);
      const cards = await phone.page.locator("[data-widget-id]").evaluateAll((els) =>
        els.map((el) => {
          const r = el.getBoundingClientRect();
          return { id: Number(el.getAttribute("data-widget-id")), x: r.x, width: r.width, y: r.y };
        }),
      );
      expect(cards.map((c) => c.id)).toEqual([chart.id, text.id]);
      expect(cards[0]!.x).toBe(cards[1]!.x);
      expect(cards[0]!.width).toBeLessThanOrEqual(PHONE.width);
      await screenshot(phone.page, "dashboard-view-phone");
      // Edit mode on a phone: the header's controls and the add panel fit the screen.
      await phone.page.goto(`/dashboards/${id}?edit`);
      await poll(() => phone.page.getByTestId("save-status").textContent()).toBe("Saved");
      await poll(
        () => phone.page.locator("[data-widget-type=visualization] canvas").count(),
        30_000,
      ).toBeGreaterThan(0);
      const overflow = await phone.page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
      await screenshot(phone.page, "dashboard-editing-phone");
      await phone.page.goto("/dashboards");
      await poll(() => phone.page.getByTestId("dashboards-table").textContent()).toContain(
        "Sales overview",
      );
      await screenshot(phone.page, "dashboards-list-phone");
      await phone.context.close();
    },
  );
  it(
    "maps a query parameter to a new dashboard parameter, applies a value with p_ in the address, favorites and archives",
    { timeout: 120_000 },
    async () => {
      await createQuery(app.api, {
        name: "Top customers",
        sql: "SELECT * FROM (VALUES ('Ann', 1), ('Bob', 2), ('Cid', 3)) AS t(customer, rank) WHERE rank <= {{ max_rank }}",
        dataSourceId: demoId,
        options: {
          parameters: [{ name: "max_rank", title: "Max rank", type: "number", value: 3 }],
        },
        published: true,
      });
      const created = await createDashboard(app.api, "Customers");
      const id = created.id;

      const { page, context } = await signedIn();
      await page.goto(`/dashboards/${id}-${created.slug}?edit`);
      await page.getByRole("button", { name: "Add Widget" }).click();
      await animationsSettled(page);
      await page.getByPlaceholder("Search a query by name").fill("Top customers");
      await page.getByTestId("add-widget-query").filter({ hasText: "Top customers" }).click();
      const keyword = page.getByLabel("Keyword of max_rank");
      await poll(() => keyword.inputValue()).toBe("max_rank");
      // An empty keyword is refused with the spec's text.
      await keyword.fill("");
      await poll(() => page.getByRole("dialog").textContent()).toContain(
        "Keyword must have a value",
      );
      expect(await page.getByTestId("add-widget-save").isDisabled()).toBe(true);
      await keyword.fill("max_rank");
      await page.getByTestId("add-widget-save").click();
      const widget = page.locator("[data-widget-type=visualization]");
      await poll(() => widget.textContent(), 30_000).toContain("Cid");

      const saved = await getDashboard(id);
      expect(saved.widgets[0]!.options).toMatchObject({
        parameterMappings: {
          max_rank: { name: "max_rank", type: "dashboard-level", mapTo: "max_rank" },
        },
      });

      // The widget's mappings can be edited again from its menu.
      await widget.getByRole("button", { name: "Widget menu" }).click();
      await page.getByRole("menuitem", { name: "Edit Parameters" }).click();
      await animationsSettled(page);
      await poll(() => page.getByRole("dialog").textContent()).toContain(
        "Existing dashboard parameter",
      );
      await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();

      await page.getByTestId("done-editing").click();
      await page.waitForURL((url) => !url.search.includes("edit"));
      const input = page.getByTestId("dashboard-parameters").getByTestId("parameter-max_rank");
      await input.fill("1");
      await page.getByTestId("apply-parameters").click();
      await page.waitForURL((url) => url.searchParams.get("p_max_rank") === "1");
      await poll(() => widget.textContent(), 30_000).not.toContain("Bob");
      expect(await widget.textContent()).toContain("Ann");
      await screenshot(page, "dashboard-parameters-desktop");

      // The value survives a reload through the address.
      await page.reload();
      await poll(() => widget.textContent(), 30_000).toContain("Ann");
      expect(await widget.textContent()).not.toContain("Bob");

      // Favorite: listed on the home page.
      await page.getByTestId("dashboard-header").getByTestId("favorite-star").click();
      await poll(async () =>
        (
          await app.api.get<{ results: { id: number }[] }>("/api/dashboards/favorites")
        ).body.results.map((d) => d.id),
      ).toContain(id);
      await page.goto("/");
      await poll(() => page.getByTestId("favorite-dashboards").textContent()).toContain(
        "Customers",
      );
      await page.getByTestId("favorite-dashboards").getByText("Customers").click();
      await page.waitForURL(new RegExp(`/dashboards/${id}-`));

      // The legacy address opens it by its slug.
      await page.goto(`/dashboard/${created.slug}`);
      await poll(() => page.getByTestId("dashboard-title").textContent()).toBe("Customers");

      // Someone else saved it meanwhile: a save says so and the message stays.
      await app.api.post(`/api/dashboards/${id}`, { name: "Customers" });
      await page.getByRole("button", { name: "Publish" }).click();
      await poll(() => page.getByTestId("dashboard-page").textContent()).toContain(
        "It seems like the dashboard has been modified by another user.",
      );
      expect(await page.getByTestId("dashboard-page").textContent()).toContain(
        "Please copy/backup your changes and reload this page.",
      );

      // Archive, after its confirmation.
      await page.getByTestId("dashboard-more").click();
      await page.getByRole("menuitem", { name: "Archive" }).click();
      await animationsSettled(page);
      await page.getByRole("button", { name: "Archive", exact: true }).click();
      await poll(() => page.getByTestId("dashboard-header").textContent()).toContain("Archived");
      expect(await page.getByTestId("dashboard-more").count()).toBe(0);
      await context.close();
    },
  );
  it(
    "shows a failing query's error in its widget and sanitises text boxes",
    { timeout: 90_000 },
    async () => {
      const query = await createQuery(app.api, {
        name: "Broken",
        sql: "SELECT * FROM no_such_table",
        dataSourceId: demoId,
      });
      const { id } = await createDashboard(app.api, "Broken board");
      await addVisualizationWidget(app.api, id, query.visualizations[0]!.id, {
        position: { col: 0, row: 0, sizeX: 3, sizeY: 4 },
      });
      await addTextboxWidget(app.api, id, 'Hello <img src=x onerror="window.__xss=1"> **there**', {
        position: { col: 3, row: 0, sizeX: 3, sizeY: 4 },
      });
      const { page, context } = await signedIn();
      await page.goto(`/dashboards/${id}`);
      await poll(
        () => page.locator("[data-widget-type=visualization]").textContent(),
        30_000,
      ).toContain("Error running query: ");
      await poll(() => page.locator("[data-widget-type=textbox] strong").textContent()).toBe(
        "there",
      );
      expect(
        await page.locator("[data-widget-type=textbox] img").getAttribute("onerror"),
      ).toBeNull();
      expect(
        await page.evaluate(() => (window as unknown as { __xss?: number }).__xss),
      ).toBeUndefined();
      await screenshot(page, "dashboard-widget-error-desktop");
      await context.close();
    },
  );
  it("finds an archived dashboard in the Archived list and restores it", async () => {
    const { id } = await createDashboard(app.api, "Old quarterly board");
    expect((await app.api.delete(`/api/dashboards/${id}`)).status).toBe(200);
    const { page, context } = await signedIn();
    await page.goto("/dashboards");
    await page.getByRole("link", { name: "Archived" }).click();
    await poll(() => page.getByTestId("dashboards-table").textContent()).toContain(
      "Old quarterly board",
    );
    await screenshot(page, "dashboards-archived-desktop");
    const row = page.locator("[data-testid=dashboards-table] tr", {
      hasText: "Old quarterly board",
    });
    await row.getByRole("button", { name: "Unarchive" }).dblclick();
    await poll(() => page.locator(".ant-notification").textContent()).toContain(
      "Dashboard restored.",
    );
    // Gone from the Archived list (other tests of this file archive dashboards of their own).
    await poll(() => row.count()).toBe(0);
    await page.getByRole("link", { name: "All Dashboards" }).click();
    await poll(() => page.getByTestId("dashboards-table").textContent()).toContain(
      "Old quarterly board",
    );
    await context.close();
  });

  it("filters every widget from the dashboard's filter bar", { timeout: 90_000 }, async () => {
    const { id } = await createDashboard(app.api, "Regions");
    const rows = [
      "SELECT * FROM (VALUES ('EU', 'Paris'), ('US', 'Boston')) AS t(\"region::filter\", city)",
      "SELECT * FROM (VALUES ('EU', 10), ('US', 20)) AS t(\"region::filter\", sales)",
    ];
    for (const [i, sql] of rows.entries()) {
      const query = await createQuery(app.api, {
        name: `Region query ${i + 1}`,
        sql,
        dataSourceId: demoId,
      });
      await addVisualizationWidget(app.api, id, query.visualizations[0]!.id, {
        position: { col: i * 3, row: 0, sizeX: 3, sizeY: 5 },
      });
    }
    const { page, context } = await signedIn();
    await page.goto(`/dashboards/${id}?edit`);
    const widgets = page.locator("[data-widget-type=visualization]");
    // Each widget starts with its own filter bar on the first value.
    await poll(() => widgets.nth(1).textContent(), 30_000).toContain("10");
    expect(await widgets.getByTestId("result-filters").count()).toBe(2);
    await page.getByTestId("dashboard-filters-enabled").click();
    await poll(
      async () => (await getDashboard(id)) as unknown as { dashboard_filters_enabled: boolean },
    ).toMatchObject({
      dashboard_filters_enabled: true,
    });
    const bar = page.getByTestId("dashboard-filters");
    await poll(() => bar.count()).toBe(1);
    // One bar for both widgets; their own bars are gone.
    expect(await widgets.getByTestId("result-filters").count()).toBe(0);
    await bar.locator(".ant-select").first().click();
    await page.locator(".ant-select-item-option", { hasText: "US" }).click();
    await poll(() => widgets.nth(0).textContent()).not.toContain("Paris");
    expect(await widgets.nth(0).textContent()).toContain("Boston");
    await poll(() => widgets.nth(1).textContent()).toContain("20");
    expect(await widgets.nth(1).textContent()).not.toContain("10");
    await screenshot(page, "dashboard-filters-desktop");
    await context.close();
  });
});
