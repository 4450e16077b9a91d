import { describe, expect, it } from "vitest";
import { TestClient } from "../packages/server/src/testing/httpClient";
import { DESKTOP, PHONE, animationsSettled, screenshot } from "./browser";
import { useBrowserApp } from "./fixtures/browserApp";
import { createDashboard } from "./fixtures/dashboards";
import { pollFor } from "./fixtures/poll";

const poll = pollFor(20_000);

/** Manage Permissions on a dashboard (spec 3 §2), against a real server. */
describe("dashboard permissions in the browser", () => {
  const app = useBrowserApp();

  it(
    "the owner grants a second user edit rights from the more-menu, who can then edit the dashboard",
    { timeout: 180_000 },
    async () => {
      const setting = await app.api.post("/api/settings/organization", {
        feature_show_permissions_control: true,
      });
      expect(setting.status, setting.text).toBe(200);
      const { id, slug } = await createDashboard(app.api, "Team board");
      const beaLogin = { email: "bea@example.com", password: "bea's long password" };
      // Bea accepts an invitation, which signs her in.
      const invited = await app.api.post<{ id: number; invite_link: string }>(
        "/api/users?no_invite",
        {
          name: "Bea Editor",
          email: beaLogin.email,
        },
      );
      expect(invited.status, invited.text).toBe(200);
      const bea = new TestClient(app.server.url);
      const accepted = await bea.submitForm(invited.body.invite_link.replace(app.server.url, ""), {
        password: beaLogin.password,
      });
      expect(accepted.status, accepted.text.slice(0, 300)).toBe(302);
      const beaCanEdit = async () =>
        (await bea.get<{ can_edit: boolean }>(`/api/dashboards/${id}`)).body.can_edit;
      expect(await beaCanEdit()).toBe(false);

      for (const viewport of [DESKTOP, PHONE]) {
        const { page, context } = await app.openSignedIn(viewport);
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

      const acl = await app.api.get<{ modify?: { id: number }[] }>(`/api/dashboards/${id}/acl`);
      expect(acl.body.modify?.map((u) => u.id)).toEqual([invited.body.id]);
      expect(await beaCanEdit()).toBe(true);

      // Bea may edit, but only the owner or an admin manages permissions.
      const { page, context } = await app.openSignedIn(DESKTOP, beaLogin);
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
