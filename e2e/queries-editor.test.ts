import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { startTestServer, type TestServer } from "../packages/server/src/testing/testServer";
import { ADMIN, TestClient, setUpAndLogin } from "../packages/server/src/testing/httpClient";
import { TEST_PG_URL, randomName } from "../packages/server/src/testing/services";
import { DESKTOP, PHONE, launchBrowser, newPage, screenshot } from "./browser";
import { snapshotWebApp, useWebAppSnapshot } from "./queries-webapp";

// The machine is shared: give slow moments room, but each wait stays bounded.
vi.setConfig({ testTimeout: 90_000 });
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000, interval: 200 });

/** The query editor's schema browser, leave-page warning, notifications, permissions, phone dialogs. */
describe("query editor in the browser", () => {
  let server: TestServer;
  let browser: Browser;
  let api: TestClient;
  let webApp: string;
  let demoId: number;

  beforeAll(async () => {
    server = await startTestServer("sqlite");
    api = await setUpAndLogin(server.url);
    browser = await launchBrowser();
    webApp = await snapshotWebApp();
    const sources = (await api.get("/api/data_sources")).body as { id: number; name: string }[];
    demoId = sources.find((s) => s.name === "Demo")!.id;
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (webApp) fs.rmSync(webApp, { recursive: true, force: true });
  });

  async function signedIn(
    who: { email: string; password: string } = ADMIN,
    viewport = DESKTOP,
  ): Promise<{ page: Page; context: BrowserContext }> {
    const { page, context } = await newPage(browser, server.url, viewport);
    await useWebAppSnapshot(context, webApp);
    await page.goto("/login");
    await page.fill("#email", who.email);
    await page.fill("#password", who.password);
    await page.click("button[type=submit]");
    await page.waitForURL((url) => url.pathname === "/");
    return { page, context };
  }

  async function createQuery(body: Record<string, unknown>): Promise<{ id: number }> {
    const res = await api.post("/api/queries", { data_source_id: demoId, ...body });
    expect(res.status).toBe(200);
    return res.body as { id: number };
  }

  const editorText = (page: Page) =>
    page.locator("[data-testid=query-editor] .cm-content").textContent();

  it("browses a PostgreSQL source lazily: schemas, then tables, then columns", async () => {
    const schemaName = randomName("lazy").toLowerCase();
    const table = randomName("events").toLowerCase();
    const db = new pg.Client({ connectionString: TEST_PG_URL });
    await db.connect();
    let sourceId = 0;
    try {
      await db.query(`CREATE SCHEMA ${schemaName}`);
      await db.query(
        `CREATE TABLE ${schemaName}.${table} (id integer, label text, happened_at timestamptz)`,
      );
      const url = new URL(TEST_PG_URL);
      const created = await api.post("/api/data_sources", {
        name: `PG ${schemaName}`,
        type: "pg",
        options: {
          host: url.hostname,
          port: Number(url.port || 5432),
          user: decodeURIComponent(url.username),
          dbname: url.pathname.slice(1),
        },
      });
      expect(created.status).toBe(200);
      sourceId = (created.body as { id: number }).id;

      const { page, context } = await signedIn();
      const calls: string[] = [];
      page.on("request", (r) => {
        const path = new URL(r.url()).pathname;
        if (path.includes("/databases/") || path.endsWith("/schema")) calls.push(path);
      });
      await page.goto("/queries/new");
      await page.click("[data-testid=data-source-picker]");
      await page.click(`.ant-select-item-option[title='PG ${schemaName}']`);

      // The schemas are listed; "public" is shown first.
      const picker = page.locator("[data-testid=schema-database]");
      await poll(() => picker.textContent()).toContain("public");
      await picker.click();
      await page.keyboard.type(schemaName);
      await page.keyboard.press("Enter");
      const browserBox = page.locator("[data-testid=schema-browser]");
      await poll(() => browserBox.textContent()).toContain(table);
      // Columns are not loaded until the table is opened.
      expect(calls.some((c) => c.includes("/columns/"))).toBe(false);
      await browserBox.getByText(table, { exact: true }).click();
      await poll(() => browserBox.textContent()).toContain("happened_at");
      expect(await browserBox.textContent()).toContain("timestamp with time zone");
      await screenshot(page, "query-lazy-schema-desktop");

      expect(calls).toContain(`/api/databricks/databases/${sourceId}`);
      expect(calls).toContain(`/api/databricks/databases/${sourceId}/${schemaName}/tables`);
      expect(calls).toContain(
        `/api/databricks/databases/${sourceId}/${schemaName}/columns/${table}`,
      );
      expect(calls).not.toContain(`/api/data_sources/${sourceId}/schema`);

      // Autocomplete offers the lazily loaded table and its columns.
      await page.locator("[data-testid=query-editor] .cm-content").click();
      await page.keyboard.type("select happ");
      await poll(() => page.textContent(".cm-tooltip-autocomplete")).toContain("happened_at");
      await page.keyboard.press("Escape");

      // The chosen schema is remembered for this data source in the browser.
      expect(
        await page.evaluate(
          (id) => localStorage.getItem(`sightline:schemaDatabase:${id}`),
          sourceId,
        ),
      ).toBe(JSON.stringify(schemaName));
      const again = await context.newPage();
      await again.goto("/queries/new");
      await poll(() => again.locator("[data-testid=schema-database]").textContent()).toContain(
        schemaName,
      );
      await poll(() => again.locator("[data-testid=schema-browser]").textContent()).toContain(
        table,
      );
      await context.close();
    } finally {
      await db.query(`DROP SCHEMA IF EXISTS ${schemaName} CASCADE`);
      await db.end();
      if (sourceId) await api.delete(`/api/data_sources/${sourceId}`);
    }
  });

  it("warns before leaving with unsaved text, in the app and through the browser", async () => {
    const query = await createQuery({ name: "Leave me", query: "select 1 as a" });
    const { page, context } = await signedIn();
    await page.goto(`/queries/${query.id}/source`);
    await poll(() => editorText(page)).toContain("select 1");
    await page.locator("[data-testid=query-editor] .cm-content").click();
    await page.keyboard.press("Control+End");
    await page.keyboard.type(" -- unsaved");

    // A link inside the app asks first; Cancel stays with the text.
    await page.click("a[href='/queries']");
    await poll(() => page.textContent(".ant-modal-confirm")).toContain(
      "You will lose your changes if you leave",
    );
    await page.click(".ant-modal-confirm >> button:has-text('Cancel')");
    expect(new URL(page.url()).pathname).toBe(`/queries/${query.id}/source`);
    expect(await editorText(page)).toContain("-- unsaved");

    // Leaving the page itself raises the browser's own dialog: dismissed, the page stays.
    const dialogs: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.type());
      void (dialogs.length === 1 ? dialog.dismiss() : dialog.accept());
    });
    await page.evaluate(() => {
      window.location.href = "/queries";
    });
    await poll(() => dialogs).toEqual(["beforeunload"]);
    expect(new URL(page.url()).pathname).toBe(`/queries/${query.id}/source`);
    expect(await editorText(page)).toContain("-- unsaved");
    // Accepted, the browser leaves.
    await page.evaluate(() => {
      window.location.href = "/queries";
    });
    await page.waitForURL((url) => url.pathname === "/queries");
    expect(dialogs).toEqual(["beforeunload", "beforeunload"]);

    // Saved text leaves without asking.
    await page.goto(`/queries/${query.id}/source`);
    await poll(() => editorText(page)).toContain("select 1");
    await page.locator("[data-testid=query-editor] .cm-content").click();
    await page.keyboard.press("Control+End");
    await page.keyboard.type(" -- kept");
    await page.keyboard.press("Control+s");
    await poll(() => page.textContent("body")).toContain("Query saved");
    await page.evaluate(() => {
      window.location.href = "/queries";
    });
    await page.waitForURL((url) => url.pathname === "/queries");
    expect(dialogs).toHaveLength(2);
    await context.close();
  });

  it("shows a desktop notification when a run ends in the background", async () => {
    const query = await createQuery({ name: "Notify me", query: "select 7 as n" });
    const { page, context } = await signedIn();
    await context.grantPermissions(["notifications"], { origin: server.url });
    // Records notifications instead of showing them; `__hidden` puts the page in the background.
    await page.addInitScript(() => {
      const shown: { title: string; body?: string }[] = [];
      const w = window as unknown as { __notifications: typeof shown; __hidden: boolean };
      w.__notifications = shown;
      w.__hidden = false;
      const Real = window.Notification;
      class Recording extends Real {
        constructor(title: string, options?: NotificationOptions) {
          super(title, options);
          shown.push({ title, body: options?.body });
        }
      }
      window.Notification = Recording;
      Object.defineProperty(document, "visibilityState", {
        get: () => (w.__hidden ? "hidden" : "visible"),
      });
    });
    const shown = () =>
      page.evaluate(() => (window as unknown as { __notifications: unknown[] }).__notifications);
    const setHidden = (hidden: boolean) =>
      page.evaluate((h) => {
        (window as unknown as { __hidden: boolean }).__hidden = h;
      }, hidden);

    await page.goto(`/queries/${query.id}/source`);
    await poll(() => editorText(page)).toContain("select 7");
    expect(await page.evaluate(() => Notification.permission)).toBe("granted");

    // In front, the page itself shows the result: no notification.
    await page.click("[data-testid=execute-query]");
    await poll(() => page.textContent("[data-testid=result-rows]")).toContain("1 Row");
    expect(await shown()).toEqual([]);

    // In the background, the end of a run is announced.
    await setHidden(true);
    await page.click("[data-testid=execute-query]");
    await poll(shown).toEqual([{ title: "Notify me", body: "Query results are ready." }]);

    await page.locator("[data-testid=query-editor] .cm-content").click();
    await page.keyboard.press("Control+End");
    await page.keyboard.type(" from nowhere_at_all");
    await page.click("[data-testid=execute-query]");
    await poll(() => page.textContent("[data-testid=execution-error]")).toContain(
      "Error running query:",
    );
    await poll(shown).toEqual([
      { title: "Notify me", body: "Query results are ready." },
      { title: "Notify me", body: "Query execution failed." },
    ]);
    await context.close();
  });

  it("lets the owner grant edit access through Manage Permissions", async () => {
    const settings = await api.post("/api/settings/organization", {
      feature_show_permissions_control: true,
    });
    expect(settings.status).toBe(200);
    const query = await createQuery({ name: "Shared query", query: "select 1 as a" });
    const editor = { name: "Eddie Editor", email: "eddie@example.com", password: "eddie-password" };
    const invited = await api.post("/api/users", { name: editor.name, email: editor.email });
    expect(invited.status).toBe(200);
    const link = new URL((invited.body as { invite_link: string }).invite_link);
    const eddieApi = new TestClient(server.url);
    await eddieApi.get(link.pathname);
    const accepted = await eddieApi.submitForm(link.pathname, { password: editor.password });
    expect(accepted.status).toBe(302);

    // Without a grant the query is read-only for Eddie.
    const eddie = await signedIn(editor);
    await eddie.page.goto(`/queries/${query.id}/source`);
    await poll(() => editorText(eddie.page)).toContain("select 1");
    expect(await eddie.page.locator("[data-testid=save-query]").count()).toBe(0);

    // The owner adds Eddie in Manage Permissions.
    const owner = await signedIn();
    await owner.page.goto(`/queries/${query.id}/source`);
    await poll(() => editorText(owner.page)).toContain("select 1");
    await owner.page.click("[data-testid=query-actions]");
    await owner.page.click(".ant-dropdown-menu-item >> text=Manage Permissions");
    const dialog = owner.page.locator(".ant-modal", { hasText: "Manage Permissions" });
    await poll(() => dialog.textContent()).toContain("No users have edit access");
    await dialog.locator("input[aria-label='Add users']").fill("Eddie");
    await owner.page.click(".ant-select-item-option >> text=Eddie Editor");
    await poll(() => dialog.textContent()).toContain("eddie@example.com");
    await screenshot(owner.page, "query-permissions-desktop");
    const acl = (await api.get(`/api/queries/${query.id}/acl`)).body as {
      modify?: { email: string }[];
    };
    expect(acl.modify?.map((u) => u.email)).toEqual([editor.email]);
    await owner.context.close();

    // Now Eddie edits and saves it.
    await eddie.page.reload();
    await poll(() => eddie.page.locator("[data-testid=save-query]").count()).toBe(1);
    await eddie.page.locator("[data-testid=query-editor] .cm-content").click();
    await eddie.page.keyboard.press("Control+End");
    await eddie.page.keyboard.type(" -- by eddie");
    await eddie.page.click("[data-testid=save-query]");
    await poll(
      async () => ((await api.get(`/api/queries/${query.id}`)).body as { query: string }).query,
    ).toBe("select 1 as a -- by eddie");
    await eddie.context.close();
  });

  it("lays the schedule and parameter dialogs out on a phone", async () => {
    const query = await createQuery({ name: "Phone dialogs", query: "select 1 as a" });
    const { page, context } = await signedIn(ADMIN, PHONE);
    await page.goto(`/queries/${query.id}/source`);
    await poll(() => editorText(page)).toContain("select 1");

    await page.click("[data-testid=schedule-button]");
    await page.click("[data-testid=schedule-interval]");
    await page.keyboard.type("1 week");
    // Picked with Enter once the filtered option is active: a click right after typing could
    // land while the filtered list was still being redrawn, and then select nothing.
    await page.waitForSelector(".ant-select-item-option-active[title='1 week']");
    await page.keyboard.press("Enter");
    await page.waitForSelector(".ant-select-dropdown", { state: "hidden" });
    const schedule = page.locator("[data-testid=schedule-dialog]");
    await poll(() => schedule.textContent()).toContain("UTC");
    await viewportShot(page, "query-schedule-phone");
    await expectInsideViewport(page, "[data-testid=schedule-dialog] .ant-modal-container");
    await schedule.getByRole("button", { name: "Cancel" }).click();
    await poll(() => schedule.count()).toBe(0);

    await page.click("button[aria-label='Add New Parameter']");
    await page.fill("input[aria-label=Keyword]", "region");
    await page.click("[data-testid=parameter-type]");
    await page.click(".ant-select-item-option[title='Dropdown List']");
    await page.waitForSelector(".ant-select-dropdown", { state: "hidden" });
    await poll(() => page.textContent("[data-testid=parameter-dialog]")).toContain("Dropdown List");
    await viewportShot(page, "query-parameter-phone");
    await expectInsideViewport(page, "[data-testid=parameter-dialog] .ant-modal-container");
    await context.close();
  });
});

/** What the phone's screen shows (a dialog is seen over the page, not over a full-page scroll). */
async function viewportShot(page: Page, name: string): Promise<void> {
  const dir = path.resolve("test-artifacts/screenshots");
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`) });
}

/** The dialog fits the phone's width: nothing cut off on either side. */
async function expectInsideViewport(page: Page, selector: string): Promise<void> {
  const box = await page.locator(selector).boundingBox();
  expect(box).not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
}
