import { beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { PHONE, animationsSettled, screenshot } from "./browser";
import { DEFAULT_ORG_SLUG, findOrgBySlug } from "../packages/server/src/store/organizations";
import { insertUser } from "../packages/server/src/store/users";
import { useBrowserApp } from "./fixtures/browserApp";
import { DEMO_DASHBOARD, demoDataSourceId } from "./fixtures/demo";
import { createQuery, createVisualization, runQueryToEnd } from "./fixtures/queries";
import { pollFor } from "./fixtures/poll";

const poll = pollFor(20_000);

/** The ECharts option of the page's only chart, or null while none is drawn. */
async function chartOption(page: Page): Promise<{
  series: { data?: unknown[] }[];
  toolbox: { show?: boolean; feature?: Record<string, unknown> }[];
} | null> {
  return page.evaluate(() => {
    const host = (
      window as unknown as {
        sightlineECharts?: {
          getInstanceByDom(el: Element): { getOption(): Record<string, unknown> } | undefined;
        };
      }
    ).sightlineECharts;
    const el = document.querySelector("[_echarts_instance_]");
    const option = el && host ? host.getInstanceByDom(el)?.getOption() : undefined;
    if (!option) return null;
    return {
      series: (option.series ?? []) as { data?: unknown[] }[],
      toolbox: (option.toolbox ?? []) as { show?: boolean; feature?: Record<string, unknown> }[],
    };
  });
}

/**
 * A first use of the query workspace on the Demo data: what a result, an error and a new
 * visualization show, at desktop and phone sizes. The display cap is lowered so a Demo table
 * exceeds it quickly.
 */
describe("results and visualizations on first use", () => {
  const app = useBrowserApp({ env: { SIGHTLINE_RESULT_DISPLAY_ROWS: "1000" } });
  let demoId: number;

  beforeAll(async () => {
    demoId = await demoDataSourceId(app.api);
  }, 120_000);

  /** A saved query on the Demo data, run to the end through the API. */
  async function savedQuery(name: string, sql: string): Promise<number> {
    const { id } = await createQuery(app.api, { name, sql, dataSourceId: demoId });
    await runQueryToEnd(app.api, id);
    return id;
  }

  it("shows the Demo queries on the home page, with their charts drawn at once", async () => {
    const { page, context } = await app.openSignedIn();
    await poll(() => page.getByTestId("home-page").textContent()).toContain(
      "Demo: Orders by country",
    );
    await screenshot(page, "first-use-home-desktop");
    await page.getByText("Demo: Orders by country").click();
    // Its chart comes first, drawn from the result stored at setup.
    await poll(
      async () => (await chartOption(page))?.series[0]?.data?.length ?? 0,
      60_000,
    ).toBeGreaterThan(10);
    await screenshot(page, "first-use-demo-query-desktop");
    await context.close();
  });

  it("opens the Demo dashboard from the home page with every widget drawn", async () => {
    const { page, context } = await app.openSignedIn();
    await poll(() => page.getByTestId("home-page").textContent()).toContain(DEMO_DASHBOARD);
    await page.getByText(DEMO_DASHBOARD).click();
    await page.waitForURL((url) => url.pathname.startsWith("/dashboards/"));
    // The four charts, the table and the counter from the results stored at setup, under the
    // text box.
    await poll(() => page.locator("[data-widget-type=visualization] canvas").count(), 60_000).toBe(
      4,
    );
    await poll(() => page.getByTestId("counter-value").textContent()).toMatch(/50,?000/);
    expect(await page.locator("[data-widget-type=textbox] h2").textContent()).toBe(
      "Welcome to the Demo dashboard",
    );
    expect(await page.getByTestId("dashboard-parameters").textContent()).toContain("Period");
    await animationsSettled(page);
    await screenshot(page, "first-use-demo-dashboard-desktop");
    const url = page.url();
    await context.close();

    const phone = await app.openSignedIn(PHONE);
    await phone.page.goto(url);
    await poll(
      () => phone.page.locator("[data-widget-type=visualization] canvas").count(),
      60_000,
    ).toBe(4);
    await animationsSettled(phone.page);
    await screenshot(phone.page, "first-use-demo-dashboard-phone");
    await phone.context.close();
  });

  it("says truthfully that the display cap shortened the result", async () => {
    const id = await savedQuery("Every order", "SELECT id, status FROM orders");
    const { page, context } = await app.openSignedIn();
    await page.goto(`/queries/${id}/source`);
    await poll(() => page.textContent("[data-testid=result-truncated]"), 60_000).toBe(
      "This result has 400,000 rows; the first 1,000 are shown here. Downloads contain all 400,000 rows.",
    );
    expect(await page.textContent("[data-testid=result-rows]")).toContain("1,000 Rows");
    await context.close();
  });

  it("shows a database error with its lines, without the annotation or 'no result'", async () => {
    const { id } = await createQuery(app.api, {
      name: "Typo",
      sql: "selec 1",
      dataSourceId: demoId,
    });
    const { page, context } = await app.openSignedIn();
    await page.goto(`/queries/${id}/source`);
    await page.click("[data-testid=execute-query]");
    const error = page.getByTestId("execution-error");
    await poll(() => error.textContent()).toContain("LINE 1: selec 1");
    const text = (await error.innerText()).trim();
    expect(text).not.toMatch(/Username|Query Hash|\*\//);
    expect(text.split("\n")).toEqual(
      expect.arrayContaining(["LINE 1: selec 1", expect.stringMatching(/^ +\^$/)]),
    );
    expect(await page.getByTestId("no-result").isVisible()).toBe(false);
    await screenshot(page, "query-error-desktop");
    await context.close();
  });

  it("starts a new chart and counter on the result's columns, and numbers their names", async () => {
    const id = await savedQuery(
      "Orders by status",
      "SELECT status, count(*) AS orders FROM orders GROUP BY status ORDER BY status",
    );
    const { page, context } = await app.openSignedIn();
    await page.goto(`/queries/${id}/source`);
    await poll(() => page.textContent("[data-testid=result-rows]"), 30_000).toContain("5 Rows");

    // A new chart draws at once: status along X, orders up Y.
    await page.click("button:has-text('Add Visualization')");
    await page.waitForSelector("[data-testid=save-visualization]");
    await animationsSettled(page);
    await poll(async () => (await chartOption(page))?.series[0]?.data?.length ?? 0).toBe(5);
    await screenshot(page, "new-chart-desktop");
    expect(await page.locator(".ant-modal").textContent()).not.toContain("could not be drawn");
    await page.click("[data-testid=save-visualization]");
    await poll(() => page.locator(".ant-tabs-tab").allTextContents()).toEqual(["Table", "Chart"]);

    // A second chart is "Chart 2"; as a counter it counts the first numeric column.
    await page.click("button:has-text('Add Visualization')");
    await page.waitForSelector("[data-testid=save-visualization]");
    await animationsSettled(page);
    await poll(() => page.getByTestId("visualization-name").inputValue()).toBe("Chart 2");
    await page.click("[data-testid=visualization-type]");
    await page.locator(".ant-select-item-option", { hasText: /^Counter$/ }).click();
    await poll(() => page.getByTestId("visualization-name").inputValue()).toBe("Counter");
    await poll(() => page.locator(".ant-modal [data-testid=counter-value]").textContent()).toMatch(
      /^\d[\d,]*$/,
    );
    expect(await page.locator(".ant-modal").textContent()).not.toContain("could not be drawn");
    await screenshot(page, "new-counter-desktop");
    await page.click("[data-testid=save-visualization]");
    await poll(() => page.locator(".ant-tabs-tab").allTextContents()).toEqual([
      "Table",
      "Chart",
      "Counter",
    ]);
    await context.close();
  });

  it("draws a new query's first chart: Create → Query, type, run, Add Visualization at once", async () => {
    const { page, context } = await app.openSignedIn();
    await page.goto("/");
    await page.getByTestId("create-menu").click();
    await page.getByRole("menuitem", { name: "Query", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/queries/new");
    // Typed and run without a pause, then Add Visualization as soon as the rows show: the query
    // is saved and the dialog opens while its new page loads the result again.
    await page.locator("[data-testid=query-editor] .cm-content").click();
    await page.keyboard.type(
      "SELECT status, count(*) AS orders FROM orders GROUP BY status ORDER BY status",
    );
    await page.keyboard.press("Control+Enter");
    await poll(() => page.textContent("[data-testid=result-rows]"), 30_000).toContain("5 Rows");
    await page.click("button:has-text('Add Visualization')");
    await page.waitForSelector("[data-testid=save-visualization]");

    // The defaults come from the result once it is there: status along X, orders up Y.
    await poll(async () => (await chartOption(page))?.series[0]?.data?.length ?? 0).toBe(5);
    const dialog = page.locator(".ant-modal");
    expect(await dialog.textContent()).not.toContain("Choose the X and Y columns");
    await animationsSettled(page);
    // For the picture only: ECharts grows the bars for a moment after drawing them.
    await page.waitForTimeout(1500);
    await screenshot(page, "first-chart-of-new-query-desktop");
    await page.click("[data-testid=save-visualization]");
    await poll(() => page.locator(".ant-tabs-tab").allTextContents()).toEqual(["Table", "Chart"]);
    const id = Number(/\/queries\/(\d+)/.exec(page.url())![1]);
    const saved = await app.api.get<{ visualizations: { type: string; options: unknown }[] }>(
      `/api/queries/${id}`,
    );
    const chart = saved.body.visualizations.find((v) => v.type === "CHART")!;
    expect(chart.options).toMatchObject({ columnMapping: { status: "x", orders: "y" } });
    await context.close();
  });

  it("hides the charts' toolbox with the 'Hide Plotly mode bar' setting", async () => {
    const id = await savedQuery(
      "Orders by status chart",
      "SELECT status, count(*) AS orders FROM orders GROUP BY status ORDER BY status",
    );
    await createVisualization(app.api, id, {
      type: "CHART",
      name: "Chart",
      options: { globalSeriesType: "column", columnMapping: { status: "x", orders: "y" } },
    });
    const { page, context } = await app.openSignedIn();
    const toolboxShown = async () => {
      const option = await chartOption(page);
      if (!option) return null;
      return option.toolbox.some((t) => t.show !== false && Object.keys(t.feature ?? {}).length);
    };
    await page.goto(`/queries/${id}`);
    await page.getByText("Chart", { exact: true }).click();
    await poll(toolboxShown, 30_000).toBe(true);
    // Turned on in the settings, it applies to the charts opened next, without a reload.
    await page.goto("/settings/general");
    await page.getByText("Hide Plotly mode bar").click();
    await page.getByRole("button", { name: "Save" }).click();
    await poll(() => page.textContent("body")).toContain("Settings changes saved.");
    await page.goBack();
    await poll(() => page.url()).toContain(`/queries/${id}`);
    await page.getByText("Chart", { exact: true }).click();
    await poll(toolboxShown, 30_000).toBe(false);
    // And after a reload.
    await page.reload();
    await page.getByText("Chart", { exact: true }).click();
    await poll(toolboxShown, 30_000).toBe(false);
    await app.api.post("/api/settings/organization", { hide_plotly_mode_bar: false });
    await context.close();
  });

  it("fits numbers, buttons and tabs on a phone", async () => {
    const id = await savedQuery(
      "Phone numbers",
      "SELECT 'north' AS region, 155 AS orders, 12345.5 AS revenue, 7 AS returns FROM range(60)",
    );
    const chartId = await createVisualization(app.api, id, {
      type: "CHART",
      name: "Chart",
      options: { globalSeriesType: "column", columnMapping: { region: "x", orders: "y" } },
    });
    const { page, context } = await app.openSignedIn(PHONE);
    await page.goto(`/queries/${id}/source`);
    await poll(() => page.textContent("[data-testid=result-rows]"), 30_000).toContain("60 Rows");
    // Every cell shows its whole text: nothing cut at the right edge.
    const clipped = async () =>
      page
        .locator("[data-testid=results] [role=cell]")
        .evaluateAll((cells) =>
          cells
            .filter((cell) => cell.scrollWidth > cell.clientWidth + 1)
            .map((cell) => cell.textContent),
        );
    await poll(clipped).toEqual([]);
    const cells = await page.locator("[data-testid=results] [role=cell]").allTextContents();
    expect(cells).toContain("155");
    // Four columns share the phone's width: no sideways scroll hides the end of a number.
    const box = page.locator("[data-testid=results] [data-testid=table-scroll]");
    await poll(() => box.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(1);
    // The Table tab's name shows whole, inside the screen.
    const tab = await page
      .locator(".ant-tabs-tab")
      .first()
      .evaluate((el) => {
        const box = el.getBoundingClientRect();
        const label = el.querySelector(".ant-tabs-tab-btn") ?? el;
        return {
          left: box.left,
          right: box.right,
          text: label.textContent,
          whole: label.scrollWidth <= label.clientWidth + 1,
          width: document.documentElement.clientWidth,
        };
      });
    expect(tab).toMatchObject({ text: "Table", whole: true });
    expect(tab.left).toBeGreaterThanOrEqual(0);
    expect(tab.right).toBeLessThanOrEqual(tab.width);
    await screenshot(page, "query-results-phone");
    // With the chart's tab selected, both tabs still show whole.
    await page.goto(`/queries/${id}/source#${chartId}`);
    await poll(() => page.locator(".ant-tabs-tab-active").textContent(), 30_000).toBe("Chart");
    const shown = await page.locator(".ant-tabs-tab").evaluateAll((tabs) =>
      tabs.map((el) => {
        const box = el.getBoundingClientRect();
        const nav = el.closest(".ant-tabs-nav-wrap")!.getBoundingClientRect();
        return box.left >= nav.left - 1 && box.right <= nav.right + 1;
      }),
    );
    expect(shown).toEqual([true, true]);
    await screenshot(page, "query-chart-tab-phone");

    // The Users list's Disable button shows its whole name.
    const org = (await findOrgBySlug(app.server.ctx.database.db, DEFAULT_ORG_SLUG))!;
    await insertUser(app.server.ctx.database.db, {
      orgId: org.id,
      name: "Paula Plain",
      email: "paula.plain.with-a-long-address@example.com",
      passwordHash: null,
      groupIds: [],
      invitationPending: false,
    });
    await page.goto("/users");
    const button = page.locator("button", { hasText: "Disable" }).first();
    await poll(() => button.count()).toBe(1);
    const fits = await button.evaluate((el) => {
      const box = el.getBoundingClientRect();
      return {
        whole: el.scrollWidth <= el.clientWidth + 1,
        inside: box.right <= document.documentElement.clientWidth,
        text: (el as HTMLElement).innerText.trim(),
      };
    });
    expect(fits).toEqual({ whole: true, inside: true, text: "Disable" });
    await screenshot(page, "users-phone");
    await context.close();
  });

  it("says the connection failed in words, and shows the in-process queue's facts", async () => {
    const { page, context } = await app.openSignedIn();
    await page.goto("/admin/status");
    const general = page.getByTestId("status-General");
    await poll(() => general.textContent()).toContain("queue backend");
    expect(await general.textContent()).toContain("in-process");
    expect(await general.textContent()).not.toContain("redis");
    await screenshot(page, "system-status-desktop");

    // The server cannot be reached while the list loads: the browser says "Failed to fetch".
    await page.route("**/api/queries?**", (route) => route.abort("internetdisconnected"));
    await page.goto("/queries");
    await poll(() => page.textContent("body"), 60_000).toContain(
      "failed communicating with server. Please check your Internet connection and try again.",
    );
    expect(await page.textContent("body")).not.toContain("Failed to fetch");
    await screenshot(page, "queries-unreachable-desktop");
    await context.close();
  });
});
