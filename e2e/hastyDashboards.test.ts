// Hasty users on dashboards: the habits real users have (Enter at once, double clicks, Back, a
// lost network, odd addresses) while creating, editing and viewing a dashboard. Every flow also
// fails on an uncaught page error or a console error.
import { beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { animationsSettled, screenshot } from "./browser";
import { useBrowserApp } from "./fixtures/browserApp";
import { OFFLINE_ERRORS, useWatchedSessions } from "./fixtures/watchedSessions";
import { demoDataSourceId } from "./fixtures/demo";
import { createQuery, runQueryToEnd } from "./fixtures/queries";
import {
  addTextboxWidget,
  addVisualizationWidget,
  createDashboard,
  createDashboardWithWidget,
  dragResizeHandle,
  leaveQuestionSeen,
  waitForWidgetsDrawn,
  watchLeaveQuestion,
  widgetCell,
} from "./fixtures/dashboards";
import { pollFor } from "./fixtures/poll";

const poll = pollFor(20_000);

interface SavedDashboard {
  id: number;
  name: string;
  slug: string;
  is_archived: boolean;
  is_favorite: boolean;
  widgets: { id: number; text: string; options: { position: { sizeY: number } } }[];
}

describe("hasty users on dashboards", () => {
  const app = useBrowserApp();
  const { signedIn } = useWatchedSessions(app);
  let demoId: number;
  let tableId: number;

  beforeAll(async () => {
    demoId = await demoDataSourceId(app.api);
    const query = await createQuery(app.api, {
      name: "Hasty board orders",
      sql: "SELECT 'Jan' AS month, 120 AS orders UNION ALL SELECT 'Feb', 80",
      dataSourceId: demoId,
      published: true,
    });
    tableId = query.visualizations[0]!.id;
    await runQueryToEnd(app.api, query.id);
  }, 120_000);

  const getDashboard = async (id: number) =>
    (await app.api.get<SavedDashboard>(`/api/dashboards/${id}`)).body;
  const dashboardsNamed = async (name: string) =>
    (
      await app.api.get<{ results: { name: string }[] }>(
        `/api/dashboards?q=${encodeURIComponent(name)}&page_size=100`,
      )
    ).body.results.filter((d) => d.name === name).length;

  it("a name typed and Enter pressed twice at once, or Create double-clicked, makes one dashboard", async () => {
    const { page } = await signedIn();
    await page.getByTestId("create-menu").click();
    await page.getByRole("menuitem", { name: "Dashboard", exact: true }).click();
    await page.getByTestId("new-dashboard-name").fill("Hasty enter");
    await page.keyboard.press("Enter");
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/dashboards\/\d+-hasty-enter\?edit/);
    await poll(() => page.getByTestId("save-status").textContent()).toBe("Saved");

    await page.goto("/dashboards");
    await page.getByTestId("create-menu").click();
    await page.getByRole("menuitem", { name: "Dashboard", exact: true }).click();
    await page.getByTestId("new-dashboard-name").fill("Hasty double");
    await page.getByTestId("new-dashboard-save").dblclick();
    await page.waitForURL(/\/dashboards\/\d+-hasty-double\?edit/);
    // Settle: a late second create would show up now.
    await page.waitForTimeout(1500);
    expect(await dashboardsNamed("Hasty enter")).toBe(1);
    expect(await dashboardsNamed("Hasty double")).toBe(1);
  });

  it("a text box saved with Ctrl+Enter then a double click, and Add double-clicked, add one widget each", async () => {
    const board = await createDashboard(app.api, "Hasty widgets");
    const { page } = await signedIn();
    await page.goto(`/dashboards/${board.id}-${board.slug}?edit`);
    await page.getByRole("button", { name: "Add Textbox" }).click();
    await animationsSettled(page);
    await page.getByTestId("textbox-text").fill("Hello **hasty**");
    await page.getByTestId("textbox-text").press("Control+Enter");
    await page
      .getByTestId("textbox-save")
      .dblclick({ timeout: 1000 })
      .catch(() => undefined);
    await poll(() => page.locator("[data-widget-type=textbox]").count()).toBe(1);

    await page.getByRole("button", { name: "Add Widget" }).click();
    await animationsSettled(page);
    await page.getByPlaceholder("Search a query by name").fill("Hasty board");
    await page.getByTestId("add-widget-query").filter({ hasText: "Hasty board orders" }).click();
    await poll(() => page.getByTestId("add-widget-visualization").textContent()).toContain("Table");
    await page.getByTestId("add-widget-save").dblclick();
    await waitForWidgetsDrawn(page, 1);
    await poll(() => page.getByTestId("save-status").textContent()).toBe("Saved");
    await page.waitForTimeout(1500);
    expect((await getDashboard(board.id)).widgets).toHaveLength(2);
    expect(await page.locator("[data-widget-type]").count()).toBe(2);
  });

  it("title: Escape cancels, an empty title is refused, Enter and blur save, two quick renames keep the last", async () => {
    const board = await createDashboard(app.api, "Hasty title");
    const { page } = await signedIn();
    await page.goto(`/dashboards/${board.id}-${board.slug}?edit`);
    const title = page.getByTestId("dashboard-title");
    const textarea = page.getByTestId("dashboard-header").locator("textarea");

    await title.getByRole("button").click();
    await textarea.fill("Not this one");
    await textarea.press("Escape");
    await poll(() => title.textContent()).toBe("Hasty title");

    await title.getByRole("button").click();
    await textarea.fill("   ");
    await textarea.press("Enter");
    await poll(() => title.textContent()).toBe("Hasty title");
    expect((await getDashboard(board.id)).name).toBe("Hasty title");

    await title.getByRole("button").click();
    await textarea.fill("Hasty first");
    await textarea.press("Enter");
    await title.getByRole("button").click();
    await textarea.fill("Hasty second");
    await textarea.press("Enter");
    await poll(async () => (await getDashboard(board.id)).name).toBe("Hasty second");
    await page.waitForURL(new RegExp(`/dashboards/${board.id}-hasty-second`));
    await poll(() => title.textContent()).toBe("Hasty second");

    // Blur saves.
    await title.getByRole("button").click();
    await textarea.fill("Hasty blurred");
    await page.getByTestId("save-status").click();
    await poll(async () => (await getDashboard(board.id)).name).toBe("Hasty blurred");
    await page.waitForTimeout(1000);
    expect((await getDashboard(board.id)).name).toBe("Hasty blurred");
  });

  it("a layout save without network says Saving Failed; Retry once it is back saves it", async () => {
    const board = await createDashboardWithWidget(app.api, "Hasty offline", tableId);
    const { page, context } = await signedIn(OFFLINE_ERRORS);
    await page.goto(`/dashboards/${board.id}-${board.slug}?edit`);
    await waitForWidgetsDrawn(page, 1);
    await context.setOffline(true);
    await dragResizeHandle(widgetCell(page, board.widget), 300);
    await poll(() => page.getByTestId("save-status").textContent()).toBe("Saving Failed");
    await screenshot(page, "hasty-dashboard-saving-failed");
    await context.setOffline(false);
    await page.getByRole("button", { name: "Retry" }).click();
    await poll(() => page.getByTestId("save-status").textContent()).toBe("Saved");
    const saved = (await getDashboard(board.id)).widgets[0]!;
    expect(saved.options.position.sizeY).toBeGreaterThan(8);
    await page.getByTestId("done-editing").click();
    await page.waitForURL((url) => !url.search.includes("edit"));
  });

  it("a resize then Done Editing at once waits for the save and keeps the new size", async () => {
    const board = await createDashboardWithWidget(app.api, "Hasty done", tableId);
    const { page } = await signedIn();
    // A slow network: layout saves take a second.
    await page.route(/\/api\/dashboards\/\d+$/, async (route) => {
      if (route.request().method() === "POST") await new Promise((r) => setTimeout(r, 1000));
      await route.continue();
    });
    await page.goto(`/dashboards/${board.id}-${board.slug}?edit`);
    await waitForWidgetsDrawn(page, 1);
    await dragResizeHandle(widgetCell(page, board.widget), 300);
    await page.getByTestId("done-editing").click();
    await page.waitForURL((url) => !url.search.includes("edit"));
    const saved = (await getDashboard(board.id)).widgets[0]!;
    expect(saved.options.position.sizeY).toBeGreaterThan(8);
  });

  it("favorite star double-clicked ends where the server is; an archived dashboard's address says so", async () => {
    const board = await createDashboard(app.api, "Hasty star", { published: true });
    const { page } = await signedIn();
    await page.goto(`/dashboards/${board.id}-${board.slug}`);
    const star = page.getByTestId("dashboard-header").getByTestId("favorite-star");
    await star.dblclick();
    // The star ends showing what the server holds, however late the second toggle lands (both
    // are read afresh on each try: a loaded machine answers the toggles slowly).
    await poll(
      async () =>
        ((await star.getAttribute("aria-pressed")) === "true") ===
        (await getDashboard(board.id)).is_favorite,
    ).toBe(true);
    await page.waitForTimeout(500);
    const server = (await getDashboard(board.id)).is_favorite;
    expect((await star.getAttribute("aria-pressed")) === "true").toBe(server);
    await star.click();
    await poll(async () => (await getDashboard(board.id)).is_favorite).toBe(!server);

    await page.getByTestId("dashboard-more").click();
    await page.getByRole("menuitem", { name: "Archive" }).click();
    await page.getByRole("button", { name: "Archive", exact: true }).click();
    await poll(() => page.getByTestId("dashboard-header").textContent()).toContain("Archived");
    await page.goBack();
    await page.goForward();
    await poll(() => page.getByTestId("dashboard-header").textContent()).toContain("Archived");
    expect(await page.getByTestId("dashboard-more").count()).toBe(0);
    await page.goto(`/dashboards/${board.id}-${board.slug}?edit`);
    await poll(() => page.getByTestId("dashboard-header").textContent()).toContain("Archived");
    expect(await page.getByTestId("done-editing").count()).toBe(0);
  });

  it("odd addresses (a malformed cf, unknown parameter values) show the dashboard, no crash", async () => {
    const board = await createDashboardWithWidget(app.api, "Hasty address", tableId, {
      published: true,
    });
    await addTextboxWidget(app.api, board.id, "Still here");
    const { page } = await signedIn();
    for (const search of [
      "?cf=%7Bnot-json",
      "?cf=[1,2]",
      "?cf=%7B%22a%22%3A5%7D",
      "?p_nope=1&p_x=%ZZ",
    ]) {
      await page.goto(`/dashboards/${board.id}-${board.slug}${search}`);
      await waitForWidgetsDrawn(page, 1);
      await poll(() => page.locator("[data-widget-type=textbox]").textContent()).toContain(
        "Still here",
      );
    }
  });

  it("auto refresh picked, then leaving and coming back, runs one timer", async () => {
    const board = await createDashboardWithWidget(app.api, "Hasty timers", tableId, {
      published: true,
    });
    const { page } = await signedIn();
    await page.clock.install();
    let refreshes = 0;
    page.on("request", (r) => {
      if (r.method() === "POST" && /\/api\/queries\/\d+\/results/.test(r.url())) refreshes += 1;
    });
    await page.goto(`/dashboards/${board.id}-${board.slug}`);
    await waitForWidgetsDrawn(page, 1);
    await page.getByRole("button", { name: "Refresh interval" }).click();
    await page.getByRole("menuitem", { name: "Every minute" }).click();
    await poll(() => page.getByTestId("dashboard-refresh").textContent()).toBe("Every minute");
    await page.goto("/dashboards");
    await page.goBack();
    await waitForWidgetsDrawn(page, 1);
    await page.goto("/queries");
    await page.goBack();
    await waitForWidgetsDrawn(page, 1);
    refreshes = 0;
    await page.clock.runFor(61_000);
    await page.waitForTimeout(1500);
    expect(refreshes).toBe(1);
  });

  it("Edit, a resize, then Back at once saves the resize and then leaves, without a question", async () => {
    const board = await createDashboardWithWidget(app.api, "Hasty back", tableId, {
      published: true,
    });
    const { page } = await signedIn();
    await page.goto("/dashboards");
    await page.getByTestId("dashboards-table").getByText("Hasty back").click();
    await waitForWidgetsDrawn(page, 1);
    await page.getByTestId("dashboard-more").click();
    await page.getByRole("menuitem", { name: "Edit" }).click();
    await page.getByTestId("done-editing").waitFor();
    await watchLeaveQuestion(page);
    await dragResizeHandle(widgetCell(page, board.widget), 300);
    await page.goBack();
    // Issue 25: the page waits for the save it still had to make, then goes back.
    await page.waitForURL((url) => url.pathname === "/dashboards");
    await poll(
      async () => (await getDashboard(board.id)).widgets[0]!.options.position.sizeY,
    ).toBeGreaterThan(8);
    expect(await leaveQuestionSeen(page)).toBe(false);
  });

  it("a resize then leaving the document at once (Back to another site, reload) asks the browser's question", async () => {
    const board = await createDashboardWithWidget(app.api, "Hasty unload", tableId);
    const { page } = await signedIn();
    const dialogs: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.type());
      void dialog.dismiss();
    });
    await page.goto(`/dashboards/${board.id}-${board.slug}?edit`);
    await waitForWidgetsDrawn(page, 1);
    await dragResizeHandle(widgetCell(page, board.widget), 300);
    // The question dismissed, the reload never happens: its promise would wait out its timeout.
    void page.reload().catch(() => undefined);
    await poll(() => dialogs).toContain("beforeunload");
  });

  it("two tabs renaming the same dashboard: the second says it was modified, and the text stays", async () => {
    const board = await createDashboard(app.api, "Hasty two tabs");
    const first = await signedIn();
    const second = await signedIn([/409/]);
    for (const { page } of [first, second]) {
      await page.goto(`/dashboards/${board.id}-${board.slug}?edit`);
      await page.getByTestId("save-status").waitFor();
    }
    const rename = async (page: Page, name: string) => {
      await page.getByTestId("dashboard-title").getByRole("button").click();
      await page.getByTestId("dashboard-header").locator("textarea").fill(name);
      await page.keyboard.press("Enter");
    };
    await rename(first.page, "Hasty tab one");
    await poll(async () => (await getDashboard(board.id)).name).toBe("Hasty tab one");
    // The second tab's rename is held until Done Editing has been clicked, which waits for it:
    // refused, it keeps edit mode with the typed title.
    let letThrough!: () => void;
    const held = new Promise<void>((resolve) => (letThrough = resolve));
    await second.page.route(/\/api\/dashboards\/\d+$/, async (route) => {
      if (route.request().method() === "POST") await held;
      await route.continue();
    });
    await rename(second.page, "Hasty tab two");
    await second.page.getByTestId("done-editing").click();
    await poll(() => second.page.getByTestId("save-status").textContent()).toBe("Saving");
    letThrough();
    const conflict = second.page.getByText(
      "It seems like the dashboard has been modified by another user.",
    );
    await conflict.waitFor();
    await poll(() => second.page.getByTestId("save-status").textContent()).toBe("Saved");
    expect(new URL(second.page.url()).searchParams.has("edit")).toBe(true);
    expect(await second.page.getByTestId("done-editing").count()).toBe(1);
    expect(await second.page.getByTestId("dashboard-title").textContent()).toBe("Hasty tab two");
    await second.page.waitForTimeout(6000);
    expect(await conflict.count()).toBeGreaterThan(0);
    expect(
      await second.page.getByText("Please copy/backup your changes and reload this page.").count(),
    ).toBeGreaterThan(0);
    await screenshot(second.page, "hasty-dashboard-conflict");
    expect((await getDashboard(board.id)).name).toBe("Hasty tab one");

    // Widgets added in both tabs are all kept.
    for (const { page } of [first, second]) {
      await page.reload();
      await page.getByRole("button", { name: "Add Textbox" }).click();
      await animationsSettled(page);
      await page.getByTestId("textbox-text").fill("From a tab");
      await page.getByTestId("textbox-save").click();
      await poll(() => page.locator("[data-widget-type=textbox]").count()).toBeGreaterThan(0);
    }
    await poll(async () => (await getDashboard(board.id)).widgets.length).toBe(2);
  });

  it("a widget removed in one tab while the other edits its parameters: a readable answer", async () => {
    const query = await createQuery(app.api, {
      name: "Hasty ranked",
      sql: "SELECT * FROM (VALUES ('Ann', 1), ('Bob', 2)) AS t(customer, rank) WHERE rank <= {{ max_rank }}",
      dataSourceId: demoId,
      published: true,
      options: { parameters: [{ name: "max_rank", title: "Max rank", type: "number", value: 2 }] },
    });
    const board = await createDashboard(app.api, "Hasty removed");
    const widget = await addVisualizationWidget(app.api, board.id, query.visualizations[0]!.id, {
      position: { col: 0, row: 0, sizeX: 3, sizeY: 8 },
      parameterMappings: {
        max_rank: {
          name: "max_rank",
          type: "widget-level",
          mapTo: "max_rank",
          value: null,
          title: "",
        },
      },
    });
    const { page } = await signedIn([/404/, /Failed to load resource/]);
    await page.goto(`/dashboards/${board.id}-${board.slug}?edit`);
    const card = page.locator(`[data-widget-id="${widget}"]`);
    await card.waitFor();
    await card.getByRole("button", { name: "Widget menu" }).click();
    await page.getByRole("menuitem", { name: "Edit Parameters" }).click();
    await animationsSettled(page);
    expect((await app.api.delete(`/api/widgets/${widget}`)).status).toBe(200);
    await page.getByRole("dialog").getByRole("button", { name: "OK" }).click();
    // It says what happened and what to do, not a server's generic "URL not found".
    await page
      .locator(".ant-notification")
      .getByText("This widget was removed from the dashboard, perhaps in another tab.", {
        exact: false,
      })
      .waitFor();
    await screenshot(page, "hasty-dashboard-removed-widget");
    expect(await page.locator(".ant-notification").textContent()).not.toContain("requested URL");
    await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
    // Removing it here too just takes it off the page: it is gone already.
    await card.getByRole("button", { name: "Widget menu" }).click();
    await page.getByRole("menuitem", { name: "Remove from Dashboard" }).click();
    await page.getByRole("button", { name: "Remove", exact: true }).click();
    await poll(() => card.count()).toBe(0);
    expect(await page.getByText("Widget cannot be updated").count()).toBe(0);
  });

  it("tags typed fast and OK double-clicked; one removed and saved at once", async () => {
    const board = await createDashboard(app.api, "Hasty tags");
    const { page } = await signedIn();
    await page.goto(`/dashboards/${board.id}-${board.slug}?edit`);
    await page.getByRole("button", { name: "Add tag" }).click();
    const tags = page.getByRole("combobox", { name: "Tags" });
    await tags.pressSequentially("alpha");
    await tags.press("Enter");
    await tags.pressSequentially("beta");
    await tags.press("Enter");
    await page.getByRole("dialog").getByRole("button", { name: "OK" }).dblclick();
    await poll(
      async () => (await app.api.get<{ tags: string[] }>(`/api/dashboards/${board.id}`)).body.tags,
    ).toEqual(["alpha", "beta"]);
    await poll(() => page.getByTestId("dashboard-header").textContent()).toContain("beta");

    await page.getByRole("button", { name: "Edit tags" }).click();
    await animationsSettled(page);
    await page.getByRole("dialog").locator(".ant-select-selection-item-remove").first().click();
    await page.getByRole("dialog").getByRole("button", { name: "OK" }).click();
    await poll(
      async () => (await app.api.get<{ tags: string[] }>(`/api/dashboards/${board.id}`)).body.tags,
    ).toEqual(["beta"]);
    await poll(() => page.getByTestId("dashboard-header").textContent()).not.toContain("alpha");
  });

  it("on a slow network, a rename then another rename and a tag at once: no conflict with itself", async () => {
    const board = await createDashboard(app.api, "Hasty slow");
    const { page } = await signedIn();
    await page.route(/\/api\/dashboards\/\d+$/, async (route) => {
      if (route.request().method() === "POST") await new Promise((r) => setTimeout(r, 1500));
      await route.continue();
    });
    await page.goto(`/dashboards/${board.id}-${board.slug}?edit`);
    const rename = async (name: string) => {
      await page.getByTestId("dashboard-title").getByRole("button").click();
      await page.getByTestId("dashboard-header").locator("textarea").fill(name);
      await page.keyboard.press("Enter");
    };
    await rename("Hasty slow one");
    await rename("Hasty slow two");
    await page.getByRole("button", { name: "Add tag" }).click();
    const tags = page.getByRole("combobox", { name: "Tags" });
    await tags.pressSequentially("slow");
    await tags.press("Enter");
    await page.getByRole("dialog").getByRole("button", { name: "OK" }).click();
    await page.waitForTimeout(5000);
    expect(await page.getByText("It seems like the dashboard has been modified").count()).toBe(0);
    const saved = await app.api.get<{ name: string; tags: string[] }>(
      `/api/dashboards/${board.id}`,
    );
    expect(saved.body).toMatchObject({ name: "Hasty slow two", tags: ["slow"] });
  });

  it("Add Widget, Add Textbox and Done Editing double-clicked open one dialog and leave once", async () => {
    const board = await createDashboard(app.api, "Hasty dialogs");
    const { page } = await signedIn();
    await page.goto(`/dashboards/${board.id}-${board.slug}?edit`);
    await page.getByRole("button", { name: "Add Widget" }).dblclick();
    await animationsSettled(page);
    expect(await page.locator(".ant-modal:visible").count()).toBe(1);
    await page.keyboard.press("Escape");
    await poll(() => page.locator(".ant-modal:visible").count()).toBe(0);
    await page.getByRole("button", { name: "Add Textbox" }).dblclick();
    await animationsSettled(page);
    expect(await page.locator(".ant-modal:visible").count()).toBe(1);
    await page.keyboard.press("Escape");
    await poll(() => page.locator(".ant-modal:visible").count()).toBe(0);
    await page.getByTestId("done-editing").dblclick();
    await page.waitForURL((url) => !url.search.includes("edit"));
    await page.waitForTimeout(500);
    expect(new URL(page.url()).search).not.toContain("edit");
  });

  it("Refresh without network says so in the widgets; Refresh once it is back shows the data", async () => {
    const board = await createDashboardWithWidget(app.api, "Hasty refresh offline", tableId, {
      published: true,
    });
    const { page, context } = await signedIn(OFFLINE_ERRORS);
    await page.goto(`/dashboards/${board.id}-${board.slug}`);
    await waitForWidgetsDrawn(page, 1);
    await context.setOffline(true);
    await page.getByTestId("dashboard-refresh").click();
    await poll(() => page.locator("[data-widget-type=visualization]").textContent()).toMatch(
      /Internet connection|communicating with server/,
    );
    await screenshot(page, "hasty-dashboard-refresh-offline");
    await context.setOffline(false);
    await poll(() => page.getByTestId("dashboard-refresh").isEnabled()).toBe(true);
    await page.getByTestId("dashboard-refresh").click();
    await waitForWidgetsDrawn(page, 1);
  });

  it("a rename then Done Editing at once keeps the new name and leaves edit mode", async () => {
    const board = await createDashboard(app.api, "Hasty rename done");
    const { page } = await signedIn();
    // A slow network: the rename is held until the test lets it through. Its new address once
    // brought ?edit back (seen as a waitForURL timeout in CI when the server was quick).
    let letThrough!: () => void;
    const held = new Promise<void>((resolve) => (letThrough = resolve));
    await page.route(/\/api\/dashboards\/\d+$/, async (route) => {
      if (route.request().method() === "POST") await held;
      await route.continue();
    });
    await page.goto(`/dashboards/${board.id}-${board.slug}?edit`);
    await page.getByTestId("dashboard-title").getByRole("button").click();
    await page.getByTestId("dashboard-header").locator("textarea").fill("Hasty renamed and done");
    // The click blurs the title (which saves it); Done Editing waits for that save to answer,
    // saying Saving meanwhile, so a refusal would still find the user in edit mode.
    await page.getByTestId("done-editing").click();
    await poll(() => page.getByTestId("save-status").textContent()).toBe("Saving");
    expect(new URL(page.url()).searchParams.has("edit")).toBe(true);
    letThrough();
    await poll(async () => (await getDashboard(board.id)).name).toBe("Hasty renamed and done");
    // The renamed address, out of edit mode, once the rename has answered.
    await page.waitForURL(
      (url) =>
        url.pathname === `/dashboards/${board.id}-hasty-renamed-and-done` &&
        !url.searchParams.has("edit"),
    );
    await poll(() => page.getByTestId("done-editing").count()).toBe(0);
    await poll(() => page.getByTestId("dashboard-title").textContent()).toBe(
      "Hasty renamed and done",
    );
    await page.reload();
    await poll(() => page.getByTestId("dashboard-title").textContent()).toBe(
      "Hasty renamed and done",
    );
  });

  describe("parameters, refresh, cross-filters, phone", () => {
    let board: { id: number; slug: string };
    let rankedWidget: number;
    let runs: string[];

    beforeAll(async () => {
      const ranked = await createQuery(app.api, {
        name: "Hasty params",
        sql: "SELECT * FROM (VALUES ('Ann', 1, 'DE'), ('Bob', 2, 'FR'), ('Cid', 3, 'DE')) AS t(customer, rank, country) WHERE rank <= {{ max_rank }} AND '{{ day }}' <> '' AND '{{ land }}' <> ''",
        dataSourceId: demoId,
        published: true,
        options: {
          parameters: [
            { name: "max_rank", title: "Max rank", type: "number", value: 3 },
            { name: "day", title: "Day", type: "date", value: "2026-01-05" },
            { name: "land", title: "Land", type: "enum", enumOptions: "DE\nFR", value: "DE" },
          ],
        },
      });
      board = await createDashboard(app.api, "Hasty parameters", { published: true });
      const mapping = (name: string) => ({
        name,
        type: "dashboard-level",
        mapTo: name,
        value: null,
        title: "",
      });
      rankedWidget = await addVisualizationWidget(app.api, board.id, ranked.visualizations[0]!.id, {
        position: { col: 0, row: 0, sizeX: 3, sizeY: 8 },
        parameterMappings: {
          max_rank: mapping("max_rank"),
          day: mapping("day"),
          land: mapping("land"),
        },
      });
      await addVisualizationWidget(app.api, board.id, tableId, {
        position: { col: 3, row: 0, sizeX: 3, sizeY: 8 },
      });
    }, 120_000);

    async function openBoard(search = "", viewport?: { width: number; height: number }) {
      const session = await signedIn([], viewport);
      runs = [];
      session.page.on("request", (r) => {
        if (r.method() === "POST" && /\/api\/queries\/\d+\/results$/.test(r.url()))
          runs.push(r.postData() ?? "");
      });
      await session.page.goto(`/dashboards/${board.id}-${board.slug}${search}`);
      await waitForWidgetsDrawn(session.page, 2);
      return session;
    }
    const ranked = (page: Page) => page.locator(`[data-widget-id="${rankedWidget}"]`);

    it("a value typed then Ctrl+Enter at once, or Apply double-clicked, applies it once", async () => {
      const { page } = await openBoard();
      const bar = page.getByTestId("dashboard-parameters");
      const input = bar.getByTestId("parameter-max_rank");
      await input.fill("1");
      await input.press("Control+Enter");
      await poll(() => ranked(page).getByRole("row").count()).toBe(2);
      expect(new URL(page.url()).searchParams.get("p_max_rank")).toBe("1");
      await input.fill("2");
      await input.press("Alt+Enter");
      await poll(() => ranked(page).getByRole("row").count()).toBe(3);
      await input.fill("3");
      runs = [];
      await page.getByTestId("apply-parameters").dblclick();
      await poll(() => ranked(page).getByRole("row").count()).toBe(4);
      await page.waitForTimeout(1500);
      expect(
        runs.filter((r) => r.includes('"max_rank":"3"') || r.includes('"max_rank":3')),
      ).toHaveLength(1);
    });

    it("a resize, Done Editing, then a value applied while the save is slow: the value stays", async () => {
      const { page } = await openBoard("?edit");
      // A slow network: the layout save answers after the value has been applied.
      await page.route(/\/api\/(widgets|dashboards)\/\d+$/, async (route) => {
        if (route.request().method() === "POST") await new Promise((r) => setTimeout(r, 1500));
        await route.continue();
      });
      await dragResizeHandle(widgetCell(page, rankedWidget), 100);
      await page.getByTestId("done-editing").click();
      const input = page.getByTestId("dashboard-parameters").getByTestId("parameter-max_rank");
      await input.fill("1");
      await input.press("Control+Enter");
      // Leaving edit mode once the save has answered keeps the value applied meanwhile (it used
      // to set the address back to what it was when Done Editing was clicked).
      await page.waitForURL((url) => !url.searchParams.has("edit"));
      expect(new URL(page.url()).searchParams.get("p_max_rank")).toBe("1");
      await poll(() => ranked(page).getByRole("row").count()).toBe(2);
    });

    it("invalid values in the address (a bad date, an unknown choice) show the dashboard", async () => {
      const session = await signedIn();
      const { page } = session;
      await page.goto(
        `/dashboards/${board.id}-${board.slug}?p_day=2026-13-45&p_land=XX&p_max_rank=abc`,
      );
      await page.getByText("Hasty board orders").waitFor();
      // An impossible date is not rolled over into another one (2026-13-45 is no 2027-02-14).
      const day = page.getByTestId("dashboard-parameters").getByLabel("Day");
      await poll(() => day.inputValue()).not.toBe("2027-02-14");
      expect(await day.inputValue()).toBe("");
      await screenshot(page, "hasty-dashboard-bad-parameters");
      expect(await page.getByTestId("dashboard-parameters").count()).toBe(1);
    });

    it("Refresh clicked rapidly runs each widget once; Fullscreen then Back", async () => {
      const { page } = await openBoard();
      runs = [];
      const refresh = page.getByTestId("dashboard-refresh");
      await refresh.dblclick();
      await poll(() => refresh.isEnabled()).toBe(true);
      await waitForWidgetsDrawn(page, 2);
      await page.waitForTimeout(1000);
      expect(runs).toHaveLength(2);

      await page.getByTestId("dashboard-fullscreen").click();
      await poll(() => new URL(page.url()).searchParams.has("fullscreen")).toBe(true);
      await page.goBack();
      await page.waitForTimeout(500);
      // Back leaves fullscreen or the page, never leaves a broken state.
      expect(await page.locator("body").textContent()).not.toContain("Something went wrong");
    });

    it("cross-filter: cells clicked fast filter by the last one; Back leaves the dashboard", async () => {
      const session = await signedIn();
      const { page } = session;
      await page.goto("/dashboards");
      await page.getByTestId("dashboards-table").getByText("Hasty parameters").click();
      await waitForWidgetsDrawn(page, 2);
      const cells = ranked(page);
      // One column: each click replaces the value (other columns would add a filter).
      await cells.getByRole("cell", { name: "Ann", exact: true }).click();
      await cells.getByRole("cell", { name: "Bob", exact: true }).click();
      await cells.getByRole("cell", { name: "Cid", exact: true }).click();
      await poll(() => new URL(page.url()).searchParams.get("cf") ?? "").toContain("Cid");
      expect(new URL(page.url()).searchParams.get("cf")).not.toContain("Bob");
      await page.goBack();
      await poll(() => new URL(page.url()).pathname).toBe("/dashboards");
    });

    it("on a phone: the widget menu, the parameters, the title editor", async () => {
      const { page } = await openBoard("?edit", { width: 390, height: 844 });
      await ranked(page).getByRole("button", { name: "Widget menu" }).click();
      await page.getByRole("menuitem", { name: "Edit Parameters" }).waitFor();
      await screenshot(page, "hasty-dashboard-phone-menu", { fullPage: false });
      await page.keyboard.press("Escape");
      await page.getByTestId("dashboard-title").getByRole("button").click();
      await page.getByTestId("dashboard-header").locator("textarea").waitFor();
      await screenshot(page, "hasty-dashboard-phone-title", { fullPage: false });
      await page.keyboard.press("Escape");
      await page.getByTestId("dashboard-parameters").scrollIntoViewIfNeeded();
      await screenshot(page, "hasty-dashboard-phone-parameters", { fullPage: false });
    });
  });
});
