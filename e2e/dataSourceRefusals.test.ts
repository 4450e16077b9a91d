// Data sources that reach what they must not, refused in the browser: the form says why when a
// save or Test Connection is refused, and the read-only option of PostgreSQL says what it needs.
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { writeDataSourceOptions } from "../packages/server/src/services/dataSourceOptions";
import { defaultGroupId } from "../packages/server/src/services/organizationSetup";
import { insertDataSource } from "../packages/server/src/store/dataSources";
import { findOrgBySlug } from "../packages/server/src/store/organizations";
import { DESKTOP, PHONE, screenshot } from "./browser";
import { useBrowserApp, type Session } from "./fixtures/browserApp";
import { pollFor } from "./fixtures/poll";

vi.setConfig({ testTimeout: 90_000 });
const poll = pollFor(15_000);

describe("data source refusals in the browser", () => {
  const app = useBrowserApp();
  let admin: Session;
  let oldId = 0;

  beforeAll(async () => {
    fs.mkdirSync(path.join(app.server.config.fileDataDir!, "team"), { recursive: true });
    // Saved before folders had to be a data source's own: the whole allowed folder.
    const db = app.server.ctx.database.db;
    const orgId = (await findOrgBySlug(db, "default"))!.id;
    const old = await insertDataSource(db, {
      orgId,
      name: "Everything",
      type: "duckdb",
      encryptedOptions: writeDataSourceOptions(app.server.ctx, {
        dbpath: ":memory:",
        files_folder: ".",
      }),
      groupId: await defaultGroupId(db, orgId),
    });
    oldId = old.id;
    admin = await app.openSignedIn();
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
    expect(await refusal.textContent()).toContain(fs.realpathSync(app.server.config.fileDataDir!));
    await screenshot(page, "data-source-refused-save-desktop");
    await page.getByLabel(/Files Folder/).fill("team");
    await page.getByRole("button", { name: "Save" }).click();
    await poll(() => notice.textContent()).toContain("Saved.");
    expect((await app.api.post(`/api/data_sources/${oldId}/test`)).body).toEqual({
      message: "success",
      ok: true,
    });
  });

  it("keeps what was typed in a refused new data source and marks the field named", async () => {
    const { page } = admin;
    // An empty file is a valid SQLite database, in a folder of its own (the first test gave
    // "team" to Everything as its Files Folder, which no other data source may reach into):
    // only the name is refused.
    const shopFolder = path.join(app.server.config.fileDataDir!, "shop");
    fs.mkdirSync(shopFolder, { recursive: true });
    fs.writeFileSync(path.join(shopFolder, "shop.db"), "");
    await page.goto("/data_sources/new");
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Search types").fill("sqli");
    await dialog.getByTestId("type-sqlite").click();
    // A name already taken, typed at speed and sent at once.
    await dialog.getByLabel("Name").fill("Everything");
    await dialog.getByLabel("Database Path").fill("shop/shop.db");
    await dialog.getByRole("button", { name: "Create" }).click();
    const nameItem = dialog.locator(".ant-form-item", { has: page.getByLabel("Name") });
    await poll(() => nameItem.locator(".ant-form-item-explain-error").textContent()).toContain(
      "with the name Everything already exists.",
    );
    expect(await dialog.getByLabel("Name").inputValue()).toBe("Everything");
    expect(await dialog.getByLabel("Database Path").inputValue()).toBe("shop/shop.db");
    await screenshot(page, "data-source-new-refused-keeps-input");
    // Mending the one field saves the rest as typed.
    await dialog.getByLabel("Name").fill("Team shop");
    await dialog.getByRole("button", { name: "Create" }).click();
    await poll(() => page.locator(".ant-notification").textContent()).toContain("Saved.");
    const created = (await app.api.get("/api/data_sources")).body.find(
      (s: { name: string }) => s.name === "Team shop",
    );
    expect(created).toBeDefined();
  });

  it("says that read-only PostgreSQL needs an account that is not a superuser", async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const { page, context } = viewport === DESKTOP ? admin : await app.openSignedIn(PHONE);
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
