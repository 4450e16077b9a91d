// Dashboard details an outside tester tripped over (issue 25), each done as they did it, at
// speed: leaving while a layout save is in flight, a new text box with a long markdown table,
// Add Widget on a query with a chart, Escape in fullscreen, removing a widget, a database error
// with several lines, and what a widget's footer says while its chart still loads.
import { beforeAll, describe, expect, it } from "vitest";
import { BOTH_VIEWPORTS, DESKTOP, animationsSettled, screenshot } from "./browser";
import { useBrowserApp } from "./fixtures/browserApp";
import {
  addVisualizationWidget,
  createDashboard,
  createDashboardWithWidget,
  dragResizeHandle,
  leaveQuestionSeen,
  waitForWidgetsDrawn,
  watchLeaveQuestion,
  widgetCell,
} from "./fixtures/dashboards";
import { demoDataSourceId } from "./fixtures/demo";
import { pollFor } from "./fixtures/poll";
import { createQuery, createVisualization, runQueryToEnd } from "./fixtures/queries";

const poll = pollFor(30_000);

/** A text box's markdown: a heading, a paragraph long enough to wrap, and a table. */
const MARKDOWN = `## Regional targets
These are the targets each region agreed for the quarter, reviewed every Monday by the sales leads and published here after the review.

| Region | Target | Owner |
| --- | --- | --- |
| North | 120 | Ada |
| South | 95 | Linus |
| East | 80 | Grace |
| West | 110 | Alan |

Questions go to the sales team.`;

interface StoredWidget {
  id: number;
  visualization?: unknown;
  options: { position: { sizeY: number; autoHeight?: boolean } };
}

