import pg from "pg";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { Page } from "playwright-core";
import { TestClient } from "../packages/server/src/testing/httpClient";
import { TEST_PG_URL, randomName } from "../packages/server/src/testing/services";
import { DESKTOP, PHONE, animationsSettled, screenshot } from "./browser";
import { useBrowserApp } from "./fixtures/browserApp";
import { dataSourceIdByName } from "./fixtures/demo";
import { pollFor } from "./fixtures/poll";

// The machine is shared: give slow moments room, but each wait stays bounded.
vi.setConfig({ testTimeout: 90_000 });
const poll = pollFor(15_000);

/** The query editor's schema browser, leave-page warning, notifications, permissions, phone dialogs. */
describe("query editor in the browser", () => {
  const app = useBrowserApp();
  let demoId: number;

  beforeAll(async () => {
    demoId = await dataSourceIdByName(app.api, "Demo");
  }, 60_000);

  async function createQuery(body: Record<string, unknown>): Promise<{ id: number }> {
    const res = await app.api.post("/api/queries", { data_source_id: demoId, ...body });
    expect(res.status).toBe(200);
    return res.body as { id: number };
  }

  /** Invites a user (into the default group) who accepts with a password; returns their id. */
  async function inviteUser(who: { name: string; email: string; password: string }) {
    const invited = await app.api.post("/api/users", { name: who.name, email: who.email });
    expect(invited.status).toBe(200);
    const body = invited.body as { id: number; invite_link: string };
    const link = new URL(body.invite_link);
    const client = new TestClient(app.server.url);
    await client.get(link.pathname);
    expect((await client.submitForm(link.pathname, { password: who.password })).status).toBe(302);
    return body.id;
  }

  const editorText = (page: Page) =>
    page.locator("[data-testid=query-editor] .cm-content").textContent();

  /** Replaces the editor's whole text as a paste does, in one edit. */
  async function pasteOver(page: Page, text: string) {
    await page.locator("[data-testid=query-editor] .cm-content").click();
    await page.keyboard.press("Control+a");
    await page.keyboard.insertText(text);
  }

  const savedText = async (id: number) =>
    ((await app.api.get(`/api/queries/${id}`)).body as { query: string }).query;

  // Each shortcut is pressed right after the text changes, with no pause: the page's own copy of
  // the text arrives 100 ms later, and no action may wait for it.
  it("runs, runs the selection, saves and formats the text as typed, at once", async () => {
    const query = await createQuery({ name: "Typed fast", query: "select 1 as one" });
    const { page, context } = await app.openSignedIn();
    await page.goto(`/queries/${query.id}/source`);
    await poll(() => editorText(page)).toContain("select 1");

    await pasteOver(page, "select 42 as answer");
    await page.keyboard.press("Control+Enter");
    await poll(() => page.textContent("[data-testid=results]")).toContain("answer");
    expect(await page.textContent("[data-testid=results]")).toContain("42");

    // Typed key by key, then run: the last keystroke counts.
    await pasteOver(page, "select 5 as fiv");
    await page.keyboard.type("e");
    await page.keyboard.press("Control+Enter");
    await poll(() => page.textContent("[data-testid=results]")).toContain("five");

    // The selection as it is when the shortcut is pressed.
    await pasteOver(page, "select 1 as first\nselect 9 as ninth");
    await page.keyboard.press("Shift+Home");
    await page.keyboard.press("Control+Enter");
    await poll(() => page.textContent("[data-testid=results]")).toContain("ninth");
    expect(await page.textContent("[data-testid=results]")).not.toContain("first");

    // Saving keeps what was typed, on the server and on screen.
    await pasteOver(page, "select 7 as seven");
    await page.keyboard.press("Control+s");
    await poll(() => page.textContent("body")).toContain("Query saved");
    expect(await savedText(query.id)).toBe("select 7 as seven");
    await page.waitForTimeout(300);
    expect(await editorText(page)).toBe("select 7 as seven");

    // Format works on the new text and keeps it.
    await pasteOver(page, "select 8 as eight from orders");
    await page.keyboard.press("Control+Shift+f");
    await poll(() => editorText(page)).toContain("eight");
    await page.waitForTimeout(300);
    const formatted = (await editorText(page)) ?? "";
    expect(formatted).toContain("orders");
    expect(formatted).not.toContain("seven");
    expect(formatted).not.toBe("select 8 as eight from orders");

    // Leaving right after typing still asks.
    await page.keyboard.press("Control+s");
    await poll(() => page.textContent("body")).toContain("Query saved");
    const dialogs: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.type());
      void dialog.dismiss();
    });
    await pasteOver(page, "select 'not saved yet' as x");
    await page.evaluate(() => {
      window.location.href = "/queries";
    });
    await poll(() => dialogs).toEqual(["beforeunload"]);
    expect(await editorText(page)).toContain("not saved yet");
    await context.close();

    // A new query runs its first text at once too.
    const fresh = await app.openSignedIn();
    await fresh.page.goto("/queries/new");
    await fresh.page.locator("[data-testid=query-editor] .cm-content").click();
    await fresh.page.keyboard.type("select 6 as six");
    await fresh.page.keyboard.press("Control+Enter");
    await poll(() => fresh.page.textContent("[data-testid=results]")).toContain("six");
    await fresh.context.close();
  });

  it("adds the parameters written in the text and removes them with it", async () => {
    const query = await createQuery({ name: "Written parameters", query: "select 1 as one" });
    const { page, context } = await app.openSignedIn();
    await page.goto(`/queries/${query.id}/source`);
    await poll(() => editorText(page)).toContain("select 1");

    await pasteOver(page, "SELECT '{{ foo }}' AS x");
    await page.keyboard.press("Control+Enter");
    const foo = page.getByTestId("parameter-foo");
    await foo.waitFor();
    await poll(() => page.textContent("[data-testid=parameters]")).toContain("foo");
    expect(await page.textContent("body")).not.toContain("Missing parameter value for: foo");
    await foo.fill("bar");
    await page.click("[data-testid=execute-query]");
    await poll(() => page.textContent("[data-testid=results]")).toContain("bar");

    // Saved with the text, and there after a reload.
    await page.keyboard.press("Control+s");
    await poll(() => page.textContent("body")).toContain("Query saved");
    const saved = (await app.api.get(`/api/queries/${query.id}`)).body as {
      options: { parameters: { name: string; title: string; type: string }[] };
    };
    expect(saved.options.parameters).toEqual([
      expect.objectContaining({ name: "foo", title: "foo", type: "text" }),
    ]);
    await page.reload();
    await page.getByTestId("parameter-foo").waitFor();

    // The {{ }} dialog, opened right after typing, knows the names already written...
    await pasteOver(
      page,
      "SELECT '{{ foo }}' AS x, '{{ span.start }}' AS s, '{{ span.end }}' AS e",
    );
    await page.keyboard.press("Control+p");
    await page.fill("input[aria-label=Keyword]", "span");
    await page.click("[data-testid=parameter-dialog] button:has-text('Add Parameter')");
    await poll(() => page.textContent("[data-testid=parameter-dialog]")).toContain(
      "Parameter with this name already exists",
    );
    await page.fill("input[aria-label=Keyword]", "limit");
    await page.click("[data-testid=parameter-dialog] button:has-text('Add Parameter')");
    await poll(() => page.locator("[data-testid=parameter-dialog]").count()).toBe(0);
    await poll(() => editorText(page)).toContain("{{ limit }}");
    // ...and writes a new one once.
    expect(((await editorText(page)) ?? "").split("{{ limit }}")).toHaveLength(2);
    await page.getByTestId("parameter-span").first().waitFor();
    await page.getByTestId("parameter-limit").waitFor();

    // Deleting a name from the text removes its parameter; the others stay.
    await pasteOver(page, "SELECT '{{ limit }}' AS x");
    await poll(() => page.getByTestId("parameter-foo").count()).toBe(0);
    await poll(() => page.getByTestId("parameter-span").count()).toBe(0);
    expect(await page.getByTestId("parameter-limit").count()).toBe(1);
    await screenshot(page, "query-editor-written-parameters");
    await context.close();
  });

  it("completes tables after FROM, columns of the tables used, and goes fullscreen on Alt+F", async () => {
    const query = await createQuery({ name: "Completions", query: "select 1 as one" });
    const { page, context } = await app.openSignedIn();
    await page.goto(`/queries/${query.id}/source`);
    await poll(() => editorText(page)).toContain("select 1");
    await page.getByTestId("schema-browser").getByText("orders", { exact: true }).waitFor();
    const options = () =>
      page
        .locator(".cm-tooltip-autocomplete li")
        .evaluateAll((items) => items.map((item) => item.textContent ?? ""));

    // Ctrl+Space right after "FROM " offers the tables.
    await pasteOver(page, "select * from ");
    await page.keyboard.press("Control+Space");
    await poll(async () => (await options()).some((o) => o.startsWith("orders"))).toBe(true);
    const afterFrom = await options();
    expect(afterFrom.some((o) => o.startsWith("category"))).toBe(false);
    await page.keyboard.press("Escape");

    // Columns come from the tables the text names: products' ones, not orders'.
    await pasteOver(page, "select  from products");
    await page.keyboard.press("Home");
    for (let i = 0; i < "select ".length; i += 1) await page.keyboard.press("ArrowRight");
    await page.keyboard.press("Control+Space");
    await poll(options).toEqual(expect.arrayContaining([expect.stringMatching(/^category/)]));
    expect((await options()).some((o) => o.startsWith("status"))).toBe(false);
    await page.keyboard.press("Escape");

    // A table's alias completes its columns: typed at speed, "o." offers orders' columns.
    await pasteOver(page, "");
    await page.keyboard.type("select * from orders o where o.", { delay: 0 });
    await poll(options).toEqual(expect.arrayContaining([expect.stringMatching(/^status/)]));
    expect((await options()).some((o) => o.startsWith("category"))).toBe(false);
    await page.keyboard.press("Escape");

    // Alt+F gives the editor and results the whole window, and gives it back.
    await page.keyboard.press("Alt+f");
    await page.getByTestId("query-fullscreen").waitFor();
    expect(await page.locator("[data-testid=query-name]").count()).toBe(0);
    expect(await page.locator("[data-testid=schema-browser]").count()).toBe(0);
    await screenshot(page, "query-editor-fullscreen");
    await page.keyboard.press("Alt+f");
    await poll(() => page.locator("[data-testid=query-name]").count()).toBe(1);
    expect(await page.locator("[data-testid=query-fullscreen]").count()).toBe(0);
    await context.close();
  });

  it("starts a new query on the data source last used, not on a source added since", async () => {
    const { page, context } = await app.openSignedIn();
    await page.goto("/queries/new");
    await poll(() => page.textContent("[data-testid=data-source-picker]")).toContain("Demo");
    await page.locator("[data-testid=query-editor] .cm-content").click();
    await page.keyboard.type("select 1 as a");
    await poll(() => page.isEnabled("[data-testid=execute-query]")).toBe(true);
    await page.click("[data-testid=execute-query]");
    await poll(() => page.textContent("[data-testid=result-rows]")).toContain("1 Row");

    // A source whose name sorts before Demo's is added; Demo was the last one used.
    const url = new URL(TEST_PG_URL);
    const created = await app.api.post("/api/data_sources", {
      name: "Bad path",
      type: "pg",
      options: { host: url.hostname, port: Number(url.port || 5432), dbname: "test" },
    });
    expect(created.status).toBe(200);
    const sourceId = (created.body as { id: number }).id;
    try {
      await page.goto("/queries/new");
      await page.locator("[data-testid=query-editor]").waitFor();
      await poll(() => page.textContent("[data-testid=data-source-picker]")).toContain("Demo");
    } finally {
      await app.api.delete(`/api/data_sources/${sourceId}`);
      await context.close();
    }
  });

  it("keeps the page as it was behind Session Expired, then runs the text once logged in", async () => {
    const sam = { name: "Sam Session", email: "sam@example.com", password: "sam-password" };
    await inviteUser(sam);
    const { page, context } = await app.openSignedIn(DESKTOP, sam);
    await page.goto("/queries/new");
    await poll(() => page.textContent("[data-testid=data-source-picker]")).toContain("Demo");
    await page.locator("[data-testid=query-editor] .cm-content").click();
    await page.keyboard.type("select 11 as eleven");

    // Every session of Sam's ends (as a password change elsewhere would); the run then waits.
    await app.server.ctx.database.db
      .updateTable("users")
      .set({ session_token: "ended" })
      .where("email", "=", sam.email)
      .execute();
    await page.keyboard.press("Control+Enter");
    const expired = page.getByText("Your session has expired. Please login to continue.");
    await poll(() => expired.isVisible()).toBe(true);
    // The status behind the dialog stands still while the run waits for the login.
    const status = page.getByTestId("execution-status");
    const before = await status.textContent();
    await page.waitForTimeout(2500);
    expect(await status.textContent()).toBe(before);
    await screenshot(page, "query-editor-session-expired");

    const popupPromise = page.waitForEvent("popup");
    await page.getByRole("button", { name: "Login" }).click();
    const popup = await popupPromise;
    await popup.waitForSelector("#email");
    await popup.fill("#email", sam.email);
    await popup.fill("#password", sam.password);
    await popup.click("button[type=submit]");
    await popup.waitForEvent("close");
    await poll(() => expired.isVisible()).toBe(false);
    // The same page, with its text, and the run it waited for.
    expect(new URL(page.url()).pathname).toBe("/queries/new");
    expect(await editorText(page)).toBe("select 11 as eleven");
    await poll(() => page.textContent("[data-testid=results]")).toContain("eleven");

    // Logged in again in another tab instead: the dialog notices, and the page carries on.
    await app.server.ctx.database.db
      .updateTable("users")
      .set({ session_token: "ended-again" })
      .where("email", "=", sam.email)
      .execute();
    await pasteOver(page, "select 12 as twelve");
    await page.keyboard.press("Control+Enter");
    await poll(() => expired.isVisible()).toBe(true);
    const other = await context.newPage();
    await other.goto("/login");
    await other.fill("#email", sam.email);
    await other.fill("#password", sam.password);
    await other.click("button[type=submit]");
    await other.waitForURL((url) => url.pathname === "/");
    await other.close();
    await poll(() => expired.isVisible()).toBe(false);
    expect(await editorText(page)).toBe("select 12 as twelve");
    await poll(() => page.textContent("[data-testid=results]")).toContain("twelve");

    // A browser that blocks the popup gets a link to a new tab; this page stays as it is.
    await page.evaluate(() => {
      window.open = () => null;
    });
    await app.server.ctx.database.db
      .updateTable("users")
      .set({ session_token: "ended-once-more" })
      .where("email", "=", sam.email)
      .execute();
    await pasteOver(page, "select 13 as thirteen");
    await page.keyboard.press("Control+Enter");
    await poll(() => expired.isVisible()).toBe(true);
    await page.getByRole("button", { name: "Login" }).click();
    const tabPromise = context.waitForEvent("page");
    await page.getByText("Open the login page in a new tab").click();
    const tab = await tabPromise;
    await tab.waitForSelector("#email");
    await tab.fill("#email", sam.email);
    await tab.fill("#password", sam.password);
    await tab.click("button[type=submit]");
    await poll(() => expired.isVisible()).toBe(false);
    expect(new URL(page.url()).pathname).toBe("/queries/new");
    expect(await editorText(page)).toBe("select 13 as thirteen");
    await poll(() => page.textContent("[data-testid=results]")).toContain("thirteen");
    await context.close();
  });

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
      const created = await app.api.post("/api/data_sources", {
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

      const { page, context } = await app.openSignedIn();
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
      if (sourceId) await app.api.delete(`/api/data_sources/${sourceId}`);
    }
  });

  it("warns before leaving with unsaved text, in the app and through the browser", async () => {
    const query = await createQuery({ name: "Leave me", query: "select 1 as a" });
    const { page, context } = await app.openSignedIn();
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
    await animationsSettled(page);
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
    const { page, context } = await app.openSignedIn();
    await context.grantPermissions(["notifications"], { origin: app.server.url });
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
    const settings = await app.api.post("/api/settings/organization", {
      feature_show_permissions_control: true,
    });
    expect(settings.status).toBe(200);
    const query = await createQuery({ name: "Shared query", query: "select 1 as a" });
    const editor = { name: "Eddie Editor", email: "eddie@example.com", password: "eddie-password" };
    await inviteUser(editor);

    // Without a grant the query is read-only for Eddie.
    const eddie = await app.openSignedIn(DESKTOP, editor);
    await eddie.page.goto(`/queries/${query.id}/source`);
    await poll(() => editorText(eddie.page)).toContain("select 1");
    expect(await eddie.page.locator("[data-testid=save-query]").count()).toBe(0);

    // The owner adds Eddie in Manage Permissions.
    const owner = await app.openSignedIn();
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
    const acl = (await app.api.get(`/api/queries/${query.id}/acl`)).body as {
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
      async () => ((await app.api.get(`/api/queries/${query.id}`)).body as { query: string }).query,
    ).toBe("select 1 as a -- by eddie");
    await eddie.context.close();
  });

  it("runs the parameter values shown, and offers no run to a user who may not run", async () => {
    const query = await createQuery({
      name: "Country report",
      description: "Orders by country, for the sales team",
      tags: ["sales"],
      query: "select '{{ country }}' as country",
      options: {
        parameters: [{ name: "country", title: "country", type: "text", value: "Chile" }],
      },
    });
    // Execute with a typed but unapplied value runs that value, as the box shows it.
    const owner = await app.openSignedIn();
    await owner.page.goto(`/queries/${query.id}/source`);
    await poll(() => owner.page.textContent("[data-testid=results]")).toContain("Chile");
    await owner.page.fill("[data-testid=parameter-country]", "France");
    await poll(() => owner.page.locator("[data-testid=apply-parameters]").count()).toBe(1);
    await owner.page.click("[data-testid=execute-query]");
    await poll(() => owner.page.textContent("[data-testid=results]")).toContain("France");
    expect(await owner.page.locator("[data-testid=apply-parameters]").count()).toBe(0);
    expect(owner.page.url()).toContain("p_country=France");
    await owner.context.close();

    // A viewer whose only group sees Demo view-only may not run this unsafe query.
    const group = await app.api.post("/api/groups", { name: "Viewers" });
    await app.api.post(`/api/groups/${group.body.id}/data_sources`, { data_source_id: demoId });
    await app.api.post(`/api/groups/${group.body.id}/data_sources/${demoId}`, { view_only: true });
    const viewer = { name: "Vera Viewer", email: "vera@example.com", password: "vera-password" };
    const veraId = await inviteUser(viewer);
    await app.api.post(`/api/groups/${group.body.id}/members`, { user_id: veraId });
    const groups = (await app.api.get("/api/groups")).body as { id: number; name: string }[];
    const defaultGroup = groups.find((g) => g.name === "default")!;
    await app.api.delete(`/api/groups/${defaultGroup.id}/members/${veraId}`);

    const vera = await app.openSignedIn(DESKTOP, viewer);
    const runs: string[] = [];
    vera.page.on("request", (r) => {
      if (r.method() === "POST" && /\/results$|query_results$/.test(r.url())) runs.push(r.url());
    });
    await vera.page.goto(`/queries/${query.id}/source`);
    await poll(() => vera.page.textContent("body")).toContain(
      "You do not have a permission to execute/refresh this query.",
    );
    expect(await vera.page.isDisabled("[data-testid=execute-query]")).toBe(true);
    // Description and tags read as text, not as pale disabled fields.
    expect(await vera.page.getByTestId("query-description").textContent()).toContain(
      "Orders by country, for the sales team",
    );
    expect(await vera.page.getByTestId("query-tags").textContent()).toContain("sales");
    expect(await vera.page.locator("textarea[aria-label=Description]").count()).toBe(0);
    // The parameter's box is named by its label.
    await vera.page.getByLabel("country", { exact: true }).fill("Peru");
    await vera.page.click("[data-testid=apply-parameters]");
    await poll(() => vera.page.url()).toContain("p_country=Peru");
    await vera.page.locator("[data-testid=query-editor] .cm-content").click();
    await vera.page.keyboard.press("Control+Enter");
    await vera.page.waitForTimeout(500);
    expect(runs).toEqual([]);
    expect(await vera.page.textContent("body")).not.toContain("Error running query");
    await vera.context.close();
  });

  it("keeps the side panel legible and inside its column; running closes the completion list", async () => {
    const query = await createQuery({
      name: "Long schedule",
      query: "select 1 as a",
      schedule: {
        interval: 1_209_600,
        time: "23:45",
        day_of_week: "Wednesday",
        until: "2027-12-31",
      },
    });
    const { page, context } = await app.openSignedIn();
    await page.goto(`/queries/${query.id}/source`);
    await poll(() => editorText(page)).toContain("select 1");

    // The schedule's summary wraps inside the panel instead of running over the editor.
    const scheduleButton = page.locator("[data-testid=schedule-button]");
    await poll(() => scheduleButton.textContent()).toContain("Wednesday");
    const panel = (await page.locator("aside").boundingBox())!;
    const summary = (await scheduleButton.boundingBox())!;
    expect(summary.x + summary.width).toBeLessThanOrEqual(panel.x + panel.width + 0.5);

    // Column types in the schema browser are readable (WCAG AA contrast against the panel).
    const browserBox = page.locator("[data-testid=schema-browser]");
    await browserBox.getByText("orders", { exact: true }).click();
    const type = browserBox.locator("span", { hasText: /^\s*(INTEGER|BIGINT)\s*$/ }).first();
    await type.waitFor();
    const contrast = await type.evaluate((element) => {
      const channels = (color: string) => color.match(/[\d.]+/g)!.map(Number);
      const [r, g, b, alpha = 1] = channels(getComputedStyle(element).color);
      // Drawn over white: blend, then compare relative luminances.
      const lum = (c: number) => {
        const v = (c * alpha + 255 * (1 - alpha)) / 255;
        return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
      };
      const luminance = 0.2126 * lum(r) + 0.7152 * lum(g) + 0.0722 * lum(b);
      return 1.05 / (luminance + 0.05);
    });
    expect(contrast).toBeGreaterThanOrEqual(4.5);
    await screenshot(page, "query-editor-panel-long-schedule");

    // A completion list open when the query is run goes away.
    await page.locator("[data-testid=query-editor] .cm-content").click();
    await page.keyboard.press("Control+End");
    await page.keyboard.type(" from ord");
    await page.waitForSelector(".cm-tooltip-autocomplete");
    await page.keyboard.press("Control+Enter");
    await page.waitForSelector(".cm-tooltip-autocomplete", { state: "detached" });
    await context.close();
  });

  it("lays the schedule and parameter dialogs out on a phone", async () => {
    const query = await createQuery({ name: "Phone dialogs", query: "select 1 as a" });
    const { page, context } = await app.openSignedIn(PHONE);
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
    await screenshot(page, "query-schedule-phone", { fullPage: false });
    await expectInsideViewport(page, "[data-testid=schedule-dialog] .ant-modal-container");
    await schedule.getByRole("button", { name: "Cancel" }).click();
    await poll(() => schedule.count()).toBe(0);

    await page.click("button[aria-label='Add New Parameter']");
    await page.fill("input[aria-label=Keyword]", "region");
    await page.click("[data-testid=parameter-type]");
    await page.click(".ant-select-item-option[title='Dropdown List']");
    await page.waitForSelector(".ant-select-dropdown", { state: "hidden" });
    await poll(() => page.textContent("[data-testid=parameter-dialog]")).toContain("Dropdown List");
    await screenshot(page, "query-parameter-phone", { fullPage: false });
    await expectInsideViewport(page, "[data-testid=parameter-dialog] .ant-modal-container");
    await context.close();
  });
});

/** The dialog fits the phone's width: nothing cut off on either side. */
async function expectInsideViewport(page: Page, selector: string): Promise<void> {
  const box = await page.locator(selector).boundingBox();
  expect(box).not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
}
