import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { startTestServer, type TestServer } from "../packages/server/src/testing/testServer";
import { ADMIN, TestClient, setUpAndLogin } from "../packages/server/src/testing/httpClient";
import { DESKTOP, PHONE, animationsSettled, launchBrowser, newPage, screenshot } from "./browser";
import { snapshotWebApp, useWebAppSnapshot } from "./queries-webapp";

/** Waits for the page to reach a state; long enough for a loaded 2-core machine. */
const poll = <T>(fn: () => T | Promise<T>, timeout = 20_000) =>
  expect.poll(fn, { timeout, interval: 200 });

/** Manage Permissions on a dashboard (spec 3 §2), against a real server. */
describe("dashboard permissions in the browser", () => {
  let server: TestServer;
  let browser: Browser;
  let api: TestClient;
  let webApp: string;

  beforeAll(async () => {
    server = await startTestServer("sqlite");
    api = await setUpAndLogin(server.url);
    browser = await launchBrowser();
    webApp = await snapshotWebApp();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (webApp) fs.rmSync(webApp, { recursive: true, force: true });
  });

  it(
    "the owner grants a second user edit rights from the more-menu, who can then edit the dashboard",
    { timeout: 180_000 },
    async () => {
      const setting = await api.post("/api/settings/organization", {
        feature_show_permissions_control: true,
      });
      expect(setting.status, setting.text).toBe(200);
      const board = await api.post<{ id: number; slug: string }>("/api/dashboards", {
        name: "Team board",
      });
      expect(board.status, board.text).toBe(200);
      const { id, slug } = board.body;
      // Bea accepts an invitation, which signs her in.
      const invited = await api.post<{ id: number; invite_link: string }>("/api/users?no_invite", {
        name: "Bea Editor",
        email: "bea@example.com",
      });
      expect(invited.status, invited.text).toBe(200);
      const bea = new TestClient(server.url);
      const accepted = await bea.submitForm(invited.body.invite_link.replace(server.url, ""), {
        password: "bea's long password",
      });
      expect(accepted.status, accepted.text.slice(0, 300)).toBe(302);
      const beaCanEdit = async () =>
        (await bea.get<{ can_edit: boolean }>(`/api/dashboards/${id}`)).body.can_edit;
      expect(await beaCanEdit()).toBe(false);

      for (const viewport of [DESKTOP, PHONE]) {
        const { page, context } = await newPage(browser, server.url, viewport);
        await useWebAppSnapshot(context, webApp);
        await page.goto("/login");
        await page.fill("#email", ADMIN.email);
        await page.fill("#password", ADMIN.password);
        await page.click("button[type=submit]");
        await page.waitForURL((url) => url.pathname === "/");
        await page.goto(`/dashboards/${id}-${slug}`);
        await page.getByTestId("dashboard-more").click();
        await page.getByRole("menuitem", { name: "Manage Permissions" }).click();
        const dialog = page.getByRole("dialog", { name: "Manage Permissions" });
        await animationsSettled(page);
        if (viewport === DESKTOP) {
          const search = dialog.getByRole("combobox", { name: "Add users" });
          // The owner is never offered; Bea is, once the search pauses.
          await search.fill("admin@");
          await poll(() => page.locator(".ant-select-dropdown").textContent()).toContain(
            "No users found",
          );
          await search.fill("bea");
          const option = page.locator(".ant-select-item-option", { hasText: "bea@example.com" });
          await option.waitFor();
          await screenshot(page, "dashboard-permissions-search");
          await option.click();
          await poll(() => dialog.textContent()).toContain("Bea Editor");
        } else {
          await poll(() => dialog.textContent()).toContain("Bea Editor");
        }
        await screenshot(page, `dashboard-permissions-${viewport.width}`);
        await context.close();
      }

      const acl = await api.get<{ modify?: { id: number }[] }>(`/api/dashboards/${id}/acl`);
      expect(acl.body.modify?.map((u) => u.id)).toEqual([invited.body.id]);
      expect(await beaCanEdit()).toBe(true);

      // Bea may edit, but only the owner or an admin manages permissions.
      const { page, context } = await newPage(browser, server.url, DESKTOP);
      await useWebAppSnapshot(context, webApp);
      await page.goto("/login");
      await page.fill("#email", "bea@example.com");
      await page.fill("#password", "bea's long password");
      await page.click("button[type=submit]");
      await page.waitForURL((url) => url.pathname === "/");
      await page.goto(`/dashboards/${id}-${slug}`);
      await page.getByTestId("dashboard-more").click();
      await page.getByRole("menuitem", { name: "Edit" }).waitFor();
      expect(await page.getByRole("menuitem", { name: "Manage Permissions" }).count()).toBe(0);
      await context.close();

      const renamed = await bea.post(`/api/dashboards/${id}`, { name: "Team board (Bea)" });
      expect(renamed.status, renamed.text).toBe(200);
    },
  );
});