describe("dashboard polish (issue 25)", () => {
  const app = useBrowserApp();
  let dataSourceId: number;
  let tableId: number;
  let chartQueryId: number;

  beforeAll(async () => {
    dataSourceId = await demoDataSourceId(app.api);
    const query = await createQuery(app.api, {
      name: "Polish orders by status",
      sql: "SELECT status, count(*) AS orders FROM orders GROUP BY 1 ORDER BY 2 DESC",
      dataSourceId,
      published: true,
    });
    tableId = query.visualizations[0]!.id;
    chartQueryId = query.id;
    await createVisualization(app.api, query.id, {
      name: "Status chart",
      type: "CHART",
      options: { globalSeriesType: "column", columnMapping: { status: "x", orders: "y" } },
    });
    await runQueryToEnd(app.api, query.id);
  }, 120_000);

  const widgetsOf = async (id: number) =>
    (await app.api.get<{ widgets: StoredWidget[] }>(`/api/dashboards/${id}`)).body.widgets;

  it("leaving while a layout save is in flight waits for it, then leaves without a question", async () => {
    const board = await createDashboardWithWidget(app.api, "Polish leave", tableId, {
      published: true,
    });
    const { page, context } = await app.openSignedIn();
    // The layout save takes a while to answer: it is in flight when the user leaves.
    await page.route("**/api/widgets/*", async (route) => {
      if (route.request().method() === "POST") await new Promise((r) => setTimeout(r, 1500));
      await route.fallback();
    });
    await page.goto(`/dashboards/${board.id}-${board.slug}?edit`);
    await waitForWidgetsDrawn(page, 1);
    await watchLeaveQuestion(page);
    await dragResizeHandle(widgetCell(page, board.widget), 300);
    // Done Editing would wait too; the tester went to another page from the top bar.
    await poll(() => page.getByTestId("save-status").textContent(), 10_000).toContain("Saving");
    await page.getByTestId("top-bar").getByRole("link", { name: "Queries" }).click();
    await page.waitForURL((url) => url.pathname === "/queries");
    expect(await leaveQuestionSeen(page)).toBe(false);
    expect((await widgetsOf(board.id))[0]!.options.position.sizeY).toBeGreaterThan(8);
    await context.close();
  });

  for (const { name, viewport } of BOTH_VIEWPORTS) {
    it(`a new text box shows all its markdown, its table ruled (${name})`, async () => {
      const board = await createDashboard(app.api, `Polish text ${name}`);
      const { page, context } = await app.openSignedIn(viewport);
      await page.goto(`/dashboards/${board.id}-${board.slug}?edit`);
      await page.getByRole("button", { name: "Add Textbox" }).click();
      await page.getByTestId("textbox-text").fill(MARKDOWN);
      await page.getByTestId("textbox-save").click();
      const text = page.locator("[data-widget-type=textbox] > div").first();
      await poll(() => text.locator("td").count()).toBe(12);
      // Nothing cut off: the text box is as tall as its text, once the grid has measured it.
      await poll(() =>
        text.evaluate((el) => el.scrollHeight - el.clientHeight),
      ).toBeLessThanOrEqual(1);
      await poll(() =>
        text.evaluate((el) => {
          const cell = el.closest("[data-widget-id]")!.getBoundingClientRect();
          const last = el.lastElementChild!.getBoundingClientRect();
          return last.bottom <= cell.bottom + 1;
        }),
      ).toBe(true);
      // Table cells have borders.
      const border = await text
        .locator("td")
        .first()
        .evaluate((td) => getComputedStyle(td).borderTopWidth);
      expect(border).toBe("1px");
      const [stored] = await widgetsOf(board.id);
      expect(stored!.options.position.autoHeight).toBe(true);
      await page.getByTestId("done-editing").click();
      await animationsSettled(page);
      await screenshot(page, `polish-textbox-${name}`);
      await context.close();
    });
  }

  it("Add Widget preselects the query's chart; removing says Remove everywhere", async () => {
    const board = await createDashboard(app.api, "Polish add");
    const { page, context } = await app.openSignedIn();
    await page.goto(`/dashboards/${board.id}-${board.slug}?edit`);
    await page.getByRole("button", { name: "Add Widget" }).click();
    await page.getByPlaceholder("Search a query by name").fill("Polish orders");
    await page
      .getByTestId("add-widget-query")
      .filter({ hasText: "Polish orders by status" })
      .click();
    await poll(() => page.getByTestId("add-widget-visualization").textContent()).toBe(
      "Status chart (CHART)",
    );
    await page.getByTestId("add-widget-save").click();
    const card = page.locator("[data-widget-type=visualization]");
    await poll(() => card.locator("canvas").count()).toBeGreaterThan(0);

    await card.getByRole("button", { name: "Widget menu" }).click();
    await page.getByRole("menuitem", { name: "Remove from Dashboard" }).click();
    const confirm = page.locator(".ant-modal-confirm");
    await poll(() => confirm.locator(".ant-modal-confirm-title").textContent()).toBe(
      "Remove from Dashboard",
    );
    await animationsSettled(page);
    await screenshot(page, "polish-remove-widget");
    await confirm.getByRole("button", { name: "Remove", exact: true }).click();
    await poll(() => card.count()).toBe(0);
    await context.close();
  });

  it("Escape leaves fullscreen", async () => {
    const board = await createDashboardWithWidget(app.api, "Polish fullscreen", tableId, {
      published: true,
    });
    const { page, context } = await app.openSignedIn();
    await page.goto(`/dashboards/${board.id}-${board.slug}`);
    await waitForWidgetsDrawn(page, 1);
    await page.getByTestId("dashboard-fullscreen").click();
    await page.waitForURL((url) => url.searchParams.has("fullscreen"));
    await page.keyboard.press("Escape");
    await page.waitForURL((url) => !url.searchParams.has("fullscreen"));
    await context.close();
  });

  it("a widget's database error keeps its lines", async () => {
    const query = await createQuery(app.api, {
      name: "Polish typo",
      sql: "SELECT 1 AS one FROM orders WHERE\nstatus = 'x' AND nonsense_column = 1",
      dataSourceId,
      published: true,
    });
    const board = await createDashboard(app.api, "Polish error");
    await addVisualizationWidget(app.api, board.id, query.visualizations[0]!.id, {
      isHidden: false,
      position: { col: 0, row: 0, sizeX: 6, sizeY: 8 },
    });
    const { page, context } = await app.openSignedIn();
    await page.goto(`/dashboards/${board.id}-${board.slug}`);
    const alert = page.locator("[data-widget-type=visualization] .ant-alert-error");
    await poll(() => alert.count(), 60_000).toBe(1);
    const title = alert.locator(".ant-alert-title");
    expect(await title.evaluate((el) => getComputedStyle(el).whiteSpace)).toBe("pre-wrap");
    // The message's own line breaks show as lines.
    const message = (await title.textContent()) ?? "";
    expect(message).toContain("\n");
    expect((await title.innerText()).split("\n").length).toBeGreaterThan(1);
    await screenshot(page, "polish-widget-error");
    await context.close();
  });

  it("a widget says it loads, not 'Updated', while its chart type's code loads", async () => {
    const { page, context } = await app.openSignedIn(DESKTOP);
    const board = await createDashboard(app.api, "Polish loading");
    const { body: query } = await app.api.get<{ visualizations: { id: number; type: string }[] }>(
      `/api/queries/${chartQueryId}`,
    );
    const chart = query.visualizations.find((v) => v.type === "CHART")!;
    await addVisualizationWidget(app.api, board.id, chart.id, {
      isHidden: false,
      position: { col: 0, row: 0, sizeX: 3, sizeY: 8 },
    });
    // The chart's drawing code arrives late (a slow network): the result is in long before.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/.*Renderer.*\.js$/, async (route) => {
      await held;
      await route.fallback();
    });
    await page.goto(`/dashboards/${board.id}-${board.slug}`);
    const footer = page.locator("[data-widget-type=visualization] [data-testid=widget-footer]");
    await poll(() => footer.textContent()).toContain("Loading…");
    await page.waitForTimeout(500);
    expect(await footer.textContent()).not.toContain("Updated");
    await screenshot(page, "polish-widget-loading", { fullPage: false });
    release();
    await waitForWidgetsDrawn(page, 1);
    await poll(() => footer.textContent()).toContain("Updated");
    await context.close();
  });
});
