import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { ADMIN } from "../packages/server/src/testing/httpClient";
import { findOrgBySlug } from "../packages/server/src/store/organizations";
import { listDestinations } from "../packages/server/src/store/destinations";
import { readDestinationOptions } from "../packages/server/src/destinations/options";
import { DESKTOP, PHONE, screenshot } from "./browser";
import { useBrowserApp, type Credentials } from "./fixtures/browserApp";
import { createUserWithPassword } from "./fixtures/users";

const SLACK_URL = "https://hooks.slack.com/services/T1/B1/browser-secret";
const HOOK_URL = "https://example.com/alerts?token=hook-secret";

/** Waits until the open dialog has finished its opening animation. */
async function dialogShown(page: Page) {
  await page.locator(".ant-modal").first().waitFor();
  await page.waitForTimeout(500);
}

describe("alert destinations in the browser", { timeout: 90_000 }, () => {
  const app = useBrowserApp();

  async function signedIn(viewport = DESKTOP, user: Credentials = ADMIN) {
    const session = await app.openSignedIn(viewport, user);
    session.page.setDefaultTimeout(10_000);
    return session;
  }

  async function stored() {
    const db = app.server.ctx.database.db;
    const org = (await findOrgBySlug(db, "default"))!;
    return (await listDestinations(db, org.id)).map((d) => ({
      ...d,
      options: readDestinationOptions(app.server.ctx, d),
    }));
  }

  it("lets an admin create, edit and delete destinations", async () => {
    const { page, context } = await signedIn();

    await page.goto("/destinations");
    await page.getByText("There are no alert destinations yet.").waitFor();
    await screenshot(page, "destinations-empty-desktop");

    // Create a Slack destination through the dialog.
    await page.getByTestId("new-destination").click();
    await page.waitForURL((url) => url.pathname === "/destinations/new");
    await page.getByTestId("type-slack").waitFor();
    expect(await page.getByTestId("type-hipchat").count()).toBe(0); // deprecated: not offered
    await dialogShown(page);
    await screenshot(page, "destinations-create-types-desktop");
    await page.getByLabel("Search types").fill("slack");
    expect(await page.getByTestId("type-email").count()).toBe(0);
    await page.getByTestId("type-slack").click();
    await page.fill("#name", "Team Slack");
    await page.fill("#url", SLACK_URL);
    await screenshot(page, "destinations-create-config-desktop");
    await page.getByRole("button", { name: "Create", exact: true }).click();
    await page.waitForURL((url) => /^\/destinations\/\d+$/.test(url.pathname));
    await page.getByText("Saved.").first().waitFor();
    const slackPath = new URL(page.url()).pathname;

    // The edit page shows the secret masked; saving the mask keeps the stored URL.
    await page.locator("#url").waitFor();
    expect(await page.inputValue("#url")).toBe("--------");
    await screenshot(page, "destinations-edit-desktop");
    await page.fill("#name", "Team Slack (alerts)");
    await page.getByRole("button", { name: "Save" }).click();
    await expect
      .poll(async () => (await stored()).find((d) => d.type === "slack")?.name)
      .toBe("Team Slack (alerts)");
    expect((await stored()).find((d) => d.type === "slack")!.options).toEqual({ url: SLACK_URL });
    const html = await page.content();
    expect(html).not.toContain("browser-secret");

    // A webhook: the required URL is checked before anything is sent.
    await page.goto("/destinations/new");
    await page.getByTestId("type-webhook").click();
    await page.fill("#name", "Ops webhook");
    await page.getByRole("button", { name: "Create", exact: true }).click();
    await page.getByText("This field is required.").first().waitFor();
    expect(await stored()).toHaveLength(1);
    await page.fill("#url", HOOK_URL);
    await page.fill("#username", "ops");
    await page.getByRole("button", { name: "Create", exact: true }).click();
    await page.waitForURL((url) => /^\/destinations\/\d+$/.test(url.pathname));
    const hook = (await stored()).find((d) => d.type === "webhook")!;
    expect(hook.options).toEqual({ url: HOOK_URL, username: "ops" });

    // Duplicate names come back with the server's message on the Configuration step.
    await page.goto("/destinations/new");
    await page.getByTestId("type-email").click();
    await page.fill("#name", "Ops webhook");
    await page.fill("#addresses", "ops@example.com");
    await page.getByRole("button", { name: "Create", exact: true }).click();
    // The message shows above the buttons and marks the Name field it names.
    const duplicate = "Alert Destination with the name Ops webhook already exists.";
    await page.getByRole("alert").getByText(duplicate).waitFor();
    await page.locator("#name_help").getByText(duplicate).waitFor();
    await page
      .getByRole("button", { name: "Cancel" })
      .or(page.locator(".ant-modal-close"))
      .first()
      .click();
    await page.waitForURL((url) => url.pathname === "/destinations");

    await page.getByText("Team Slack (alerts)").waitFor();
    await page.getByText("Ops webhook").waitFor();
    await screenshot(page, "destinations-list-desktop");

    // Delete the Slack destination after confirming.
    await page.goto(slackPath);
    await page.getByTestId("delete-destination").click();
    await page.getByText("Are you sure you want to delete this alert destination?").waitFor();
    await dialogShown(page);
    await screenshot(page, "destinations-delete-confirm-desktop");
    await page.locator(".ant-modal-confirm").getByRole("button", { name: "Delete" }).click();
    await page.waitForURL((url) => url.pathname === "/destinations");
    await page.getByText("Alert destination deleted successfully.").waitFor();
    await page.getByText("Ops webhook").waitFor();
    expect(await page.getByText("Team Slack (alerts)").count()).toBe(0);
    expect((await stored()).map((d) => d.name)).toEqual(["Ops webhook"]);
    await context.close();
  });

  it("looks right on a phone", async () => {
    const { page, context } = await signedIn(PHONE);
    await page.goto("/destinations");
    await page.getByText("Ops webhook").waitFor();
    await screenshot(page, "destinations-list-phone");
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(PHONE.width);
    await page.getByText("Ops webhook").click();
    await page.locator("#url").waitFor();
    await screenshot(page, "destinations-edit-phone");
    await page.goto("/destinations/new");
    await page.getByTestId("type-slack").waitFor();
    await dialogShown(page);
    await screenshot(page, "destinations-create-phone");
    await context.close();
    expect(DESKTOP.width).toBe(1280);
  });

  it("shows no Alert Destinations tab to a plain user", async () => {
    const pat = { email: "pat@example.com", password: "pat-password" };
    await createUserWithPassword(app.server, { name: "Pat Plain", ...pat });
    const { page, context } = await signedIn(DESKTOP, pat);
    await page.goto("/query_snippets");
    await page.getByRole("tab").first().waitFor();
    const tabs = await page.getByRole("tab").allTextContents();
    expect(tabs).not.toContain("Alert Destinations");
    await page.goto("/destinations");
    await page.getByTestId("error-message").waitFor();
    expect(await page.getByRole("tab", { name: "Alert Destinations" }).count()).toBe(0);
    expect(await page.getByTestId("new-destination").count()).toBe(0);
    await screenshot(page, "destinations-plain-user-desktop");
    await context.close();
  });
});
