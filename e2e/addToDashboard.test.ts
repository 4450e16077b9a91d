import { beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { PHONE, animationsSettled, screenshot } from "./browser";
import { useBrowserApp } from "./fixtures/browserApp";
import type { WidgetPosition } from "./fixtures/dashboards";
import { DEMO_DASHBOARD, demoDashboardId, demoDataSourceId } from "./fixtures/demo";
import { pollFor } from "./fixtures/poll";

const poll = pollFor(20_000);

interface SavedDashboard {
  id: number;
  widgets: { id: number; visualization?: { id: number }; options: { position: WidgetPosition } }[];
}

/** The query page's Add to Dashboard dialog, on the Demo query and dashboard setup creates. */
describe("Add to Dashboard from the query page", () => {
  const app = useBrowserApp();
  let queryId: number;
  let visualizationId: number;
  let dashboardId: number;

  beforeAll(async () => {
    await demoDataSourceId(app.api);
    const queries = await app.api.get<{ results: { id: number; name: string }[] }>(
      "/api/queries?q=Orders%20by%20country",
    );
    const query = queries.body.results.find((q) => q.name === "Demo: Orders by country");
    if (!query) throw new Error(`no Demo query: ${queries.text}`);
    queryId = query.id;
    const full = await app.api.get<{ visualizations: { id: number }[] }>(`/api/queries/${queryId}`);
    visualizationId = full.body.visualizations[0].id;
    dashboardId = await demoDashboardId(app.api);
  }, 120_000);

  const savedDashboard = async () =>
    (await app.api.get<SavedDashboard>(`/api/dashboards/${dashboardId}`)).body;

  /**
   * On the query page: adds its first visualization to the Demo dashboard and follows the link.
   */
  async function addFrom(page: Page, name: string) {
    const searches: string[] = [];
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (url.pathname === "/api/dashboards" && url.searchParams.has("q"))
        searches.push(url.searchParams.get("q") ?? "");
    });
    await page.getByTestId("query-actions").click();
    await page.getByRole("menuitem", { name: "Add to Dashboard" }).click();
    await animationsSettled(page);
    // Typed quickly: the debounce sends one search for the whole word, not one per key.
    await page.getByPlaceholder("Search a dashboard by name").pressSequentially("online");
    await poll(() => searches.at(-1)).toBe("online");
    expect(searches.length).toBeLessThan("online".length);
    await poll(() => page.getByTestId("add-to-dashboard-item").allTextContents()).toEqual([
      DEMO_DASHBOARD,
    ]);
    await screenshot(page, `add-to-dashboard-search-${name}`);
    await page.getByTestId("add-to-dashboard-item").click();
    await expect(page.getByTestId("add-to-dashboard-chosen").textContent()).resolves.toBe(
      DEMO_DASHBOARD,
    );
    await page.getByTestId("add-to-dashboard-save").click();
    await page.getByText("Widget added to dashboard").waitFor();
    await screenshot(page, `add-to-dashboard-added-${name}`);
    await page.getByTestId("added-widget-link").click();
    await page.waitForURL((url) => url.pathname.startsWith(`/dashboards/${dashboardId}-`));
  }

  it("adds the shown visualization at the dashboard's lowest free spot, and links to it", async () => {
    const before = await savedDashboard();
    const { page, context } = await app.openSignedIn();
    // The dashboard is seen first and the query reached from it, inside the app: the dashboard
    // the link opens must not be the one remembered from before the widget was added.
    await page.goto(`/dashboards/${dashboardId}`);
    await poll(() => page.locator("[data-widget-type=visualization]").count(), 60_000).toBe(
      before.widgets.filter((w) => w.visualization).length,
    );
    await page
      .locator("[data-widget-type=visualization]")
      .getByRole("link", { name: "Demo: Orders by country" })
      .click();
    await page.waitForURL((url) => url.pathname === `/queries/${queryId}`);
    await addFrom(page, "desktop");

    const after = await savedDashboard();
    expect(after.widgets).toHaveLength(before.widgets.length + 1);
    const added = after.widgets.find((w) => !before.widgets.some((b) => b.id === w.id))!;
    expect(added.visualization?.id).toBe(visualizationId);
    // Below everything that was there: no widget overlaps it.
    for (const w of before.widgets) {
      const p = w.options.position;
      const a = added.options.position;
      const overlapColumns = p.col < a.col + a.sizeX && a.col < p.col + p.sizeX;
      if (overlapColumns) expect(p.row + p.sizeY).toBeLessThanOrEqual(a.row);
    }
    // The dashboard the link opened shows it.
    await poll(() => page.locator("[data-widget-type=visualization]").count(), 60_000).toBe(
      after.widgets.filter((w) => w.visualization).length,
    );
    await page.locator("[data-widget-type=visualization]").last().scrollIntoViewIfNeeded();
    await animationsSettled(page);
    await screenshot(page, "add-to-dashboard-dashboard-desktop");
    await context.close();
  });

  it("works on a phone", async () => {
    const before = await savedDashboard();
    const { page, context } = await app.openSignedIn(PHONE);
    await page.goto(`/queries/${queryId}`);
    await addFrom(page, "phone");
    expect((await savedDashboard()).widgets).toHaveLength(before.widgets.length + 1);
    await poll(() => page.locator("[data-widget-type=visualization]").count(), 60_000).toBe(
      before.widgets.filter((w) => w.visualization).length + 1,
    );
    await context.close();
  });
});
