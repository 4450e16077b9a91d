// Version history in the browser (issue 29): a query changed three times, two versions compared,
// one restored and the restore undone; unsaved text kept by a restore; the save conflict's
// "compare with the saved version"; a dashboard rearranged, then restored. Desktop and phone.
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { Page } from "playwright-core";
import { BOTH_VIEWPORTS, DESKTOP, PHONE, animationsSettled, screenshot } from "./browser";
import { useBrowserApp } from "./fixtures/browserApp";
import { dataSourceIdByName } from "./fixtures/demo";
import { pollFor } from "./fixtures/poll";
import { createQuery } from "./fixtures/queries";
import {
  addTextboxWidget,
  createDashboard,
  dragResizeHandle,
  waitForBoxSettled,
  widgetCell,
} from "./fixtures/dashboards";

// The machine is shared: give slow moments room, but each wait stays bounded.
vi.setConfig({ testTimeout: 120_000 });
const poll = pollFor(20_000);

const TEXTS = [
  "select 1 as one",
  "select 1 as one,\n  2 as two",
  "select {{ region }} as region,\n  2 as two",
  "select {{ region }} as region,\n  2 as two,\n  3 as three",
];

describe("version history in the browser", () => {
  const app = useBrowserApp();
  let demoId: number;

  beforeAll(async () => {
    demoId = await dataSourceIdByName(app.api, "Demo");
  }, 60_000);

  const editor = (page: Page) => page.locator("[data-testid=query-editor] .cm-content");
  const editorText = (page: Page) => editor(page).evaluate((e) => (e as HTMLElement).innerText);
  const history = (page: Page) => page.locator("[data-testid=version-history]");

  /** Replaces the editor's whole text as a paste does, in one edit. */
  async function pasteOver(page: Page, text: string) {
    await editor(page).click();
    await page.keyboard.press("Control+a");
    await page.keyboard.insertText(text);
  }

  async function saveText(page: Page, text: string) {
    await pasteOver(page, text);
    await page.keyboard.press("Control+s");
    await poll(() =>
      page.locator(".ant-notification-notice", { hasText: "Query saved" }).count(),
    ).toBeGreaterThan(0);
    await page
      .locator(".ant-notification-notice-close")
      .first()
      .click()
      .catch(() => undefined);
  }

  const savedQuery = async (id: number) =>
    (await app.api.get<{ query: string; version: number }>(`/api/queries/${id}`)).body;

  async function openHistory(page: Page) {
    await page.keyboard.press("Alt+h");
    await history(page).locator("[data-testid=version-list]").waitFor();
    await animationsSettled(page);
  }

  /** A query saved four times: its text, then three changes made in the editor. */
  async function queryWithVersions(page: Page, name: string) {
    const query = await createQuery(app.api, { name, sql: TEXTS[0]!, dataSourceId: demoId });
    await page.goto(`/queries/${query.id}/source`);
    await poll(() => editorText(page)).toContain("select 1");
    for (const text of TEXTS.slice(1)) await saveText(page, text);
    expect((await savedQuery(query.id)).query).toBe(TEXTS[3]);
    return query.id;
  }

  it("lists a query's versions, compares two, restores one and undoes the restore", async () => {
    const { page, context } = await app.openSignedIn(DESKTOP);
    const id = await queryWithVersions(page, "Revenue by region");
    const before = await savedQuery(id);

    // From the more-menu too; here the shortcut, which the menu names.
    await page.click("[data-testid=query-actions]");
    await expect
      .poll(() =>
        page.locator(".ant-dropdown-menu-item", { hasText: "Version History" }).textContent(),
      )
      .toContain("Alt+H");
    await page.keyboard.press("Escape");
    await openHistory(page);
    const rows = history(page).locator("[data-testid=version-list] li");
    await poll(() => rows.count()).toBeGreaterThanOrEqual(4);
    // Newest first; each row sums up its change against the one before it.
    const summaries = history(page).locator("[data-testid=version-summary]");
    await poll(() => summaries.nth(1).textContent()).toBe("Text changed, 1 parameter added");
    expect(await summaries.nth(0).textContent()).toBe("Text changed");
    await poll(() => summaries.last().textContent()).toBe("Query created");
    expect(await rows.first().textContent()).toContain("Current");

    // The newest is shown, compared with the one before it: the text side by side, words marked.
    const detail = history(page).locator("[data-testid=version-detail]");
    await poll(() => detail.locator(".cm-mergeView").count()).toBe(1);
    await poll(() => detail.locator(".cm-changedText").count()).toBeGreaterThan(0);
    expect(await detail.locator("[data-testid=version-changes]").textContent()).toContain(
      "Query text changed",
    );

    // Another version, compared with the newest.
    const textVersions = await versionNumbers(page);
    const second = textVersions[textVersions.length - 2]!; // the "2 as two" version
    await history(page).locator(`[data-testid=version-${second}]`).click();
    await detail.locator("[data-testid=compare-with]").click();
    await page
      .locator(".ant-select-item-option", { hasText: `Version ${before.version} ` })
      .click();
    await poll(() => detail.locator("[data-testid=version-changes]").textContent()).toContain(
      'Parameter "region" added',
    );
    expect(await detail.locator("[data-testid=version-changes]").textContent()).toContain(
      `From version ${second} to version ${before.version}`,
    );
    const sides = detail.locator(".cm-mergeView .cm-content");
    await poll(() => sides.count()).toBe(2);
    expect(await sides.nth(0).innerText()).toContain("1 as one");
    expect(await sides.nth(1).innerText()).toContain("3 as three");
    await screenshot(page, "version-history-query-desktop", { fullPage: false });

    // Restore it: asked first, then the editor shows it, saved as a new version.
    await detail.locator("[data-testid=restore-version]").click();
    const confirm = page.locator(".ant-modal-confirm");
    await poll(() => confirm.textContent()).toContain(`Restore version ${second}?`);
    await confirm.getByRole("button", { name: "Restore" }).click();
    await poll(() => editorText(page)).toBe(TEXTS[1]);
    const restored = await savedQuery(id);
    expect(restored.query).toBe(TEXTS[1]);
    expect(restored.version).toBeGreaterThan(before.version);
    const notice = page.locator(".ant-notification-notice", {
      hasText: `Version ${second} restored`,
    });
    await notice.waitFor();
    await screenshot(page, "version-history-restored-desktop", { fullPage: false });

    // Undo: the version that was current before comes back.
    await notice.locator("[data-testid=undo-restore]").click();
    await poll(() => editorText(page)).toBe(TEXTS[3]);
    const undone = await savedQuery(id);
    expect(undone.query).toBe(TEXTS[3]);
    expect(undone.version).toBeGreaterThan(restored.version);

    // The page saves on from the restored version without a conflict.
    await saveText(page, `${TEXTS[3]}\n-- after undo`);
    expect((await savedQuery(id)).query).toContain("after undo");

    // Open as new query: a new query from that version's text, in a new tab.
    await openHistory(page);
    await history(page).locator(`[data-testid=version-${second}]`).click();
    const [tab] = await Promise.all([
      context.waitForEvent("page"),
      history(page).getByRole("button", { name: "Open as new query" }).click(),
    ]);
    await tab.waitForURL(/\/queries\/\d+\/source/);
    await poll(() => editorText(tab)).toBe(TEXTS[1]);
    expect(await tab.getByTestId("query-name").textContent()).toBe(
      `Revenue by region (version ${second})`,
    );
    await context.close();

    async function versionNumbers(p: Page): Promise<number[]> {
      const ids = await history(p)
        .locator("[data-testid=version-list] li button")
        .evaluateAll((buttons) => buttons.map((b) => b.getAttribute("data-testid") ?? ""));
      return ids.map((t) => Number(t.replace("version-", "")));
    }
  });

  it("asks before a restore would replace unsaved text, and can save it first", async () => {
    const { page, context } = await app.openSignedIn(DESKTOP);
    const id = await queryWithVersions(page, "Unsaved then restored");
    await pasteOver(page, "select 'typed, not saved' as draft");
    await openHistory(page);
    await history(page).locator("[data-testid=version-list] li button").last().click();
    await history(page).locator("[data-testid=restore-version]").click();
    const confirm = page.locator(".ant-modal-confirm");
    await poll(() => confirm.textContent()).toContain("changes that are not saved");
    await screenshot(page, "version-history-unsaved-question-desktop", { fullPage: false });
    await confirm.getByRole("button", { name: "Save them, then restore" }).click();
    await poll(() => editorText(page)).toBe(TEXTS[0]);
    // The typed text became a version of its own before the restore.
    const list = await app.api.get<{ results: { version: number }[] }>(
      `/api/queries/${id}/versions?page=1&page_size=3`,
    );
    const previous = list.body.results[1]!.version;
    const kept = await app.api.get<{ query: string }>(`/api/queries/${id}/versions/${previous}`);
    expect(kept.body.query).toBe("select 'typed, not saved' as draft");
    await context.close();
  });

  it.each(BOTH_VIEWPORTS)(
    "offers to compare with the saved version when a save conflicts ($name)",
    async ({ name, viewport }) => {
      const query = await createQuery(app.api, {
        name: "Saved from two tabs",
        sql: "select 1 as one",
        dataSourceId: demoId,
      });
      const first = await app.openSignedIn(viewport);
      await first.page.goto(`/queries/${query.id}/source`);
      await poll(() => editorText(first.page)).toContain("select 1");
      // Another tab saves first.
      const saved = await app.api.post(`/api/queries/${query.id}`, {
        query: "select 1 as one, 'theirs' as who",
        version: (await savedQuery(query.id)).version,
      });
      expect(saved.status, saved.text).toBe(200);

      await pasteOver(first.page, "select 1 as one, 'mine' as who");
      await first.page.keyboard.press("Control+s");
      const question = first.page.locator(".ant-modal-confirm", { hasText: "Overwrite Query" });
      await question.waitFor();
      await animationsSettled(first.page);
      await screenshot(first.page, `version-conflict-question-${name}`, { fullPage: false });
      await question.locator("[data-testid=compare-with-saved]").click();
      const compare = first.page.locator("[data-testid=saved-version-compare]");
      // Side by side on a desktop; one column on a phone, the saved lines above the user's.
      const text = () => compare.locator("[data-testid=query-text-diff]").innerText();
      await poll(text).toContain("mine");
      expect(await text()).toContain("theirs");
      if (name === "desktop") {
        expect(await compare.locator(".cm-mergeView .cm-content").count()).toBe(2);
      } else {
        expect(await compare.locator(".cm-deletedChunk").count()).toBeGreaterThan(0);
      }
      await animationsSettled(first.page);
      await screenshot(first.page, `version-conflict-compare-${name}`, { fullPage: false });
      await compare.getByRole("button", { name: "Overwrite with mine" }).click();
      await poll(async () => (await savedQuery(query.id)).query).toContain("mine");
      await first.context.close();
    },
  );

  it("fits the history and the comparison on a phone", async () => {
    const { page, context } = await app.openSignedIn(PHONE);
    const id = await queryWithVersions(page, "Phone history");
    await openHistory(page);
    const box = await history(page).locator(".ant-modal-container").boundingBox();
    expect(box!.width).toBeGreaterThan(PHONE.width - 2);
    await screenshot(page, "version-history-query-phone", { fullPage: false });
    await history(page).locator("[data-testid=version-list] li button").nth(1).click();
    const detail = history(page).locator("[data-testid=version-detail]");
    // One column: the older lines shown inline above the newer ones.
    await poll(() => detail.locator(".cm-deletedChunk").count()).toBeGreaterThan(0);
    await animationsSettled(page);
    await screenshot(page, "version-history-query-detail-phone", { fullPage: false });
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth > window.innerWidth + 1,
    );
    expect(overflow).toBe(false);
    await detail.getByRole("button", { name: "All versions" }).click();
    await history(page).locator("[data-testid=version-list]").waitFor();
    expect(id).toBeGreaterThan(0);
    await context.close();
  });

  interface BoardWidget {
    id: number;
    text: string;
    options: { position: { col: number; row: number; sizeX: number; sizeY: number } };
  }
  const boardWidgets = async (id: number) =>
    (await app.api.get<{ widgets: BoardWidget[]; version: number }>(`/api/dashboards/${id}`)).body;
  const places = async (id: number) =>
    Object.fromEntries(
      (await boardWidgets(id)).widgets.map((w) => [
        w.text.split("\n")[0],
        [w.options.position.col, w.options.position.row, w.options.position.sizeY],
      ]),
    );

  /** A dashboard of two text boxes side by side, then one made taller in the browser and the other moved under it. */
  async function rearrangedDashboard(page: Page, name: string) {
    const board = await createDashboard(app.api, name, { published: true });
    const sales = await addTextboxWidget(app.api, board.id, "## Sales\nOrders and revenue", {
      position: { col: 0, row: 0, sizeX: 3, sizeY: 4 },
    });
    const costs = await addTextboxWidget(app.api, board.id, "## Costs\nShipping and returns", {
      position: { col: 3, row: 0, sizeX: 3, sizeY: 4 },
    });
    const original = await places(board.id);
    await page.goto(`/dashboards/${board.id}-${board.slug}?edit`);
    await page.getByTestId("done-editing").waitFor();
    await dragResizeHandle(widgetCell(page, sales), 120);
    await poll(async () => (await places(board.id))["## Sales"]![2]).toBeGreaterThan(4);
    await poll(() => page.getByTestId("save-status").textContent()).toBe("Saved");
    await page.getByTestId("done-editing").click();
    await page.getByTestId("done-editing").waitFor({ state: "detached" });
    // Another editor moves the other box under the first.
    const moved = await app.api.post(`/api/widgets/${costs}`, {
      text: "## Costs\nShipping and returns",
      options: { position: { col: 0, row: 10, sizeX: 3, sizeY: 4 } },
    });
    expect(moved.status, moved.text).toBe(200);
    await page.reload();
    await widgetCell(page, costs).waitFor();
    return { board, sales, costs, original, rearranged: await places(board.id) };
  }

  async function openDashboardHistory(page: Page) {
    await page.getByTestId("dashboard-more").click();
    await page.getByRole("menuitem", { name: "Version History" }).click();
    await history(page).locator("[data-testid=version-list]").waitFor();
    await animationsSettled(page);
  }

  it("shows a rearranged dashboard's versions in words and small layouts, restores one, undoes it", async () => {
    const { page, context } = await app.openSignedIn(DESKTOP);
    const { board, sales, costs, original, rearranged } = await rearrangedDashboard(
      page,
      "Weekly numbers",
    );
    expect(rearranged).not.toEqual(original);
    await openDashboardHistory(page);
    const summaries = history(page).locator("[data-testid=version-summary]");
    await poll(() => summaries.nth(0).textContent()).toBe("1 text box moved");
    await poll(() => summaries.nth(1).textContent()).toBe("1 text box resized");
    await poll(() => summaries.nth(2).textContent()).toBe("1 text box added");
    const detail = history(page).locator("[data-testid=version-detail]");
    await poll(() => detail.locator("[data-testid=version-changes]").textContent()).toContain(
      'Text box "Costs Shipping and returns" moved left 3 columns and down 10 rows',
    );
    // The two layouts drawn small; the moved box marked.
    await poll(() => detail.locator("[data-testid=layout-preview]").count()).toBe(2);
    expect(
      await detail
        .locator("[data-testid=layout-preview]")
        .nth(1)
        .locator("[data-mark=moved]")
        .count(),
    ).toBe(1);

    // The version with both boxes side by side, before the two changes.
    const buttons = history(page).locator("[data-testid=version-list] li button");
    await buttons.nth(2).click();
    await poll(() => detail.locator("[data-testid=version-changes]").textContent()).toContain(
      "added",
    );
    await screenshot(page, "version-history-dashboard-desktop", { fullPage: false });
    await detail.locator("[data-testid=restore-version]").click();
    const confirm = page.locator(".ant-modal-confirm");
    await poll(() => confirm.textContent()).toContain("Restore version");
    await confirm.getByRole("button", { name: "Restore" }).click();
    await poll(() => places(board.id)).toEqual(original);
    // The page shows the boxes side by side again.
    const x = async (id: number) => (await widgetCell(page, id).boundingBox())?.x ?? -1;
    await waitForBoxSettled(widgetCell(page, costs));
    await poll(async () => (await x(costs)) > (await x(sales))).toBe(true);
    const notice = page.locator(".ant-notification-notice", { hasText: "restored" });
    await notice.waitFor();
    await screenshot(page, "version-history-dashboard-restored-desktop", { fullPage: false });

    await notice.locator("[data-testid=undo-restore]").click();
    await poll(() => places(board.id)).toEqual(rearranged);
    await poll(async () => (await x(costs)) === (await x(sales))).toBe(true);

    // Archived, it keeps its history to read, without Restore.
    const archived = await app.api.request("DELETE", `/api/dashboards/${board.id}`);
    expect(archived.status, archived.text).toBe(200);
    await page.reload();
    await page
      .getByTestId("dashboard-header")
      .getByRole("button", { name: "Version History" })
      .click();
    await poll(() =>
      history(page).locator("[data-testid=version-summary]").count(),
    ).toBeGreaterThan(3);
    await history(page).locator("[data-testid=version-detail]").waitFor();
    expect(await history(page).locator("[data-testid=restore-version]").count()).toBe(0);
    await context.close();
  });

  it("links the dashboard's conflict banner to the history, which shows the other save", async () => {
    const board = await createDashboard(app.api, "Edited twice", { published: true });
    const { page, context } = await app.openSignedIn(DESKTOP);
    await page.goto(`/dashboards/${board.id}-${board.slug}?edit`);
    await page.getByTestId("dashboard-title").getByRole("button").click();
    const other = await app.api.post(`/api/dashboards/${board.id}`, { tags: ["other"] });
    expect(other.status, other.text).toBe(200);
    await page.getByTestId("dashboard-header").locator("textarea").fill("My title");
    await page.getByTestId("dashboard-header").locator("textarea").press("Enter");
    const banner = page.locator(".ant-alert", { hasText: "modified by another user" });
    await banner.getByRole("button", { name: "Version History" }).click();
    const summaries = history(page).locator("[data-testid=version-summary]");
    await poll(() => summaries.first().textContent()).toBe("Tags changed");
    await context.close();
  });

  it("fits the dashboard's history on a phone", async () => {
    const desk = await app.openSignedIn(DESKTOP);
    const { board } = await rearrangedDashboard(desk.page, "Phone board");
    await desk.context.close();
    const { page, context } = await app.openSignedIn(PHONE);
    await page.goto(`/dashboards/${board.id}-${board.slug}`);
    await page.getByTestId("dashboard-title").waitFor();
    await openDashboardHistory(page);
    await screenshot(page, "version-history-dashboard-phone", { fullPage: false });
    await history(page).locator("[data-testid=version-list] li button").first().click();
    const detail = history(page).locator("[data-testid=version-detail]");
    await poll(() => detail.locator("[data-testid=layout-preview]").count()).toBe(2);
    await animationsSettled(page);
    await screenshot(page, "version-history-dashboard-detail-phone", { fullPage: false });
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth > window.innerWidth + 1,
    );
    expect(overflow).toBe(false);
    await context.close();
  });
});
