// Scheduled reports in the browser (issue 28): a subscription created from the dashboard's menu,
// Send now with its outcome, the run in the history; and the print page the renderer
// photographs, opened with a real run's token, saying each widget's state. Desktop and phone
// screenshots of the drawer, and the print page at its 1200 px.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Page } from "playwright-core";
import { DESKTOP, PHONE, animationsSettled, screenshot } from "./browser";
import { useBrowserApp } from "./fixtures/browserApp";
import { addTextboxWidget, addVisualizationWidget, createDashboard } from "./fixtures/dashboards";
import { demoDashboardId, demoDataSourceId } from "./fixtures/demo";
import { pollFor } from "./fixtures/poll";
import { createQuery, runQueryToEnd } from "./fixtures/queries";
import { ADMIN } from "../packages/server/src/testing/httpClient";
import { issuePrintToken } from "../packages/server/src/reports/printToken";
import { QUERY_REPORT_WIDGET_ID } from "../packages/server/src/reports/target";
import {
  findSubscription,
  updateRun,
  type PinnedResult,
} from "../packages/server/src/reports/store";

vi.setConfig({ testTimeout: 150_000 });
const poll = pollFor(30_000);

/** An HTTP server on 127.0.0.1 that keeps the bodies posted to it, for the file. */
function useWebhookSink() {
  const sink = { url: "", received: [] as string[] };
  let server: http.Server | undefined;
  beforeAll(async () => {
    server = http.createServer((request, response) => {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString()));
      request.on("end", () => {
        sink.received.push(body);
        response.writeHead(200, { "content-type": "application/json" }).end("{}");
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    sink.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(
    () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
  );
  return sink;
}

/** What the print page leaves for the renderer. */
type ReportWindow = Window & {
  __reportWidgets?: { widget_id: number; name: string; state: string; error: string | null }[];
};

interface Widget {
  id: number;
  visualization?: { id: number; type: string; query: { id: number } };
}

describe("scheduled reports in the browser", () => {
  // Reports go to a webhook on this machine (outbound requests to 127.0.0.1 allowed).
  const app = useBrowserApp({ env: { SIGHTLINE_OUTBOUND_ALLOWED_RANGES: "127.0.0.1/32" } });
  const hook = useWebhookSink();
  let board: { id: number; slug: string };
  /** Widget ids by role. */
  const ids = { chart: 0, counter: 0, empty: 0, failing: 0, text: 0 };
  /** Query ids of the widgets that get a pinned result. */
  const queries = { chart: 0, counter: 0, empty: 0 };
  let chartVisualization = 0;

  beforeAll(async () => {
    // The worker's renderer opens the print page at this server's own address.
    app.server.config.reports.renderUrl = app.server.url;
    const destination = await app.api.post("/api/destinations", {
      name: "Report hook",
      type: "webhook",
      options: { url: `${hook.url}/hook` },
    });
    expect(destination.status, destination.text).toBe(200);
    const sourceId = await demoDataSourceId(app.api);
    const demo = await app.api.get<{ widgets: Widget[] }>(
      `/api/dashboards/${await demoDashboardId(app.api)}`,
    );
    const demoVis = (type: string) => {
      const widget = demo.body.widgets.find((w) => w.visualization?.type === type);
      if (!widget) throw new Error(`no ${type} widget on the Demo dashboard`);
      return widget.visualization!;
    };
    board = await createDashboard(app.api, "Weekly shop report", { published: true });
    const chart = demoVis("CHART");
    chartVisualization = chart.id;
    const counter = demoVis("COUNTER");
    queries.chart = chart.query.id;
    queries.counter = counter.query.id;
    ids.chart = await addVisualizationWidget(app.api, board.id, chart.id, {
      position: { col: 0, row: 0, sizeX: 4, sizeY: 8 },
    });
    ids.counter = await addVisualizationWidget(app.api, board.id, counter.id, {
      position: { col: 4, row: 0, sizeX: 2, sizeY: 8 },
    });
    const empty = await createQuery(app.api, {
      name: "Returns this week",
      sql: "select id as order_id, ordered_at from orders where 1 = 0",
      dataSourceId: sourceId,
      published: true,
    });
    queries.empty = empty.id;
    ids.empty = await addVisualizationWidget(app.api, board.id, empty.visualizations[0].id, {
      position: { col: 0, row: 8, sizeX: 3, sizeY: 6 },
    });
    const failing = await createQuery(app.api, {
      name: "Refunds",
      sql: "select * from refunds_table_that_is_gone",
      dataSourceId: sourceId,
      published: true,
    });
    ids.failing = await addVisualizationWidget(app.api, board.id, failing.visualizations[0].id, {
      position: { col: 3, row: 8, sizeX: 3, sizeY: 6 },
    });
    ids.text = await addTextboxWidget(app.api, board.id, "## Notes\nFigures are **net** of VAT.", {
      position: { col: 0, row: 14, sizeX: 6, sizeY: 3 },
    });
    for (const id of Object.values(queries)) await runQueryToEnd(app.api, id);
  }, 150_000);

  async function openSubscriptions(page: Page) {
    await page.goto(`/dashboards/${board.id}-${board.slug}`);
    await page.getByTestId("dashboard-more").click();
    await page.getByRole("menuitem", { name: "Subscriptions" }).click();
    const drawer = page.getByTestId("subscriptions-drawer");
    await drawer.waitFor();
    await animationsSettled(page);
    return drawer;
  }

  it("creates a subscription from the dashboard, sends it now and reads its run history", async () => {
    const { context, page } = await app.openSignedIn();
    const drawer = await openSubscriptions(page);
    await drawer.getByTestId("subscriptions-empty").waitFor();

    await drawer.getByTestId("subscription-new").click();
    const form = drawer.getByTestId("subscription-form");
    await form.waitFor();
    const name = form.getByLabel("Name");
    await name.fill("");
    const emails = form.getByTestId("subscription-emails").locator("input");
    await emails.fill("not-an-address");
    await emails.press("Enter");
    await form.getByTestId("subscription-save").click();
    await poll(() => form.textContent()).toContain("Give the subscription a name.");
    expect(await form.textContent()).toContain('"not-an-address" is not a valid e-mail address.');
    await screenshot(page, "reports-form-errors-desktop", { fullPage: false });

    // Fixed: a name, the bad address removed, a second address; a PDF.
    await name.fill("Monday numbers");
    await form
      .getByTestId("subscription-emails")
      .locator(".ant-tag", { hasText: "not-an-address" })
      .locator(".ant-tag-close-icon")
      .click();
    await emails.fill("sales@example.com");
    await emails.press("Enter");
    await screenshot(page, "reports-form-desktop", { fullPage: false });
    // Then the addresses give way to the webhook (no mail server here).
    for (const address of [ADMIN.email, "sales@example.com"]) {
      await form
        .getByTestId("subscription-emails")
        .locator(".ant-tag", { hasText: address })
        .locator(".ant-tag-close-icon")
        .click();
    }
    await form.getByTestId("subscription-destinations").click();
    await page.locator(".ant-select-item-option", { hasText: "Report hook" }).click();
    await page.keyboard.press("Escape");
    await form.getByText("PDF", { exact: true }).click();
    await form.getByText("Skip when every widget is empty").click();
    await form.getByTestId("subscription-save").click();

    const item = drawer.getByTestId("subscription-item");
    await poll(() => item.count()).toBe(1);
    expect(await item.getByTestId("subscription-name").textContent()).toBe("Monday numbers");
    expect(await item.getByTestId("subscription-schedule").textContent()).toMatch(
      /^Every day at \d\d:\d\d$/,
    );
    expect(await item.getByTestId("subscription-recipients").textContent()).toBe("To: Report hook");
    const saved = await app.api.get<{ id: number; format: string; skip_if_empty: boolean }[]>(
      `/api/dashboards/${board.id}/subscriptions`,
    );
    expect(saved.body).toMatchObject([{ format: "pdf", skip_if_empty: true }]);
    await screenshot(page, "reports-subscriptions-desktop", { fullPage: false });

    // Send now: the run's outcome shows, followed until the worker is done with it.
    await item.getByTestId("subscription-send").click();
    const outcome = item.getByTestId("send-outcome");
    await outcome.waitFor();
    // Painted by the worker's Chromium from the print page, posted to the webhook.
    await poll(() => outcome.getAttribute("data-status"), 90_000).toBe("sent");
    const status = "sent";
    expect(await outcome.textContent()).toContain("Sent");
    expect(hook.received.length).toBe(1);
    const run = (
      await app.api.get<{
        results: { id: number; status: string; error: string | null; has_thumbnail: boolean }[];
      }>(`/api/subscriptions/${saved.body[0].id}/runs`)
    ).body.results[0];
    expect(run.status).toBe(status);
    if (run.error) expect(await outcome.textContent()).toContain(run.error.slice(0, 40));
    await screenshot(page, "reports-send-now-desktop", { fullPage: false });

    await item.getByTestId("subscription-history").click();
    const history = drawer.getByTestId("run-history");
    await history.waitFor();
    const rows = history.locator("tbody tr.ant-table-row");
    await poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain("Send now");
    const label = { sent: "Sent", skipped: "Skipped", failed: "Failed" }[status];
    expect(await rows.first().getByTestId("run-status").textContent()).toBe(label);
    if (run.error)
      expect(await history.getByTestId("run-problems").textContent()).toContain(
        run.error.slice(0, 40),
      );
    expect(run.has_thumbnail).toBe(true);
    // The picture the worker took of the print page, kept to be looked at.
    const picture = await page.request.get(`/api/report_runs/${run.id}/thumbnail.png`);
    expect(picture.headers()["content-type"]).toBe("image/png");
    fs.mkdirSync("test-artifacts/screenshots", { recursive: true });
    fs.writeFileSync(
      "test-artifacts/screenshots/reports-worker-thumbnail.png",
      await picture.body(),
    );
    {
      const thumbnail = history
        .locator("[data-testid=run-thumbnail] img, img[data-testid=run-thumbnail]")
        .first();
      await poll(() =>
        thumbnail.evaluate((img) => (img as HTMLImageElement).naturalWidth),
      ).toBeGreaterThan(0);
    }
    await screenshot(page, "reports-history-desktop", { fullPage: false });
    await context.close();
  });

  it("shows the drawer and its form at phone size", async () => {
    const { context, page } = await app.openSignedIn(PHONE);
    const drawer = await openSubscriptions(page);
    await drawer.getByTestId("subscription-item").first().waitFor();
    const box = await drawer.boundingBox();
    expect(box?.width).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, "reports-subscriptions-phone", { fullPage: false });
    await drawer.getByRole("button", { name: "Edit" }).first().click();
    await drawer.getByTestId("subscription-form").waitFor();
    await animationsSettled(page);
    await screenshot(page, "reports-form-phone", { fullPage: false });
    await drawer.getByRole("button", { name: "Cancel" }).click();
    await drawer.getByTestId("subscription-history").first().click();
    await drawer.getByTestId("run-history").locator("tbody tr.ant-table-row").first().waitFor();
    await screenshot(page, "reports-history-phone", { fullPage: false });
    await context.close();
  });

  it("starts a new subscription with the dashboard's parameter values, shows the server's refusal, and deletes one after confirming", async () => {
    const sourceId = await demoDataSourceId(app.api);
    const query = await createQuery(app.api, {
      name: "Customers in a country",
      sql: "select count(*) as customers from customers where country = '{{ country }}'",
      dataSourceId: sourceId,
      published: true,
      options: {
        parameters: [{ name: "country", title: "Country", type: "text", value: "Spain" }],
      },
    });
    const pager = await app.api.post("/api/destinations", {
      name: "On-call pager",
      type: "pagerduty",
      options: { integration_key: "k-123" },
    });
    expect(pager.status, pager.text).toBe(200);
    const briefHook = await app.api.post<{ id: number }>("/api/destinations", {
      name: "Brief hook",
      type: "webhook",
      options: { url: "http://127.0.0.1:9/brief" },
    });
    expect(briefHook.status, briefHook.text).toBe(200);
    const withParameters = await createDashboard(app.api, "Country report", { published: true });
    await addVisualizationWidget(app.api, withParameters.id, query.visualizations[0].id, {
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
    const { context, page } = await app.openSignedIn();
    await page.goto(`/dashboards/${withParameters.id}-${withParameters.slug}?p_country=Germany`);
    await page.getByTestId("dashboard-more").click();
    await page.getByRole("menuitem", { name: "Subscriptions" }).click();
    const drawer = page.getByTestId("subscriptions-drawer");
    await drawer.getByTestId("subscription-new").click();
    const values = drawer.getByTestId("subscription-parameters");
    await values.waitFor();
    expect(await values.textContent()).toContain("Country");
    expect(await values.locator("input").first().inputValue()).toBe("Germany");
    await values.locator("input").first().fill("France");
    // The schedule, through the queries' schedule dialog: weekly, on a Monday.
    await drawer.getByTestId("subscription-schedule-edit").click();
    const scheduleDialog = page.getByTestId("schedule-dialog");
    await poll(() => scheduleDialog.textContent()).toContain("Send every");
    expect(await scheduleDialog.textContent()).not.toContain("Refresh every");
    await animationsSettled(page);
    await page.click("[data-testid=schedule-interval]");
    await page.keyboard.type("1 week");
    await page.keyboard.press("Enter");
    await poll(() => scheduleDialog.textContent()).toContain("On day");
    await screenshot(page, "reports-schedule-dialog-desktop", { fullPage: false });
    await scheduleDialog.getByRole("button", { name: "OK" }).click();
    await poll(() => drawer.getByTestId("subscription-schedule-text").textContent()).toMatch(
      /^Every week at \d\d:\d\d on Monday$/,
    );
    await screenshot(page, "reports-form-parameters-desktop", { fullPage: false });

    // A destination that cannot carry a report is not offered.
    const destinations = drawer.getByTestId("subscription-destinations");
    await destinations.click();
    const brief = page.locator(".ant-select-item-option", { hasText: "Brief hook" });
    await brief.waitFor();
    expect(
      await page.locator(".ant-select-item-option", { hasText: "On-call pager" }).count(),
    ).toBe(0);
    // One deleted after it was picked: the server's refusal shows in the form.
    await brief.click();
    await page.keyboard.press("Escape");
    expect((await app.api.delete(`/api/destinations/${briefHook.body.id}`)).status).toBe(204);
    await drawer.getByTestId("subscription-save").click();
    await poll(() => drawer.getByTestId("subscription-form").textContent()).toContain(
      `Destination ${briefHook.body.id} does not exist.`,
    );
    await destinations.locator(".ant-select-selection-item-remove").click();
    await drawer.getByTestId("subscription-save").click();
    const item = drawer.getByTestId("subscription-item");
    await item.waitFor();
    const saved = await app.api.get<{ parameters: Record<string, unknown> }[]>(
      `/api/dashboards/${withParameters.id}/subscriptions`,
    );
    expect(saved.body).toMatchObject([
      {
        parameters: { country: "France" },
        schedule: { interval: 604800, day_of_week: "Monday" },
      },
    ]);

    await item.getByRole("button", { name: "Delete Country report" }).click();
    await page.getByRole("tooltip").getByRole("button", { name: "Delete" }).click();
    await drawer.getByTestId("subscriptions-empty").waitFor();
    const after = await app.api.get<unknown[]>(
      `/api/dashboards/${withParameters.id}/subscriptions`,
    );
    expect(after.body).toEqual([]);
    await context.close();
  });

  /**
   * A run taken by no worker (inserted as running, claimed now) with the results a worker pins,
   * and its print token.
   */
  async function pinnedRun(
    path: string,
    body: Record<string, unknown>,
    results: Record<string, PinnedResult>,
  ): Promise<{ runId: number; token: string }> {
    const created = await app.api.post<{ id: number }>(path, {
      recipients: { emails: ["print@example.com"], destination_ids: [] },
      ...body,
    });
    expect(created.status, created.text).toBe(200);
    const { db } = app.server.ctx.database;
    const subscription = (await findSubscription(db, null, created.body.id))!;
    const now = new Date().toISOString();
    const row = await db
      .insertInto("report_runs")
      .values({
        org_id: subscription.org_id,
        subscription_id: subscription.id,
        status: "running",
        claimed_at: now,
        trigger: "manual",
        started_at: now,
        recipients: "[]",
        widgets: "[]",
        attempts: 0,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await updateRun(db, row.id, { results });
    const token = await issuePrintToken(db, app.server.ctx.keys.tokens, row.id, subscription);
    return { runId: row.id, token };
  }

  const latestResult = async (queryId: number): Promise<PinnedResult> => ({
    result_id: (await app.api.get<{ latest_query_data_id: number }>(`/api/queries/${queryId}`)).body
      .latest_query_data_id,
  });

  const reportReady = (page: Page) =>
    page.waitForFunction(() => document.documentElement.dataset.reportReady === "true", null, {
      timeout: 60_000,
    });

  it("paints the print page from a run's pinned results and says each widget's state", async () => {
    const { runId, token } = await pinnedRun(
      `/api/dashboards/${board.id}/subscriptions`,
      { name: "Print check", parameters: { country: "DE" } },
      {
        [ids.chart]: await latestResult(queries.chart),
        [ids.counter]: await latestResult(queries.counter),
        [ids.empty]: await latestResult(queries.empty),
        [ids.failing]: {
          error: "Catalog Error: Table with name refunds_table_that_is_gone does not exist!",
        },
      },
    );
    const { context, page } = await app.open({ width: 1200, height: 900 });
    const runs: string[] = [];
    page.on("request", (r) => {
      if (/\/api\/(queries\/\d+\/results|query_results|jobs)/.test(r.url())) runs.push(r.url());
    });
    await page.goto(`/reports/print/${runId}?token=${encodeURIComponent(token)}`);
    await reportReady(page);
    const state = (id: number) =>
      page.locator(`[data-report-widget="${id}"]`).getAttribute("data-report-state");
    expect(await state(ids.chart)).toBe("painted");
    expect(await state(ids.counter)).toBe("painted");
    expect(await state(ids.empty)).toBe("empty");
    expect(await state(ids.failing)).toBe("failed");
    expect(await state(ids.text)).toBe("painted");
    const reported = await page.evaluate(() => (window as ReportWindow).__reportWidgets);
    expect(reported).toHaveLength(5);
    expect(reported?.find((w) => w.widget_id === ids.failing)).toMatchObject({
      state: "failed",
      error: expect.stringContaining("refunds_table_that_is_gone"),
    });
    // The chart has drawn its canvas; no spinner, refresh button or menu in the picture.
    const chartCanvas = page.locator(`[data-report-widget="${ids.chart}"] canvas`).first();
    expect((await chartCanvas.boundingBox())?.width).toBeGreaterThan(200);
    expect(await page.locator(".ant-spin").count()).toBe(0);
    expect(await page.getByRole("button", { name: "Refresh" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Widget menu" }).count()).toBe(0);
    expect(await page.locator("header").textContent()).toContain("country: DE");
    expect(await page.locator("header").textContent()).toMatch(/Data (as of|from) \d{4}-\d\d-\d\d/);
    expect(await page.getByTestId("dashboard-title").textContent()).toBe("Weekly shop report");
    expect(await page.locator(`[data-report-widget="${ids.failing}"]`).textContent()).toContain(
      "refunds_table_that_is_gone",
    );
    // Nothing ran: the page read only the pinned results.
    expect(runs).toEqual([]);
    const width = await page.getByTestId("report-print").evaluate((el) => el.clientWidth);
    expect(width).toBe(1200);
    await screenshot(page, "reports-print-page");

    // The token is single-use: opened again, the page says so and is still ready, with no widgets.
    const again = await context.newPage();
    await again.goto(`/reports/print/${runId}?token=${encodeURIComponent(token)}`);
    await reportReady(again);
    expect(await again.getByTestId("report-print-error").textContent()).toContain(
      "This report's link has expired or is not valid.",
    );
    expect(await again.evaluate(() => (window as ReportWindow).__reportWidgets)).toEqual([]);
    await screenshot(again, "reports-print-refused");
    await context.close();
  });

  it("paints a query visualization's report, its one widget from the pinned result", async () => {
    const { runId, token } = await pinnedRun(
      `/api/queries/${queries.chart}/subscriptions`,
      { name: "Chart alone", visualization_id: chartVisualization },
      { [QUERY_REPORT_WIDGET_ID]: await latestResult(queries.chart) },
    );
    const { context, page } = await app.open({ width: 1200, height: 900 });
    await page.goto(`/reports/print/${runId}?token=${encodeURIComponent(token)}`);
    await reportReady(page);
    const widgets = page.locator("[data-report-widget]");
    expect(await widgets.count()).toBe(1);
    expect(await widgets.first().getAttribute("data-report-state")).toBe("painted");
    expect((await widgets.first().locator("canvas").first().boundingBox())?.width).toBeGreaterThan(
      600,
    );
    expect(await page.getByTestId("dashboard-title").textContent()).toContain("Orders by country");
    await screenshot(page, "reports-print-query");
    await context.close();
  });

  it("draws a widget whose chart never arrives as did not finish, names it, and still gets ready", async () => {
    const chartName = (await app.api.get<{ name: string }>(`/api/queries/${queries.chart}`)).body
      .name;
    const { runId, token } = await pinnedRun(
      `/api/dashboards/${board.id}/subscriptions`,
      { name: "Stalled chart" },
      {
        [ids.chart]: await latestResult(queries.chart),
        [ids.counter]: await latestResult(queries.counter),
        [ids.empty]: await latestResult(queries.empty),
        [ids.failing]: { error: "Catalog Error: refunds_table_that_is_gone" },
      },
    );
    const { context, page } = await app.open({ width: 1200, height: 900 });
    // The chart's drawing code never arrives: its request is held and never answered.
    let held = 0;
    await page.route(/\/assets\/EChart-[^/]*\.js/, () => {
      held += 1;
    });
    const started = Date.now();
    await page.goto(`/reports/print/${runId}?token=${encodeURIComponent(token)}`);
    await reportReady(page);
    // Ready only after the chart's time budget ran out, not before.
    expect(Date.now() - started).toBeGreaterThanOrEqual(14_000);
    expect(held).toBeGreaterThan(0);
    const chart = page.locator(`[data-report-widget="${ids.chart}"]`);
    expect(await chart.getAttribute("data-report-state")).toBe("did_not_finish");
    expect(await chart.getByTestId("widget-did-not-finish").textContent()).toContain(
      "Did not finish drawing within 15 seconds.",
    );
    // Drawn as did not finish: no spinner left in the picture.
    expect(await chart.locator(".ant-spin").count()).toBe(0);
    expect(
      await page.locator(`[data-report-widget="${ids.counter}"]`).getAttribute("data-report-state"),
    ).toBe("painted");
    const reported = await page.evaluate(() => (window as ReportWindow).__reportWidgets);
    expect(reported?.find((w) => w.widget_id === ids.chart)).toMatchObject({
      state: "did_not_finish",
      name: expect.stringContaining(chartName),
    });
    expect(reported?.filter((w) => w.state === "did_not_finish")).toHaveLength(1);
    await screenshot(page, "reports-print-did-not-finish");
    await context.close();
  });

  it("takes impatient users: Enter at once, double clicks, two tabs, a lost network", async () => {
    const impatient = await createDashboard(app.api, "Impatient board", { published: true });
    const listed = async () =>
      (
        await app.api.get<{ id: number; name: string }[]>(
          `/api/dashboards/${impatient.id}/subscriptions`,
        )
      ).body;
    const open = async (page: Page) => {
      await page.goto(`/dashboards/${impatient.id}-${impatient.slug}`);
      await page.getByTestId("dashboard-more").click();
      await page.getByRole("menuitem", { name: "Subscriptions" }).click();
      const drawer = page.getByTestId("subscriptions-drawer");
      await drawer.waitFor();
      return drawer;
    };
    const { context, page } = await app.openSignedIn();
    const drawer = await open(page);
    // The empty drawer says what a subscription is and what it needs.
    const empty = drawer.getByTestId("subscriptions-empty");
    await poll(() => empty.textContent()).toContain("at least one recipient");
    await screenshot(page, "reports-empty-desktop", { fullPage: false });
    await page.setViewportSize(PHONE);
    await animationsSettled(page);
    await screenshot(page, "reports-empty-phone", { fullPage: false });
    await page.setViewportSize(DESKTOP);

    // A name typed and Enter pressed twice at once: one subscription.
    await drawer.getByTestId("subscription-new").click();
    const form = drawer.getByTestId("subscription-form");
    await form.getByLabel("Name").fill("Fast one");
    await form.getByLabel("Name").press("Enter");
    await form
      .getByLabel("Name")
      .press("Enter")
      .catch(() => undefined);
    await poll(() => drawer.getByTestId("subscription-item").count()).toBe(1);
    // New, pasted addresses, Save double-clicked: one more.
    await drawer.getByTestId("subscription-new").click();
    await form.getByLabel("Name").fill("Double click");
    const emails = form.getByTestId("subscription-emails").locator("input");
    await emails.focus();
    // Pasted text arrives as one input of the whole text.
    await page.keyboard.insertText("a@example.com, b@example.com; c@example.com");
    await poll(() => form.getByTestId("subscription-emails").locator(".ant-tag").count()).toBe(4);
    await form.getByTestId("subscription-save").dblclick();
    await poll(() => drawer.getByTestId("subscription-item").count()).toBe(2);
    await page.waitForTimeout(500);
    expect((await listed()).map((s) => s.name).sort()).toEqual(["Double click", "Fast one"]);

    // Send now double-clicked: one run.
    const fast = drawer.getByTestId("subscription-item").filter({ hasText: "Fast one" });
    await fast.getByTestId("subscription-send").dblclick();
    await fast.getByTestId("send-outcome").waitFor();
    const fastId = (await listed()).find((s) => s.name === "Fast one")!.id;
    const runs = await app.api.get<{ count: number }>(`/api/subscriptions/${fastId}/runs`);
    expect(runs.body.count).toBe(1);

    // The same subscription edited in two tabs: the last save wins, no crash.
    const other = await context.newPage();
    const otherDrawer = await open(other);
    for (const [d, newName] of [
      [drawer, "Saved first"],
      [otherDrawer, "Saved last"],
    ] as const) {
      const item = d.getByTestId("subscription-item").filter({ hasText: "Double click" });
      await item.getByRole("button", { name: "Edit" }).click();
      await d.getByTestId("subscription-form").getByLabel("Name").fill(newName);
    }
    await drawer.getByTestId("subscription-save").click();
    await poll(() => drawer.getByTestId("subscription-item").allTextContents()).toEqual(
      expect.arrayContaining([expect.stringContaining("Saved first")]),
    );
    await otherDrawer.getByTestId("subscription-save").click();
    await poll(async () => (await listed()).map((s) => s.name)).toContain("Saved last");
    // Deleted in one tab, saved in the other: said in words, the typing kept.
    const lastId = (await listed()).find((s) => s.name === "Saved last")!.id;
    const item = otherDrawer.getByTestId("subscription-item").filter({ hasText: "Saved last" });
    await item.getByRole("button", { name: "Edit" }).click();
    await otherDrawer.getByTestId("subscription-form").getByLabel("Name").fill("Too late");
    expect((await app.api.delete(`/api/subscriptions/${lastId}`)).status).toBe(204);
    await otherDrawer.getByTestId("subscription-save").click();
    await poll(() => otherDrawer.getByTestId("subscription-form").textContent()).toContain(
      "no longer exists",
    );
    await other.close();

    // The network lost during a save: a readable error, what was typed kept; saved once back.
    await drawer.getByTestId("subscription-new").click();
    await form.getByLabel("Name").fill("Offline typed");
    await context.setOffline(true);
    await form.getByTestId("subscription-save").click();
    await poll(() => form.textContent()).toContain("check your Internet connection");
    expect(await form.getByLabel("Name").inputValue()).toBe("Offline typed");
    await screenshot(page, "reports-offline-desktop", { fullPage: false });
    await context.setOffline(false);
    await form.getByTestId("subscription-save").click();
    await poll(async () => (await listed()).map((s) => s.name)).toContain("Offline typed");

    // Back while the drawer is open leaves the page; forward shows it again, working.
    await page.goBack();
    await page.goForward();
    await page.getByTestId("dashboard-more").waitFor();
    await context.close();
  });
});
