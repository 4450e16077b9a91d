import { beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { ADMIN } from "../packages/server/src/testing/httpClient";
import { findOrgBySlug } from "../packages/server/src/store/organizations";
import { findUserByEmail, insertGroup } from "../packages/server/src/store/users";
import { findDataSourceByName } from "../packages/server/src/store/dataSources";
import { addDataSourceLink, setDataSourceViewOnly } from "../packages/server/src/store/groups";
import { DEFAULT_GROUP_PERMISSIONS } from "@sightline/core";
import { DESKTOP, PHONE, screenshot } from "./browser";
import { useBrowserApp, type Credentials } from "./fixtures/browserApp";
import { createUserWithPassword } from "./fixtures/users";

const PAULA = { email: "paula@example.com", password: "paula-password" };
const VICTOR = { email: "victor@example.com", password: "victor-password" };
const RITA = { email: "rita@example.com", password: "rita-password" };

describe("the app shell", () => {
  const app = useBrowserApp();

  /** Signed in, once the top bar shows. */
  async function signedIn(user: Credentials = ADMIN, viewport = DESKTOP) {
    const session = await app.openSignedIn(viewport, user);
    await session.page.getByTestId("top-bar").waitFor();
    return session;
  }

  /** The home page once its lists have loaded (no skeleton left), `section` among them. */
  async function homeLoaded(page: Page, section: string) {
    const home = page.getByTestId("home-page");
    await expect.poll(() => home.getByText(section).count()).toBe(1);
    await expect.poll(() => home.locator(".ant-skeleton").count()).toBe(0);
    return home;
  }

  beforeAll(async () => {
    const db = app.server.ctx.database.db;
    const org = (await findOrgBySlug(db, "default"))!;
    await createUserWithPassword(app.server, { name: "Paula Plain", ...PAULA });
    const viewers = await insertGroup(db, org.id, "viewers", "regular", ["view_query"]);
    await createUserWithPassword(app.server, {
      name: "Victor Viewer",
      ...VICTOR,
      groupIds: [viewers.id],
    });
    // Every permission of the default group, but the only data source is view-only.
    const readers = await insertGroup(db, org.id, "readers", "regular", [
      ...DEFAULT_GROUP_PERMISSIONS,
    ]);
    const demo = (await findDataSourceByName(db, org.id, "Demo"))!;
    await addDataSourceLink(db, readers.id, demo.id);
    await setDataSourceViewOnly(db, readers.id, demo.id, true);
    await createUserWithPassword(app.server, {
      name: "Rita Reader",
      ...RITA,
      groupIds: [readers.id],
    });
  });

  it("shows an admin every navigation item", async () => {
    const { page, context } = await signedIn();
    const bar = page.getByTestId("top-bar");
    for (const item of ["Dashboards", "Queries", "Alerts"]) {
      await expect.poll(() => bar.getByText(item, { exact: true }).count()).toBeGreaterThan(0);
    }
    expect(await page.getByTestId("settings-link").getAttribute("href")).toBe("/data_sources");
    await page.getByTestId("create-menu").click();
    for (const item of ["Query", "Dashboard", "Alert"]) {
      await expect
        .poll(() => page.getByRole("menuitem", { name: item, exact: true }).count())
        .toBe(1);
    }
    await page.keyboard.press("Escape");
    await page.getByTestId("user-menu").click();
    await expect.poll(() => page.getByText("System Status").count()).toBeGreaterThan(0);
    await page.keyboard.press("Escape");
    await screenshot(page, "home-admin-desktop");
    await context.close();
  });

  it("shows a plain user what the default group allows", async () => {
    const { page, context } = await signedIn(PAULA);
    // Setup's Demo data source completes the data source step; its Demo queries and dashboard
    // are offered first, and the user's own are still to make, as links.
    await homeLoaded(page, "Favorite Dashboards");
    const onboarding = page.getByTestId("onboarding");
    await expect.poll(() => onboarding.count()).toBe(1);
    expect(await onboarding.getByTestId("onboarding-data_source").textContent()).toBe(
      "Ask an account admin to connect a data source",
    );
    expect(await onboarding.getByTestId("onboarding-data_source").locator("a").count()).toBe(0);
    const demoStep = onboarding.getByRole("link", {
      name: "Explore the Demo dashboard and queries",
    });
    expect(await demoStep.getAttribute("href")).toBe("/dashboards?tags=demo");
    expect(await onboarding.getByRole("link", { name: "Create your own Query" }).count()).toBe(1);
    expect(await onboarding.getByRole("link", { name: "Create your own Dashboard" }).count()).toBe(
      1,
    );
    expect(await onboarding.getByText(/Create your first/).count()).toBe(0);
    expect(await page.getByTestId("settings-link").getAttribute("href")).toBe("/users");
    await page.getByTestId("user-menu").click();
    await expect.poll(() => page.getByText("Profile").count()).toBeGreaterThan(0);
    expect(await page.getByText("System Status").count()).toBe(0);
    await page.keyboard.press("Escape");
    await context.close();
  });

  it("hides what a view-only user may not use", async () => {
    const { page, context } = await signedIn(VICTOR);
    const bar = page.getByTestId("top-bar");
    await expect.poll(() => bar.getByText("Queries", { exact: true }).count()).toBeGreaterThan(0);
    expect(await bar.getByText("Dashboards", { exact: true }).count()).toBe(0);
    expect(await bar.getByText("Alerts", { exact: true }).count()).toBe(0);
    expect(await page.getByTestId("create-menu").count()).toBe(0);
    expect(await page.getByTestId("settings-link").count()).toBe(0);
    await context.close();
  });

  it("offers no query to create when every data source is view-only", async () => {
    const { page, context } = await signedIn(RITA);
    const home = await homeLoaded(page, "Favorite Queries");
    expect(await home.getByText(/Create your (first|own) Query/).count()).toBe(0);
    expect(await home.locator("a[href='/queries/new']").count()).toBe(0);
    await screenshot(page, "home-view-only-desktop");

    // My Queries shows the generic empty state, not the offer.
    await page.goto("/queries/my");
    const empty = page.getByTestId("empty-state");
    await expect.poll(() => empty.textContent()).toContain("You have no queries yet.");
    await page.waitForLoadState("networkidle");
    expect(await page.getByText("Create your first query!").count()).toBe(0);
    await context.close();

    const phone = await signedIn(RITA, PHONE);
    const phoneHome = phone.page.getByTestId("home-page");
    await expect.poll(() => phoneHome.getByText("Favorite Queries").count()).toBe(1);
    await expect.poll(() => phoneHome.locator(".ant-skeleton").count()).toBe(0);
    expect(await phoneHome.locator("a[href='/queries/new']").count()).toBe(0);
    await screenshot(phone.page, "home-view-only-phone");
    await phone.context.close();
  });

  it("collapses the navigation into a drawer on a phone", async () => {
    const { page, context } = await signedIn(ADMIN, PHONE);
    await screenshot(page, "home-admin-phone");
    await page.getByTestId("mobile-menu-button").click();
    await expect.poll(() => page.getByText("Log out").count()).toBeGreaterThan(0);
    await page.waitForTimeout(500); // let the drawer finish sliding in
    await screenshot(page, "navigation-drawer-phone");
    await context.close();
  });

  it("opens the help drawer with the help page", async () => {
    const { page, context } = await signedIn();
    await page.getByTestId("top-bar").getByText("Help").click();
    const frame = page.frameLocator("iframe");
    await expect
      .poll(() => frame.locator("h1").textContent({ timeout: 5000 }))
      .toBe("Sightline help");
    expect(await page.getByText("Something went wrong.").count()).toBe(0);
    await page.waitForTimeout(400);
    await screenshot(page, "help-drawer-desktop");
    await context.close();
  });

  it("says so at once when the help page cannot be loaded", async () => {
    const { page, context } = await signedIn();
    await page.route("**/docs/index.html", (route) => route.abort("connectionrefused"));
    await page.getByTestId("top-bar").getByText("Help").click();
    // Well before the 20 s fallback: the frame's load shows the browser's error page.
    await expect
      .poll(() => page.getByText("Something went wrong.").count(), { timeout: 5000 })
      .toBe(1);
    await context.close();
  });

  it("asks for usage data consent once: answered, the card stays away", async () => {
    const { page, context } = await signedIn();
    await expect.poll(() => page.getByTestId("beacon-consent").count()).toBe(1);
    await page.getByTestId("beacon-consent").getByRole("button", { name: "No" }).click();
    await expect.poll(() => page.textContent("body")).toContain("Thank you.");
    await expect.poll(() => page.getByTestId("beacon-consent").count()).toBe(0);
    // Away and back inside the app, without a reload.
    await page.getByTestId("top-bar").getByText("Queries").click();
    await page.waitForURL((url) => url.pathname === "/queries");
    await page.goBack();
    await page.waitForURL((url) => url.pathname === "/");
    await page.waitForTimeout(500);
    expect(await page.getByTestId("beacon-consent").count()).toBe(0);
    await context.close();
  });

  it("shows the not-found screen for unknown paths", async () => {
    const { page, context } = await signedIn();
    await page.goto("/no/such/page");
    await expect
      .poll(() => page.textContent("body"))
      .toContain("It seems like the page you're looking for cannot be found.");
    await context.close();
  });

  it("asks to log in again when the session ends, then retries the failed call", async () => {
    const { page, context } = await signedIn(PAULA);
    // The home page's own calls answered first: only the call below meets the ended session.
    await homeLoaded(page, "Favorite Dashboards");
    // End every session of this user (as a password change elsewhere would).
    const db = app.server.ctx.database.db;
    const org = (await findOrgBySlug(db, "default"))!;
    const user = (await findUserByEmail(db, org.id, "paula@example.com"))!;
    await db
      .updateTable("users")
      .set({ session_token: "ended" })
      .where("id", "=", user.id)
      .execute();
    // Creating a dashboard is the call that fails with "Please login" and must be sent again.
    const dashboardPosts: string[] = [];
    page.on("request", (req) => {
      if (new URL(req.url()).pathname === "/api/dashboards" && req.method() === "POST") {
        dashboardPosts.push(req.postData() ?? "");
      }
    });
    await page.getByTestId("create-menu").click();
    await page.getByRole("menuitem", { name: "Dashboard", exact: true }).click();
    await page.getByRole("dialog").getByRole("textbox").fill("Sales");
    await page.keyboard.press("Enter");
    await expect
      .poll(() => page.getByText("Your session has expired. Please login to continue.").count())
      .toBe(1);
    await page.waitForTimeout(500); // let the modal finish its opening animation
    await screenshot(page, "session-expired-modal");
    const popupPromise = page.waitForEvent("popup");
    await page.getByRole("button", { name: "Login" }).click();
    const popup = await popupPromise;
    expect(popup.viewportSize()).toEqual({ width: 640, height: 640 });
    await popup.waitForSelector("#email");
    await popup.fill("#email", "paula@example.com");
    await popup.fill("#password", "paula-password");
    await popup.click("button[type=submit]");
    await popup.waitForEvent("close");
    // The modal closes (antd keeps its DOM, hidden).
    await expect
      .poll(() => page.getByText("Your session has expired. Please login to continue.").isVisible())
      .toBe(false);
    // The failed call was sent again with the new session.
    // The failed call was sent again, with the same body, once the session was back.
    await expect.poll(() => dashboardPosts.length).toBe(2);
    expect(JSON.parse(dashboardPosts[1]!)).toEqual({ name: "Sales" });
    await context.close();
  });
});
