import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { startTestServer, type TestServer } from "../packages/server/src/testing/testServer";
import { ADMIN, setUpAndLogin, type TestClient } from "../packages/server/src/testing/httpClient";
import { DESKTOP, PHONE, animationsSettled, launchBrowser, newPage, screenshot } from "./browser";
import { demoDataSourceId } from "./demoVisualizations";
import { snapshotWebApp, useWebAppSnapshot } from "./queries-webapp";

/** Waits for the page to reach a state; long enough for a loaded 2-core machine. */
const poll = <T>(fn: () => T | Promise<T>, timeout = 20_000) =>
  expect.poll(fn, { timeout, interval: 200 });

interface Position {
  col: number;
  row: number;
  sizeX: number;
  sizeY: number;
}
interface SavedDashboard {
  id: number;
  widgets: { id: number; visualization?: { id: number }; options: { position: Position } }[];
}

/** The query page's Add to Dashboard dialog, on the Demo query and dashboard setup creates. */
describe("Add to Dashboard from the query page", () => {
  let server: TestServer;
  let browser: Browser;
  let api: TestClient;
  let webApp: string;
  let queryId: number;
  let visualizationId: number;
  let dashboardId: number;

  beforeAll(async () => {
    server = await startTestServer("sqlite");
    api = await setUpAndLogin(server.url);
    browser = await launchBrowser();
    webApp = await snapshotWebApp();
    await demoDataSourceId(api);
    const queries = await api.get<{ results: { id: number; name: string }[] }>(
      "/api/queries?q=Orders%20by%20country",
    );
    const query = queries.body.results.find((q) => q.name === "Demo: Orders by country");
    if (!query) throw new Error(`no Demo query: ${queries.text}`);
    queryId = query.id;
    const full = await api.get<{ visualizations: { id: number }[] }>(`/api/queries/${queryId}`);
    visualizationId = full.body.visualizations[0].id;
    const dashboards = await api.get<{ results: { id: number; name: string }[] }>(
      "/api/dashboards",
    );
    const demo = dashboards.body.results.find((d) => d.name === "Demo: Online shop");
    if (!demo) throw new Error(`no Demo dashboard: ${dashboards.text}`);
    dashboardId = demo.id;
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (webApp) fs.rmSync(webApp, { recursive: true, force: true });
  });

  async function signedIn(viewport = DESKTOP): Promise<{ page: Page; context: BrowserContext }> {
    const { page, context } = await newPage(browser, server.url, viewport);
    await useWebAppSnapshot(context, webApp);
    await page.goto("/login");
    await page.fill("#email", ADMIN.email);
    await page.fill("#password", ADMIN.password);
    await page.click("button[type=submit]");
    await page.waitForURL((url) => url.pathname === "/");
    return { page, context };
  }

  const savedDashboard = async () =>
    (await api.get<SavedDashboard>(`/api/dashboards/${dashboardId}`)).body;

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
      "Demo: Online shop",
    ]);
    await screenshot(page, `add-to-dashboard-search-${name}`);
    await page.getByTestId("add-to-dashboard-item").click();
    await expect(page.getByTestId("add-to-dashboard-chosen").textContent()).resolves.toBe(
      "Demo: Online shop",
    );
    await page.getByTestId("add-to-dashboard-save").click();
    await page.getByText("Widget added to dashboard").waitFor();
    await screenshot(page, `add-to-dashboard-added-${name}`);
    await page.getByTestId("added-widget-link").click();
    await page.waitForURL((url) => url.pathname.startsWith(`/dashboards/${dashboardId}-`));
  }

  it("adds the shown visualization at the dashboard's lowest free spot, and links to it", async () => {
    const before = await savedDashboard();
    const { page, context } = await signedIn();
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
    const { page, context } = await signedIn(PHONE);
    await page.goto(`/queries/${queryId}`);
    await addFrom(page, "phone");
    expect((await savedDashboard()).widgets).toHaveLength(before.widgets.length + 1);
    await poll(() => page.locator("[data-widget-type=visualization]").count(), 60_000).toBe(
      before.widgets.filter((w) => w.visualization).length + 1,
    );
    await context.close();
  });
});
