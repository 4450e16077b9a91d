import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { startTestServer, type TestServer } from "../packages/server/src/testing/testServer";
import { ADMIN, setUpAndLogin, type TestClient } from "../packages/server/src/testing/httpClient";
import { DESKTOP, launchBrowser, newPage } from "./browser";
import { demoDataSourceId, saveVisualization } from "./demoVisualizations";
import { snapshotWebApp, useWebAppSnapshot } from "./queries-webapp";

const poll = <T>(fn: () => T | Promise<T>, timeout = 30_000) =>
  expect.poll(fn, { timeout, interval: 200 });

const MARKER = "refresh_shared";

/** A dashboard's Refresh runs each distinct query and parameter combination once. */
describe("dashboard refresh in the browser", () => {
  let server: TestServer;
  let browser: Browser;
  let api: TestClient;
  let webApp: string;
  let dashboardId: number;

  beforeAll(async () => {
    server = await startTestServer("sqlite");
    api = await setUpAndLogin(server.url);
    browser = await launchBrowser();
    webApp = await snapshotWebApp();
    const dataSourceId = await demoDataSourceId(api);
    const saved = await saveVisualization(
      api,
      dataSourceId,
      {
        name: "Orders by status",
        sql: `SELECT status, count(*) AS ${MARKER} FROM orders GROUP BY 1 ORDER BY 2 DESC`,
      },
      { type: "CHART", options: { columnMapping: { status: "x", [MARKER]: "y" } } },
    );
    const query = await api.get<{ visualizations: { id: number; type: string }[] }>(
      `/api/queries/${saved.queryId}`,
    );
    const table = query.body.visualizations.find((v) => v.type === "TABLE")!;
    const dashboard = await api.post<{ id: number }>("/api/dashboards", { name: "Three views" });
    dashboardId = dashboard.body.id;
    // Three widgets of one query: its chart, its table, and its chart again.
    for (const [i, visualizationId] of [
      saved.visualizationId,
      table.id,
      saved.visualizationId,
    ].entries()) {
      const widget = await api.post("/api/widgets", {
        dashboard_id: dashboardId,
        visualization_id: visualizationId,
        text: "",
        width: 1,
        options: { position: { col: (i % 2) * 3, row: Math.floor(i / 2) * 8, sizeX: 3, sizeY: 8 } },
      });
      expect(widget.status, widget.text).toBe(200);
    }
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (webApp) fs.rmSync(webApp, { recursive: true, force: true });
  });

  /** Results the server stored for the query: one per execution. */
  const executions = async () =>
    (await server.ctx.database.db.selectFrom("query_results").select("query").execute()).filter(
      (r) => r.query.includes(MARKER),
    ).length;

  it("runs a query shown by three widgets once on Refresh", { timeout: 90_000 }, async () => {
    const { page, context } = await newPage(browser, server.url, DESKTOP);
    await useWebAppSnapshot(context, webApp);
    await page.goto("/login");
    await page.fill("#email", ADMIN.email);
    await page.fill("#password", ADMIN.password);
    await page.click("button[type=submit]");
    await page.waitForURL((url) => url.pathname === "/");

    const runs: { max_age?: number }[] = [];
    page.on("request", (req) => {
      if (req.method() === "POST" && /\/api\/queries\/\d+\/results$/.test(req.url()))
        runs.push(JSON.parse(req.postData() ?? "{}") as { max_age?: number });
    });
    await page.goto(`/dashboards/${dashboardId}`);
    const widgets = page.locator("[data-widget-type=visualization]");
    await poll(() => widgets.locator("canvas").count()).toBe(2);
    await poll(() => widgets.locator("[role=row][data-index]").count()).toBe(5);
    // Loading: one request for the three widgets, answered from the stored result.
    expect(runs).toEqual([expect.objectContaining({ max_age: -1 })]);
    const before = await executions();

    await poll(() => page.getByTestId("dashboard-refresh").isEnabled()).toBe(true);
    await page.getByTestId("dashboard-refresh").click();
    await poll(() => runs.length).toBe(2);
    await poll(() => executions()).toBe(before + 1);
    await poll(() => page.getByTestId("dashboard-refresh").isEnabled()).toBe(true);
    await poll(() => widgets.locator("canvas").count()).toBe(2);
    // Every widget got there: none still spins or failed.
    expect(await widgets.locator(".ant-spin-spinning").count()).toBe(0);
    expect(await page.getByTestId("dashboard-grid").textContent()).not.toContain("Error");
    expect(runs[1]).toMatchObject({ max_age: 0 });
    expect(runs).toHaveLength(2);
    expect(await executions()).toBe(before + 1);
    await context.close();
  });
});
