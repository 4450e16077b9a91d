import { beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { BOTH_VIEWPORTS, PHONE, animationsSettled, screenshot } from "./browser";
import { TEST_PG_URL } from "../packages/server/src/testing/services";
import { createDataSource } from "../packages/server/src/testing/httpClient";
import { useBrowserApp } from "./fixtures/browserApp";
import {
  addVisualizationWidget,
  createDashboard,
  waitForWidgetsDrawn,
} from "./fixtures/dashboards";
import { DEMO_DASHBOARD, demoDashboardId, demoDataSourceId } from "./fixtures/demo";
import { createQuery } from "./fixtures/queries";
import { pollFor } from "./fixtures/poll";

const poll = pollFor(20_000);

/** Sharing the Demo dashboard setup creates, and opening its secret address without a session. */
describe("Public dashboard", () => {
  const app = useBrowserApp();
  let dashboardId: number;
  let visualizationWidgets: number;

  beforeAll(async () => {
    await demoDataSourceId(app.api);
    dashboardId = await demoDashboardId(app.api);
    const full = await app.api.get<{ widgets: { visualization?: unknown }[] }>(
      `/api/dashboards/${dashboardId}`,
    );
    visualizationWidgets = full.body.widgets.filter((w) => w.visualization).length;
  }, 120_000);

  /** Signed in as the admin, allowed to read the clipboard the Copy button writes. */
  async function signedIn(viewport?: { width: number; height: number }) {
    const session = await app.openSignedIn(viewport);
    await session.context.grantPermissions(["clipboard-read", "clipboard-write"], {
      origin: app.server.url,
    });
    return session;
  }

  const widgetsDrawn = (page: Page) => waitForWidgetsDrawn(page, visualizationWidgets);

  it("shares by a secret address that opens read only without a session, until withdrawn", async () => {
    const owner = await signedIn();
    await owner.page.goto(`/dashboards/${dashboardId}`);
    await widgetsDrawn(owner.page);
    await owner.page.getByTestId("dashboard-share").click();
    await animationsSettled(owner.page);
    const dialog = owner.page.getByRole("dialog");
    await poll(() => dialog.textContent()).toContain("Share Dashboard");
    await dialog.getByTestId("share-toggle").click();
    const address = dialog.getByTestId("share-url");
    await poll(() => address.inputValue()).toContain("/public/dashboards/");
    const publicUrl = new URL(await address.inputValue());

    // The copy button puts the address on the clipboard, and says so for 2 s.
    await dialog.getByRole("button", { name: "Copy" }).click();
    await poll(() => dialog.getByRole("button", { name: "Copied!" }).count()).toBe(1);
    expect(await owner.page.evaluate(() => navigator.clipboard.readText())).toBe(publicUrl.href);
    await poll(() => dialog.getByRole("button", { name: "Copy" }).count(), 10_000).toBe(1);
    await screenshot(owner.page, "public-dashboard-share-dialog");
    await dialog.getByRole("button", { name: "Close" }).click();

    // A visitor without a session: the dashboard, read only.
    const path = `${publicUrl.pathname}${publicUrl.search}`;
    for (const { name, viewport } of BOTH_VIEWPORTS) {
      const visitor = await app.open(viewport);
      await visitor.page.goto(path);
      await poll(() => visitor.page.getByTestId("dashboard-title").textContent(), 60_000).toBe(
        DEMO_DASHBOARD,
      );
      await widgetsDrawn(visitor.page);
      expect(await visitor.page.getByRole("button", { name: "Widget menu" }).count()).toBe(0);
      expect(await visitor.page.getByRole("button", { name: "Refresh" }).count()).toBe(0);
      expect(await visitor.page.getByTestId("dashboard-refresh").count()).toBe(0);
      expect(await visitor.page.getByTestId("dashboard-more").count()).toBe(0);
      expect(await visitor.page.getByTestId("public-dashboard-footer").textContent()).toContain(
        "Powered by",
      );
      await screenshot(visitor.page, `public-dashboard-${name}`);
      await visitor.context.close();
    }

    // A parameter changed on the public page: applied in the address, the widget runs again.
    const visitor = await app.open();
    await visitor.page.goto(path);
    await widgetsDrawn(visitor.page);
    const runs: string[] = [];
    visitor.page.on("request", (request) => {
      if (request.method() === "POST" && /\/api\/queries\/\d+\/results/.test(request.url()))
        runs.push(request.postData() ?? "");
    });
    const parameters = visitor.page.getByTestId("dashboard-parameters");
    await parameters.getByRole("button", { name: "Dynamic values" }).click();
    await visitor.page.getByRole("menuitem", { name: "Last 7 days" }).click();
    await parameters.getByTestId("apply-parameters").click();
    await visitor.page.waitForURL((url) => url.searchParams.get("p_period") === "d_last_7_days");
    await poll(() => runs.length).toBeGreaterThan(0);
    await widgetsDrawn(visitor.page);
    await screenshot(visitor.page, "public-dashboard-parameter");

    // Withdrawn: the same address shows the not-found card.
    await owner.page.getByTestId("dashboard-share").click();
    await animationsSettled(owner.page);
    await owner.page.getByRole("dialog").getByTestId("share-toggle").click();
    await poll(() => owner.page.getByRole("dialog").getByTestId("share-url").count()).toBe(0);
    await visitor.page.reload();
    await poll(
      () => visitor.page.getByTestId("public-dashboard-not-found").textContent(),
      60_000,
    ).toContain("Sorry, we couldn't find anything.");
    expect(await visitor.page.locator("[data-widget-type]").count()).toBe(0);
    await screenshot(visitor.page, "public-dashboard-withdrawn");
    await visitor.context.close();
    await owner.context.close();

    // The dialog on a phone, sharing off again.
    const phone = await signedIn(PHONE);
    await phone.page.goto(`/dashboards/${dashboardId}`);
    await phone.page.getByTestId("dashboard-share").click();
    await animationsSettled(phone.page);
    await poll(() => phone.page.getByRole("dialog").textContent()).toContain("Allow public access");
    expect(await phone.page.getByTestId("share-url").count()).toBe(0);
    await screenshot(phone.page, "public-dashboard-share-dialog-phone");
    await phone.context.close();
  }, 300_000);

  it("runs a parameterised query again for a public viewer when its values change", async () => {
    // A PostgreSQL query slow enough that a run answers with a job: the page polls it and reads
    // the result under the values it ran with.
    const pgUrl = new URL(TEST_PG_URL);
    const sourceId = await createDataSource(app.api, "Slow pg", "pg", {
      host: pgUrl.hostname,
      port: Number(pgUrl.port || 5432),
      user: decodeURIComponent(pgUrl.username),
      password: decodeURIComponent(pgUrl.password),
      dbname: pgUrl.pathname.slice(1),
      sslmode: "disable",
    });
    const query = await createQuery(app.api, {
      name: "Days of the period",
      sql:
        // Text, not a date: the table shows it as it is.
        "SELECT 'Day ' || to_char(d, 'YYYY-MM-DD') AS day FROM pg_sleep(1.5) AS pause, " +
        "generate_series('{{ period.start }}'::date, '{{ period.end }}'::date, " +
        "interval '1 day') AS d",
      dataSourceId: sourceId,
      options: {
        parameters: [
          {
            name: "period",
            title: "Period",
            type: "date-range",
            value: { start: "2026-01-01", end: "2026-01-02" },
          },
        ],
      },
      published: true,
    });
    const board = await createDashboard(app.api, "Slow days");
    await addVisualizationWidget(app.api, board.id, query.visualizations[0]!.id, {
      parameterMappings: {
        period: {
          name: "period",
          type: "dashboard-level",
          mapTo: "period",
          value: null,
          title: "",
        },
      },
    });
    const share = await app.api.post<{ public_url: string }>(`/api/dashboards/${board.id}/share`);
    const publicUrl = new URL(share.body.public_url);

    const visitor = await app.open();
    const jobs: string[] = [];
    visitor.page.on("request", (request) => {
      if (/\/api\/jobs\//.test(request.url())) jobs.push(request.url());
    });
    // Values in the address no viewer ran before: a fresh run, polled, its result read.
    await visitor.page.goto(`${publicUrl.pathname}?p_period=2026-03-01--2026-03-03`);
    const widget = visitor.page.locator("[data-widget-type=visualization]");
    await poll(() => widget.textContent(), 60_000).toContain("2026-03-03");
    expect(await widget.textContent()).toContain("2026-03-01");
    expect(await widget.locator(".ant-alert-error").count()).toBe(0);
    expect(jobs.length).toBeGreaterThan(0);
    expect(jobs.every((url) => url.includes("p_period=2026-03-01--2026-03-03"))).toBe(true);

    // Changed on the page: another fresh run, shown once its job ends.
    const parameters = visitor.page.getByTestId("dashboard-parameters");
    await parameters.getByRole("button", { name: "Dynamic values" }).click();
    await visitor.page.getByRole("menuitem", { name: "Last 7 days" }).click();
    await parameters.getByTestId("apply-parameters").click();
    await visitor.page.waitForURL((url) => url.searchParams.get("p_period") === "d_last_7_days");
    await poll(() => widget.textContent(), 60_000).not.toContain("2026-03-01");
    await poll(() => widget.filter({ hasText: "Updated" }).count(), 60_000).toBe(1);
    expect(await widget.locator(".ant-alert-error").count()).toBe(0);
    expect(await widget.textContent()).toMatch(/Day \d{4}-\d{2}-\d{2}/);
    await screenshot(visitor.page, "public-dashboard-fresh-run");
    await visitor.context.close();
  }, 180_000);
});
