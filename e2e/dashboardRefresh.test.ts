import { beforeAll, describe, expect, it } from "vitest";
import { useBrowserApp } from "./fixtures/browserApp";
import { addVisualizationWidget, createDashboard } from "./fixtures/dashboards";
import { demoDataSourceId } from "./fixtures/demo";
import { createQueryWithVisualization } from "./fixtures/queries";
import { pollFor } from "./fixtures/poll";

const poll = pollFor(30_000);

const MARKER = "refresh_shared";

/** A dashboard's Refresh runs each distinct query and parameter combination once. */
describe("dashboard refresh in the browser", () => {
  const app = useBrowserApp();
  let dashboardId: number;

  beforeAll(async () => {
    const saved = await createQueryWithVisualization(
      app.api,
      await demoDataSourceId(app.api),
      {
        name: "Orders by status",
        sql: `SELECT status, count(*) AS ${MARKER} FROM orders GROUP BY 1 ORDER BY 2 DESC`,
      },
      { type: "CHART", options: { columnMapping: { status: "x", [MARKER]: "y" } } },
    );
    const query = await app.api.get<{ visualizations: { id: number; type: string }[] }>(
      `/api/queries/${saved.queryId}`,
    );
    const table = query.body.visualizations.find((v) => v.type === "TABLE")!;
    dashboardId = (await createDashboard(app.api, "Three views")).id;
    // Three widgets of one query: its chart, its table, and its chart again.
    for (const [i, visualizationId] of [
      saved.visualizationId,
      table.id,
      saved.visualizationId,
    ].entries()) {
      await addVisualizationWidget(app.api, dashboardId, visualizationId, {
        position: { col: (i % 2) * 3, row: Math.floor(i / 2) * 8, sizeX: 3, sizeY: 8 },
      });
    }
  }, 120_000);

  /** Results the server stored for the query: one per execution. */
  const executions = async () =>
    (await app.server.ctx.database.db.selectFrom("query_results").select("query").execute()).filter(
      (r) => r.query.includes(MARKER),
    ).length;

  it("runs a query shown by three widgets once on Refresh", { timeout: 90_000 }, async () => {
    const { page, context } = await app.openSignedIn();

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
