// Data sources that reach what they must not, refused in the browser: the form says why when a
// save or Test Connection is refused, and the read-only option of PostgreSQL says what it needs.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { startTestServer, type TestServer } from "../packages/server/src/testing/testServer";
import { setUpAndLogin, ADMIN, type TestClient } from "../packages/server/src/testing/httpClient";
import { writeDataSourceOptions } from "../packages/server/src/services/dataSourceOptions";
import { defaultGroupId } from "../packages/server/src/services/organizationSetup";
import { insertDataSource } from "../packages/server/src/store/dataSources";
import { findOrgBySlug } from "../packages/server/src/store/organizations";
import { DESKTOP, PHONE, launchBrowser, newPage, screenshot } from "./browser";

vi.setConfig({ testTimeout: 90_000 });
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000, interval: 200 });

async function signIn(server: TestServer, browser: Browser, viewport = DESKTOP) {
  const session = await newPage(browser, server.url, viewport);
  await session.page.goto("/login");
  await session.page.fill("#email", ADMIN.email);
  await session.page.fill("#password", ADMIN.password);
  await session.page.click("button[type=submit]");
  await session.page.waitForURL((url) => url.pathname === "/");
  return session;
}

describe("data source refusals in the browser", () => {
  let server: TestServer;
  let browser: Browser;
  let api: TestClient;
  let admin: { context: BrowserContext; page: Page };
  let oldId = 0;

  beforeAll(async () => {
    server = await startTestServer("sqlite");
    api = await setUpAndLogin(server.url);
    fs.mkdirSync(path.join(server.config.fileDataDir!, "team"), { recursive: true });
    // Saved before folders had to be a data source's own: the whole allowed folder.
    const db = server.ctx.database.db;
    const orgId = (await findOrgBySlug(db, "default"))!.id;
    const old = await insertDataSource(db, {
      orgId,
      name: "Everything",
      type: "duckdb",
      encryptedOptions: writeDataSourceOptions(server.ctx, {
        dbpath: ":memory:",
        files_folder: ".",
      }),
      groupId: await defaultGroupId(db, orgId),
    });
    oldId = old.id;
    browser = await launchBrowser();
    admin = await signIn(server, browser);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("shows why Test Connection and Save are refused", async () => {
    const { page } = admin;
    await page.goto(`/data_sources/${oldId}`);
    await page.getByRole("button", { name: "Test Connection" }).click();
    const notice = page.locator(".ant-notification");
    await poll(() => notice.textContent()).toContain("Connection Test Failed:");
    expect(await notice.textContent()).toContain("not that folder itself");
    await screenshot(page, "data-source-refused-test-desktop");

    await page.getByLabel(/Files Folder/).fill("missing-folder");
    await page.getByRole("button", { name: "Save" }).click();
    // The form's own error box says why the save was refused, naming the allowed folder.
    const refusal = page.getByTestId("data-source-edit").getByRole("alert");
    await poll(() => refusal.textContent()).toContain("Files folder not found: missing-folder");
    expect(await refusal.textContent()).toContain(fs.realpathSync(server.config.fileDataDir!));
    await screenshot(page, "data-source-refused-save-desktop");
    await page.getByLabel(/Files Folder/).fill("team");
    await page.getByRole("button", { name: "Save" }).click();
    await poll(() => notice.textContent()).toContain("Saved.");
    expect((await api.post(`/api/data_sources/${oldId}/test`)).body).toEqual({
      message: "success",
      ok: true,
    });
  });

  it("says that read-only PostgreSQL needs an account that is not a superuser", async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const { page, context } = viewport === DESKTOP ? admin : await signIn(server, browser, PHONE);
      await page.goto("/data_sources/new");
      const dialog = page.getByRole("dialog");
      await dialog.getByLabel("Search types").fill("postg");
      await dialog.getByTestId("type-pg").click();
      const label =
        "Read only (enforced by the database; needs an account that is not a superuser)";
      await poll(() => dialog.textContent()).toContain(label);
      await dialog.getByText(label).scrollIntoViewIfNeeded();
      await screenshot(
        page,
        `data-source-pg-read-only-${viewport === DESKTOP ? "desktop" : "phone"}`,
      );
      if (viewport === PHONE) await context.close();
    }
  });
});
