// Administration in the browser: settings tabs, users, groups, data sources, organisation
// settings and the admin status pages, walked as an admin and as a plain user.
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { Page } from "playwright-core";
import { ADMIN, TestClient } from "../packages/server/src/testing/httpClient";
import { DESKTOP, PHONE, screenshot } from "./browser";
import { useBrowserApp, type Session } from "./fixtures/browserApp";
import { pollFor } from "./fixtures/poll";

const PLAIN = { name: "Paula Plain", email: "paula@example.com", password: "paula-password" };

/** Records the API calls a page sends with a given method. */
function recordCalls(page: Page, method: string, pathPrefix: string): string[] {
  const calls: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (request.method() === method && url.pathname.startsWith(pathPrefix))
      calls.push(url.pathname);
  });
  return calls;
}

// The machine is shared: give slow moments room.
vi.setConfig({ testTimeout: 90_000 });
const poll = pollFor(15_000);

const text = (page: Page) => page.textContent("body").then((t) => t ?? "");

describe("administration in the browser", () => {
  const app = useBrowserApp();
  let admin: Session;
  let plainId = 0;

  beforeAll(async () => {
    admin = await app.openSignedIn();
  });

  describe("settings tabs and users", () => {
    it("sends the Settings link to the first tab and shows every tab to an admin", async () => {
      const { page } = admin;
      await page.goto("/");
      await page.getByRole("link", { name: "Settings" }).first().click();
      await page.waitForURL((url) => url.pathname === "/data_sources");
      await page.goto("/users");
      await page.locator(".ant-tabs-tab").first().waitFor();
      const tabs = await page.locator(".ant-tabs-tab").allTextContents();
      expect(tabs).toEqual([
        "Data Sources",
        "Users",
        "Groups",
        "Alert Destinations",
        "Query Snippets",
        "General",
      ]);
      await poll(() => text(page)).toContain(ADMIN.email);
      expect(
        await page.locator("[data-testid=user-lists] .ant-menu-item").allTextContents(),
      ).toEqual(["Active Users", "Pending Invitations", "Disabled Users"]);
      // Self: no enable/disable button on one's own row.
      expect(await page.locator("tbody button:has-text('Disable')").count()).toBe(0);
      await screenshot(page, "admin-users-desktop");
    });

    it("validates the Create a New User dialog, then invites a user who sets a password", async () => {
      const { page } = admin;
      const posts = recordCalls(page, "POST", "/api/users");
      await page.goto("/users/new");
      await page.getByRole("dialog").getByRole("button", { name: "Create" }).click();
      await poll(() => page.locator(".ant-form-item-explain-error").allTextContents()).toEqual([
        "This field is required.",
        "This field is required.",
      ]);
      const dialog = page.getByRole("dialog");
      await dialog.getByLabel("Name").fill(PLAIN.name);
      await dialog.getByLabel("Email").fill("not-an-email");
      await page.getByRole("dialog").getByRole("button", { name: "Create" }).click();
      await poll(() => page.locator(".ant-form-item-explain-error").allTextContents()).toEqual([
        "This field must be a valid email.",
      ]);
      expect(posts).toEqual([]);
      await dialog.getByLabel("Email").fill(PLAIN.email);
      await page.getByRole("dialog").getByRole("button", { name: "Create" }).click();
      await poll(() => text(page)).toContain("Email not sent!");
      expect(posts).toEqual(["/api/users"]);
      await screenshot(page, "admin-user-invited");
      const link = (await page.getByTestId("emailed-link").textContent())!.trim();
      expect(link).toContain("/invite/");
      await page.locator(".ant-modal-footer").getByRole("button", { name: "Close" }).click();
      await page.waitForURL((url) => url.pathname === "/users");

      // The invited user follows the link, sets a password and is signed in.
      const invited = await app.open();
      await invited.page.goto(link);
      await invited.page.fill("#password", PLAIN.password);
      await invited.page.click("button[type=submit]");
      await invited.page.waitForURL((url) => url.pathname === "/");
      const session = await invited.page.evaluate(async () => (await fetch("/api/session")).json());
      expect(session.user.email).toBe(PLAIN.email);
      plainId = session.user.id;
      await invited.context.close();
    });

    it("lists, resends and deletes pending invitations", async () => {
      const { page } = admin;
      const res = await app.api.post("/api/users", {
        name: "Pat Pending",
        email: "pat@example.com",
      });
      expect(res.status).toBe(200);
      await page.goto("/users/pending");
      await poll(() => text(page)).toContain("Pat Pending");
      expect(await text(page)).not.toContain(PLAIN.email);
      await page.goto(`/users/${res.body.id}`);
      await page.getByRole("button", { name: "Resend Invitation" }).click();
      await poll(() => text(page)).toContain("Email not sent!");
      await page.getByRole("button", { name: "Delete" }).click();
      await page.locator(".ant-popconfirm").getByRole("button", { name: "Delete" }).click();
      await page.waitForURL((url) => url.pathname === "/users/pending");
      await poll(() => page.locator("tbody").textContent()).not.toContain("Pat Pending");
      expect((await app.api.get(`/api/users/${res.body.id}`)).status).toBe(404);
    });

    it("searches and sorts users", async () => {
      const { page } = admin;
      await page.goto("/users");
      await page.getByLabel("Search Users").fill("paula");
      await page.waitForURL((url) => url.search === "?q=paula");
      await poll(() => page.locator("tbody tr.ant-table-row").count()).toBe(1);
      await page.getByLabel("Search Users").fill("nobody-like-this");
      await poll(() => text(page)).toContain("Sorry, we couldn't find anything.");
      await page.getByLabel("Search Users").fill("");
      await page.waitForURL((url) => url.search === "");
      const sorted = page.waitForRequest((r) => r.url().includes("order=name"));
      await page.locator("th:has-text('Name')").click();
      await sorted;
      await poll(() => page.locator("tbody tr a").first().textContent()).toBe(ADMIN.name);
    });

    it("edits the admin's own profile: API key, password dialog, no disabling oneself", async () => {
      const { page } = admin;
      await page.goto("/users/me");
      const key = await page.getByTestId("api-key").inputValue();
      expect(key).toMatch(/^\w{20,}$/);
      await page.getByRole("button", { name: "Regenerate" }).click();
      await page.locator(".ant-popconfirm").getByRole("button", { name: "Regenerate" }).click();
      await poll(() => page.getByTestId("api-key").inputValue()).not.toBe(key);
      expect(await page.getByRole("button", { name: "Disable User" }).count()).toBe(0);
      await screenshot(page, "admin-profile-desktop");

      const posts = recordCalls(page, "POST", "/api/users/");
      await page.getByRole("button", { name: "Change Password" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByRole("button", { name: "Update Password" }).click();
      await poll(() => dialog.locator(".ant-form-item-explain-error").allTextContents()).toEqual([
        "This field is required.",
        "This field is required.",
        "This field is required.",
      ]);
      await dialog.getByLabel("Current Password").fill(ADMIN.password);
      await dialog.getByLabel("New Password", { exact: true }).fill("12345");
      await dialog.getByLabel("Repeat New Password").fill("123456");
      await dialog.getByRole("button", { name: "Update Password" }).click();
      await poll(() => dialog.locator(".ant-form-item-explain-error").allTextContents()).toEqual([
        "This field is too short.",
        "Passwords don't match",
      ]);
      await dialog.getByLabel("New Password", { exact: true }).fill("1234567");
      await dialog.getByLabel("Repeat New Password").fill("1234568");
      await dialog.getByRole("button", { name: "Update Password" }).click();
      await poll(() => dialog.locator(".ant-form-item-explain-error").allTextContents()).toEqual([
        "Passwords don't match",
      ]);
      await screenshot(page, "admin-change-password");
      expect(posts).toEqual([]);
      // A wrong current password shows the server's message.
      await dialog.getByLabel("Current Password").fill("wrong password");
      await dialog.getByLabel("Repeat New Password").fill("1234567");
      await dialog.getByRole("button", { name: "Update Password" }).click();
      await poll(() => dialog.textContent()).toContain("Incorrect current password.");
      await dialog.getByRole("button", { name: "Cancel" }).click();
    });

    it("regenerates another user's API key without ever showing it", async () => {
      const { page } = admin;
      const plainApi = new TestClient(app.server.url);
      await plainApi.login(PLAIN.email, PLAIN.password);
      const ownKey = async () => (await plainApi.get(`/api/users/${plainId}`)).body.api_key;
      const before = await ownKey();
      expect(before).toMatch(/^\w{40}$/);
      await page.goto(`/users/${plainId}`);
      const field = page.getByTestId("api-key");
      await poll(() => field.inputValue()).toBe("•".repeat(40));
      await poll(() => text(page)).toContain("Only the user can see their API key.");
      expect(await text(page)).not.toContain(before);
      const answered = page.waitForResponse((r) => r.url().endsWith("/regenerate_api_key"));
      await page.getByRole("button", { name: "Regenerate" }).click();
      await page.locator(".ant-popconfirm").getByRole("button", { name: "Regenerate" }).click();
      const answer = await (await answered).text();
      await poll(() => text(page)).toContain("The API Key has been updated.");
      const after = await ownKey();
      expect(after).not.toBe(before);
      expect(answer).not.toContain(after);
      expect(await field.inputValue()).toBe("•".repeat(40));
      await screenshot(page, "admin-other-user-api-key");
    });

    it("disables and enables another user from the profile page", async () => {
      const { page } = admin;
      await page.goto(`/users/${plainId}`);
      await page.getByRole("button", { name: "Disable User" }).click();
      await poll(() => text(page)).toContain("This user is disabled.");
      // A disabled user's profile is read-only.
      expect(await page.getByTestId("profile-form").count()).toBe(0);
      await page.goto("/users/disabled");
      await poll(() => text(page)).toContain(PLAIN.email);
      // Disabled users show the placeholder avatar, which the app serves.
      const avatar = page.locator("tbody img[src='/static/images/avatar.svg']").first();
      await avatar.waitFor();
      await poll(() =>
        avatar.evaluate((img: HTMLImageElement) => img.naturalWidth),
      ).toBeGreaterThan(0);
      await page.locator("tbody").getByRole("button", { name: "Enable" }).click();
      await poll(() => text(page)).not.toContain(PLAIN.email);
    });

    it("shows a plain user only what they may see", async () => {
      const plain = await app.openSignedIn(DESKTOP, PLAIN);
      const { page } = plain;
      await page.goto("/users");
      await page.locator(".ant-tabs-tab").first().waitFor();
      const tabs = await page.locator(".ant-tabs-tab").allTextContents();
      expect(tabs).toEqual(["Users", "Groups", "Query Snippets"]);
      await poll(() => text(page)).toContain(ADMIN.email);
      expect(
        await page.locator("[data-testid=user-lists] .ant-menu-item").allTextContents(),
      ).toEqual(["Active Users", "Pending Invitations"]);
      expect(await page.getByRole("button", { name: "New User" }).count()).toBe(0);
      expect(await page.locator("tbody button").count()).toBe(0);
      // Another user's profile is read-only; the own one is editable, without admin actions.
      const adminId = (await app.api.get("/api/session")).body.user.id;
      await page.goto(`/users/${adminId}`);
      await poll(() => page.getByTestId("profile-readonly").count()).toBe(1);
      expect(await page.getByTestId("api-key").count()).toBe(0);
      // Only the groups this user can see are named; no made-up "Group 1" for the admin group.
      await poll(() => text(page)).toContain("default");
      expect(await text(page)).not.toMatch(/Group \d/);
      await page.goto("/users/me");
      await poll(() => page.getByTestId("profile-form").count()).toBe(1);
      expect(await page.getByRole("button", { name: "Disable User" }).count()).toBe(0);
      expect(await page.getByRole("button", { name: "Change Password" }).count()).toBe(1);
      await page.goto("/users/disabled");
      expect(await page.locator("[data-testid=user-lists] .ant-menu-item-selected").count()).toBe(
        0,
      );
      await screenshot(page, "plain-users-desktop");

      // Another user's snippet opens read-only, in legible fields, under the area's tabs.
      const snippet = await app.api.post("/api/query_snippets", {
        trigger: "admin_orders",
        description: "",
        snippet: "select * from orders",
      });
      await page.goto(`/query_snippets/${snippet.body.id}`);
      const trigger = page.locator("[data-testid=snippet-dialog] input[aria-label=Trigger]");
      await poll(() => trigger.inputValue()).toBe("admin_orders");
      expect(await trigger.getAttribute("readonly")).not.toBeNull();
      expect(await trigger.isDisabled()).toBe(false);
      expect(await page.getByTestId("save-snippet").count()).toBe(0);
      // After the dialog's opening animation.
      await poll(() =>
        page.locator(".ant-modal").evaluate((m) => getComputedStyle(m).transform),
      ).toBe("none");
      await screenshot(page, "plain-snippet-desktop");
      await plain.context.close();
      await app.api.delete(`/api/query_snippets/${snippet.body.id}`);

      const phone = await app.openSignedIn(PHONE, PLAIN);
      await phone.page.goto("/users");
      await poll(() => text(phone.page)).toContain(ADMIN.email);
      // The list fits the phone's width: no column cut off behind a sideways scroll.
      expect(
        await phone.page
          .locator(".ant-table-content")
          .evaluate((table) => table.scrollWidth <= table.clientWidth + 1),
      ).toBe(true);
      await screenshot(phone.page, "plain-users-phone");
      await phone.context.close();
    });
  });
  let pgId = 0;

  describe("data sources", () => {
    it("lists the seeded demo source as a tile, and deletes it after confirmation", async () => {
      const { page } = admin;
      const demo = (await app.api.get("/api/data_sources")).body[0];
      await page.goto("/data_sources");
      await poll(() => page.getByTestId("data-source-tiles").textContent()).toContain(demo.name);
      await screenshot(page, "admin-data-sources-list");
      await page.getByTestId("data-source-tiles").getByRole("link", { name: demo.name }).click();
      await page.waitForURL((url) => url.pathname === `/data_sources/${demo.id}`);
      await page.getByRole("button", { name: "Delete" }).click();
      await poll(() => page.locator(".ant-popconfirm").textContent()).toContain(
        "Are you sure you want to delete this data source?",
      );
      await page.locator(".ant-popconfirm").getByRole("button", { name: "Delete" }).click();
      await page.waitForURL((url) => url.pathname === "/data_sources");
      await poll(() => text(page)).toContain("Data source deleted successfully.");
      expect((await app.api.get(`/api/data_sources/${demo.id}`)).status).toBe(404);
    });

    it("creates a PostgreSQL data source through the dialog, refusing an invalid form", async () => {
      const { page } = admin;
      const posts = recordCalls(page, "POST", "/api/data_sources");
      await page.goto("/data_sources");
      await poll(() => text(page)).toContain("There are no data sources yet.");
      await screenshot(page, "admin-data-sources-empty");
      await page.getByRole("link", { name: "Click here" }).click();
      await page.waitForURL((url) => url.pathname === "/data_sources/new");
      const dialog = page.getByRole("dialog");
      await dialog.getByLabel("Search types").fill("postg");
      await poll(() => dialog.locator("button[data-testid^=type-]").count()).toBe(1);
      expect(await dialog.getByTestId("type-list").textContent()).toContain("PostgreSQL");
      await screenshot(page, "admin-data-source-types");
      await dialog.getByTestId("type-pg").click();
      await poll(() => dialog.textContent()).toContain("Database Name");
      await dialog.getByRole("button", { name: "Create" }).click();
      await poll(() => dialog.locator(".ant-form-item-explain-error").allTextContents()).toEqual([
        "This field is required.",
        "This field is required.",
      ]);
      expect(posts).toEqual([]);
      // Previous returns to the type list with the search cleared.
      await dialog.getByRole("button", { name: "Previous" }).click();
      expect(await dialog.getByLabel("Search types").inputValue()).toBe("");
      await dialog.getByTestId("type-pg").click();
      await dialog.getByLabel("Name", { exact: true }).fill("Test PG");
      expect(await dialog.getByLabel("Host").inputValue()).toBe("127.0.0.1");
      expect(await dialog.getByLabel("Port").inputValue()).toBe("5432");
      await dialog.getByLabel("User", { exact: true }).fill("postgres");
      await dialog.getByLabel("Database Name").fill("test");
      await screenshot(page, "admin-data-source-configuration");
      const created = page.waitForResponse(
        (r) => r.url().endsWith("/api/data_sources") && r.request().method() === "POST",
      );
      await dialog.getByRole("button", { name: "Create" }).click();
      const body = JSON.parse((await created).request().postData()!);
      expect(body).toMatchObject({
        name: "Test PG",
        type: "pg",
        options: {
          host: "127.0.0.1",
          port: 5432,
          user: "postgres",
          dbname: "test",
          password: null,
        },
      });
      await page.waitForURL((url) => /^\/data_sources\/\d+$/.test(url.pathname));
      pgId = Number(new URL(page.url()).pathname.split("/").pop());
      await poll(() => text(page)).toContain("Saved.");
      await poll(() => page.getByTestId("data-source-edit").count()).toBe(1);
      expect(await page.getByRole("link", { name: "Setup Instructions" }).count()).toBe(1);
    });

    it("tests the connection: Success, then the server's message for a bad port", async () => {
      const { page } = admin;
      await page.goto(`/data_sources/${pgId}`);
      await page.getByRole("button", { name: "Test Connection" }).click();
      await poll(() => page.locator(".ant-notification").textContent()).toContain("Success");
      await screenshot(page, "admin-data-source-test-ok");
      await page.getByLabel("Port").fill("1");
      await page.getByRole("button", { name: "Save" }).click();
      await poll(() => page.locator(".ant-notification").textContent()).toContain("Saved.");
      await page.getByRole("button", { name: "Test Connection" }).click();
      await poll(() => page.locator(".ant-notification").textContent()).toContain(
        "Connection Test Failed:",
      );
      const answer = await app.api.post(`/api/data_sources/${pgId}/test`);
      expect(answer.body.ok).toBe(false);
      expect(await page.locator(".ant-notification").textContent()).toContain(answer.body.message);
      await screenshot(page, "admin-data-source-test-failed");
      await page.getByLabel("Port").fill("5432");
      await page.getByRole("button", { name: "Save" }).click();
      await poll(async () => (await app.api.post(`/api/data_sources/${pgId}/test`)).body.ok).toBe(
        true,
      );
    });
  });

  describe("groups", () => {
    let viewersId = 0;

    it("lists groups with built-in labels and refuses deleting built-in ones", async () => {
      const { page } = admin;
      await page.goto("/groups");
      await poll(() => page.locator("tbody tr.ant-table-row").count()).toBe(2);
      expect(await page.locator("tbody").textContent()).toContain("built-in");
      const deletes = page.locator("tbody").getByRole("button", { name: "Delete" });
      expect(await deletes.count()).toBe(2);
      for (const button of await deletes.all()) expect(await button.isDisabled()).toBe(true);
      await deletes.first().hover({ force: true });
      await poll(() => text(page)).toContain("Cannot delete built-in group");
      await screenshot(page, "admin-groups-desktop");
    });

    it("creates a group, renames it in place, adds a member and a view-only data source", async () => {
      const { page } = admin;
      await page.goto("/groups");
      await page.getByRole("button", { name: "New Group" }).click();
      await page.getByLabel("Group Name").fill("Viewers");
      await page.getByRole("dialog").getByRole("button", { name: "Create" }).click();
      await page.waitForURL((url) => /^\/groups\/\d+$/.test(url.pathname));
      viewersId = Number(new URL(page.url()).pathname.split("/").pop());
      await poll(() => text(page)).toContain("There are no members in this group yet.");

      // Rename in place; a blank name is ignored.
      await page.getByTestId("group-name").click();
      await page.keyboard.press("ControlOrMeta+a");
      await page.keyboard.type("   ");
      await page.keyboard.press("Enter");
      await poll(() => page.getByTestId("group-name").textContent()).toBe("Viewers");
      await page.getByTestId("group-name").click();
      await page.keyboard.press("ControlOrMeta+a");
      await page.keyboard.type("Analysts");
      await page.keyboard.press("Enter");
      await poll(async () => (await app.api.get(`/api/groups/${viewersId}`)).body.name).toBe(
        "Analysts",
      );

      await page.getByRole("button", { name: "Add Members" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByLabel("Search", { exact: true }).fill("paula");
      await dialog.getByText(PLAIN.name).click();
      await dialog.getByRole("button", { name: "Save (1)" }).click();
      await poll(() => page.locator("tbody").textContent()).toContain(PLAIN.email);
      await screenshot(page, "admin-group-members");

      await page.getByRole("link", { name: "Data Sources" }).click();
      await page.waitForURL((url) => url.pathname === `/groups/${viewersId}/data_sources`);
      await poll(() => text(page)).toContain("There are no data sources in this group yet.");
      await page.getByRole("button", { name: "Add Data Sources" }).click();
      await dialog.getByText("Test PG").click();
      await dialog.getByRole("button", { name: "Save (1)" }).click();
      await poll(() => page.locator("tbody").textContent()).toContain("Test PG");
      await page.getByLabel("Access to Test PG").click();
      await page.locator(".ant-select-item-option", { hasText: "View Only" }).click();
      await poll(
        async () => (await app.api.get(`/api/groups/${viewersId}/data_sources`)).body[0]?.view_only,
      ).toBe(true);
      await screenshot(page, "admin-group-data-sources");
    });

    it("a member with only view-only access cannot run new text on the data source", async () => {
      const { page } = admin;
      // Take the source away from the default group, so that the view-only link is Paula's only one.
      const defaultGroup = (await app.api.get("/api/groups")).body.find(
        (g: any) => g.name === "default",
      );
      await page.goto(`/groups/${defaultGroup.id}/data_sources`);
      const row = page.locator("tbody tr.ant-table-row", { hasText: "Test PG" });
      await row.getByRole("button", { name: "Remove" }).click();
      await poll(() => text(page)).toContain("There are no data sources in this group yet.");

      const paula = new TestClient(app.server.url);
      await paula.login(PLAIN.email, PLAIN.password);
      const run = await paula.post("/api/query_results", {
        data_source_id: pgId,
        query: "select 1",
        max_age: 0,
      });
      expect(run.status).toBe(403);
      // The admin still may.
      const adminRun = await app.api.post("/api/query_results", {
        data_source_id: pgId,
        query: "select 1",
        max_age: 0,
      });
      expect(adminRun.status).toBe(200);
    });

    it("shows a plain user their groups without admin actions", async () => {
      const plain = await app.openSignedIn(DESKTOP, PLAIN);
      const { page } = plain;
      await page.goto("/groups");
      await poll(() => page.locator("tbody tr.ant-table-row").count()).toBe(2);
      expect(await page.getByRole("button", { name: "New Group" }).count()).toBe(0);
      expect(await page.locator("tbody").getByRole("button", { name: "Delete" }).count()).toBe(0);
      expect(
        await page.locator("tbody").getByRole("button", { name: "Data Sources" }).count(),
      ).toBe(0);
      await page.goto(`/groups/${viewersId}`);
      await poll(() => page.locator("tbody").textContent()).toContain(PLAIN.email);
      expect(await page.getByRole("button", { name: "Add Members" }).count()).toBe(0);
      expect(await page.locator("tbody").getByRole("button", { name: "Remove" }).count()).toBe(0);
      expect(await page.getByTestId("group-sections").textContent()).toBe("Members");
      await page.goto(`/groups/${viewersId}/data_sources`);
      await poll(() => page.getByTestId("error-message").textContent()).toContain("permission");
      await page.goto("/data_sources");
      await poll(() => page.getByTestId("error-message").textContent()).toContain("permission");
      await screenshot(page, "plain-data-sources-forbidden");
      await plain.context.close();
    });

    it("never offers the admin to remove themself from the built-in admin group", async () => {
      const { page } = admin;
      const adminGroup = (await app.api.get("/api/groups")).body.find(
        (g: any) => g.name === "admin",
      );
      await page.goto(`/groups/${adminGroup.id}`);
      await poll(() => page.locator("tbody").textContent()).toContain(ADMIN.email);
      expect(await page.locator("tbody").getByRole("button", { name: "Remove" }).count()).toBe(0);
      expect(await page.getByRole("button", { name: "Delete Group" }).isDisabled()).toBe(true);
    });
  });
  describe("organisation settings", () => {
    it("saves the general settings, keeping password login on without another method", async () => {
      const { page } = admin;
      await page.goto("/settings/general");
      await poll(() => page.getByTestId("settings-form").count()).toBe(1);
      // Password login cannot be turned off while no other method is on.
      expect(await page.getByLabel("Password Login Enabled").isDisabled()).toBe(true);
      await page.getByLabel("Date Format").click();
      await page.locator(".ant-select-item-option", { hasText: "YYYY-MM-DD" }).click();
      await page.getByText("Hide Plotly mode bar").click();
      await page.getByLabel("Allowed Google Apps Domains").fill("example.org");
      await page.keyboard.press("Enter");
      await page.getByText("SAML Enabled").click();
      await page.getByText("SAML 2.0 Metadata URL (dynamic)").click();
      await page.getByLabel("SAML Metadata URL").fill("https://idp.example.org/metadata");
      // With SAML on, password login may be turned off; the warning says so.
      await page.getByLabel("Password Login Enabled").uncheck();
      await poll(() => text(page)).toContain(
        "Password based login is currently disabled and users will be able to login only with the enabled SSO options.",
      );
      await screenshot(page, "admin-settings-desktop");
      await page.getByRole("button", { name: "Save" }).click();
      await poll(() => text(page)).toContain("Settings changes saved.");
      const saved = (await app.api.get("/api/settings/organization")).body.settings;
      expect(saved).toMatchObject({
        date_format: "YYYY-MM-DD",
        hide_plotly_mode_bar: true,
        auth_google_apps_domains: ["example.org"],
        auth_saml_enabled: true,
        auth_saml_type: "dynamic",
        auth_saml_metadata_url: "https://idp.example.org/metadata",
        auth_password_login_enabled: false,
      });
      // Turning SAML off forces password login back on.
      await page.getByText("SAML Enabled").click();
      expect(await page.getByLabel("Password Login Enabled").isChecked()).toBe(true);
      await page.getByRole("button", { name: "Save" }).click();
      await poll(
        async () =>
          (await app.api.get("/api/settings/organization")).body.settings
            .auth_password_login_enabled,
      ).toBe(true);
    });

    it("draws initials, fetching nothing from Gravatar, until an admin turns Gravatar on", async () => {
      const { page } = admin;
      const gravatarRequests: string[] = [];
      const onRequest = (request: { url(): string }) => {
        if (new URL(request.url()).hostname.endsWith("gravatar.com"))
          gravatarRequests.push(request.url());
      };
      page.on("request", onRequest);
      try {
        await page.goto("/users");
        await poll(() => page.locator(".ant-avatar").count()).toBeGreaterThan(0);
        await poll(() => page.locator(".ant-avatar").first().textContent()).toMatch(
          /^[A-Z?]{1,2}$/,
        );
        expect(await page.locator(".ant-avatar img").count()).toBe(0);
        expect(gravatarRequests).toEqual([]);

        await page.goto("/settings/general");
        await page.getByText("Show avatars from Gravatar").click();
        await page.getByRole("button", { name: "Save" }).click();
        await poll(() => text(page)).toContain("Settings changes saved.");
        await page.goto("/users");
        await poll(() => page.locator(".ant-avatar img").first().getAttribute("src")).toMatch(
          /^https:\/\/www\.gravatar\.com\/avatar\//,
        );
      } finally {
        page.off("request", onRequest);
        await app.api.post("/api/settings/organization", { feature_gravatar_avatars: false });
      }
    });

    it("is not offered to a plain user", async () => {
      const plain = await app.openSignedIn(DESKTOP, PLAIN);
      await plain.page.goto("/settings/general");
      await poll(() => plain.page.getByTestId("error-message").textContent()).toContain(
        "permission",
      );
      await plain.context.close();
    });
  });

  describe("admin status pages", () => {
    it("shows System Status, RQ Status and Outdated Queries to the super admin", async () => {
      const { page } = admin;
      await page.goto("/admin/status");
      await poll(() => page.locator(".ant-tabs-tab").allTextContents()).toEqual([
        "System Status",
        "RQ Status",
        "Outdated Queries",
      ]);
      for (const block of ["General", "Manager", "Queues", "Database metrics"]) {
        await poll(() => page.getByTestId(`status-${block}`).count()).toBe(1);
      }
      // The page names Sightline's own database; status.json keeps Redash's name for scripts.
      await poll(() => page.getByTestId("status-Database metrics").textContent()).toContain(
        "Metadata DB Size",
      );
      expect(await text(page)).not.toContain("Redash");
      await screenshot(page, "admin-system-status");

      // A query counting for hours keeps a data source busy: the Data Sources tab shows it.
      const source = await app.api.post("/api/data_sources", {
        name: "Busy counting",
        type: "results",
        options: {},
      });
      const run = await app.api.post("/api/query_results", {
        data_source_id: source.body.id,
        query: "SELECT count(*) FROM range(1000000000000) t(x) WHERE x % 7 = 3",
        max_age: 0,
      });
      const jobId: string = run.body.job.id;
      await page.goto("/admin/queries/jobs");
      await poll(() => text(page)).toContain("Started Jobs");
      expect(await text(page)).toContain("Queued Jobs");
      await page.getByRole("tab", { name: "Data Sources" }).click();
      const busyRow = page.locator("tr", { hasText: "Busy counting" });
      await poll(() => busyRow.locator("td").allTextContents()).toEqual([
        "Busy counting",
        "1",
        "0",
        "3",
      ]);
      await screenshot(page, "admin-rq-status-data-sources");
      expect((await app.api.delete(`/api/jobs/${jobId}`)).status).toBe(200);
      await app.api.delete(`/api/data_sources/${source.body.id}`);
      await page.getByRole("tab", { name: "Workers" }).click();
      await page.waitForURL((url) => url.hash === "#workers");
      await page.reload();
      await poll(() => page.locator(".ant-tabs-tab-active").last().textContent()).toBe("Workers");
      await screenshot(page, "admin-rq-status");

      await page.goto("/admin/queries/outdated");
      await poll(() => text(page)).toContain("Last updated");
      expect(await page.getByLabel("Auto update").isChecked()).toBe(true);
      await poll(() => text(page)).toContain("There are no outdated queries.");
      await screenshot(page, "admin-outdated-queries");
    });

    it("keeps them from a plain user", async () => {
      const plain = await app.openSignedIn(PHONE, PLAIN);
      await plain.page.goto("/admin/status");
      await poll(() => plain.page.getByTestId("error-message").textContent()).toContain(
        "permission",
      );
      await screenshot(plain.page, "plain-admin-status-phone");
      await plain.context.close();
    });
  });
});
