// Dashboard defects found by hasty-user testing (issue 16): a conflicting rename keeps the typed
// title, a failed Refresh does not claim "Updated", the leave question is in the page once, and
// an empty dashboard in edit mode has no tall empty grid box. Every flow also fails on an
// uncaught page error or a console error.
import { beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { animationsSettled, DESKTOP, PHONE, screenshot } from "./browser";
import { useBrowserApp } from "./fixtures/browserApp";
import { OFFLINE_ERRORS, useWatchedSessions } from "./fixtures/watchedSessions";
import { demoDataSourceId } from "./fixtures/demo";
import { createQuery, runQueryToEnd } from "./fixtures/queries";
import {
  createDashboard,
  createDashboardWithWidget,
  dragResizeHandle,
  waitForWidgetsDrawn,
  widgetCell,
} from "./fixtures/dashboards";
import { pollFor } from "./fixtures/poll";

const poll = pollFor(20_000);

describe("dashboard defects (issue 16)", () => {
  const app = useBrowserApp();
  const { signedIn } = useWatchedSessions(app);
  let tableId: number;

  beforeAll(async () => {
    const query = await createQuery(app.api, {
      name: "Defects board orders",
      sql: "SELECT 'Jan' AS month, 120 AS orders",
      dataSourceId: await demoDataSourceId(app.api),
      published: true,
    });
    tableId = query.visualizations[0]!.id;
    await runQueryToEnd(app.api, query.id);
  }, 120_000);

  function footer(page: Page) {
    return page.locator("[data-widget-type=visualization] [data-testid=widget-footer]");
  }

  it("a rename refused as modified by another user keeps the typed title", async () => {
    const board = await createDashboard(app.api, "Defects conflict");
    const { page } = await signedIn([/409/]);
    await page.goto(`/dashboards/${board.id}-${board.slug}?edit`);
    await page.getByTestId("dashboard-title").getByRole("button").click();
    // Another user saves the dashboard meanwhile: the page's version is now stale.
    const other = await app.api.post(`/api/dashboards/${board.id}`, { tags: ["other"] });
    expect(other.status, other.text).toBe(200);
    await page.getByTestId("dashboard-header").locator("textarea").fill("My careful title");
    await page.getByTestId("dashboard-header").locator("textarea").press("Enter");
    await page
      .getByText("It seems like the dashboard has been modified by another user.")
      .waitFor();
    await page.getByText("Please copy/backup your changes and reload this page.").waitFor();
    await poll(() => page.getByTestId("dashboard-title").textContent()).toBe("My careful title");
    await screenshot(page, "dashboard-defects-conflict");
  });

  it("a Refresh without network shows the error and the old result's time, not Updated just now", async () => {
    const board = await createDashboardWithWidget(app.api, "Defects offline", tableId, {
      published: true,
    });
    const { page, context } = await signedIn(OFFLINE_ERRORS);
    await page.goto(`/dashboards/${board.id}-${board.slug}`);
    await waitForWidgetsDrawn(page, 1);
    await poll(() => footer(page).textContent()).toMatch(/^Updated /);
    await context.setOffline(true);
    await page.getByTestId("dashboard-refresh").click();
    await poll(() => footer(page).textContent()).toMatch(/^Refresh failed/);
    expect(await footer(page).textContent()).not.toContain("Updated");
    await screenshot(page, "dashboard-defects-refresh-offline");
    await context.setOffline(false);
  });

  it("the leave question is one dialog with its title shown once", async () => {
    const board = await createDashboardWithWidget(app.api, "Defects leave", tableId, {
      published: true,
    });
    const { page } = await signedIn();
    // Layout saves never answer, so the page still has unsaved changes when Back is pressed.
    await page.route("**/api/widgets/**", (route) =>
      route.request().method() === "GET" ? route.continue() : undefined,
    );
    await page.goto("/dashboards");
    await page.getByTestId("dashboards-table").getByText("Defects leave").click();
    await waitForWidgetsDrawn(page, 1);
    await page.getByTestId("dashboard-more").click();
    await page.getByRole("menuitem", { name: "Edit" }).click();
    await page.getByTestId("done-editing").waitFor();
    await dragResizeHandle(widgetCell(page, board.widget), 300);
    await poll(() => page.getByTestId("save-status").textContent()).not.toBe("Saved");
    await page.goBack();
    await page.locator(".ant-modal-confirm").waitFor();
    await animationsSettled(page);
    // antd's confirm also keeps the title in its hidden header: that copy is the dialog's
    // accessible name (aria-labelledby), not a second dialog.
    const leave = "You will lose your changes if you leave";
    expect(await page.locator(".ant-modal-confirm").count()).toBe(1);
    expect(await page.getByRole("dialog", { name: leave }).count()).toBe(1);
    expect(await page.getByText(leave).filter({ visible: true }).count()).toBe(1);
    await screenshot(page, "dashboard-defects-leave");
  });

  for (const viewport of [DESKTOP, PHONE]) {
    it(`an empty dashboard in edit mode has no tall empty grid box (${viewport.width}px)`, async () => {
      const board = await createDashboard(app.api, `Defects empty ${viewport.width}`);
      const { page } = await signedIn([], viewport);
      await page.goto(`/dashboards/${board.id}-${board.slug}?edit`);
      await page.getByTestId("done-editing").waitFor();
      await animationsSettled(page);
      await screenshot(page, `dashboard-defects-empty-edit-${viewport.width}`);
      // The add panel says what goes here; no empty dashed grid box above it.
      await page.getByTestId("add-widget-panel").waitFor();
      expect(await page.getByTestId("dashboard-grid").count()).toBe(0);
    });
  }
});
