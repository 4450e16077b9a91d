import { describe, expect, it } from "vitest";
import { findOrgBySlug } from "../packages/server/src/store/organizations";
import { findUserByEmail, insertUser } from "../packages/server/src/store/users";
import { defaultGroupId } from "../packages/server/src/services/organizationSetup";
import { inviteLink, resetLink } from "../packages/server/src/auth/routes/links";
import { DESKTOP, PHONE, screenshot } from "./browser";
import { useBrowserApp } from "./fixtures/browserApp";

describe("sign-in flows in the browser", () => {
  // First-run setup is the first flow walked here.
  const app = useBrowserApp({ setUp: false });

  it("runs first-run setup, then lands signed in on the home page", async () => {
    const { page, context } = await app.open();
    await page.goto("/");
    expect(new URL(page.url()).pathname).toBe("/setup");
    await screenshot(page, "setup-desktop");
    // Bad input first: the page shows field messages and keeps the values.
    await page.fill("#name", "Grace Admin");
    await page.fill("#email", "not-an-email");
    await page.fill("#password", "123");
    await page.fill("#org_name", "Acme");
    await page.click("button[type=submit]");
    await expect.poll(() => page.textContent("body")).toContain("Invalid email address.");
    expect(await page.inputValue("#name")).toBe("Grace Admin");
    // A short password is kept too, to be lengthened rather than typed again.
    expect(await page.textContent("body")).toContain("Field must be at least 6 characters long.");
    expect(await page.inputValue("#password")).toBe("123");
    await page.fill("#email", "grace@example.com");
    await page.fill("#password", "grace-password");
    await page.click("button[type=submit]");
    await page.waitForURL((url) => url.pathname === "/");
    const session = await (await page.request.get("/api/session")).json();
    expect(session.user.email).toBe("grace@example.com");
    await context.close();
  });

  it("logs in (keeping next), shows a wrong password, and logs out", async () => {
    const { page, context } = await app.open();
    await page.goto("/queries");
    expect(page.url()).toContain("/login?next=%2Fqueries");
    await screenshot(page, "login-desktop");
    await page.fill("#email", "grace@example.com");
    await page.fill("#password", "wrong");
    await page.click("button[type=submit]");
    await expect.poll(() => page.textContent(".alert")).toContain("Wrong email or password.");
    expect(await page.inputValue("#email")).toBe("grace@example.com");
    await page.fill("#password", "grace-password");
    await page.click("button[type=submit]");
    await page.waitForURL((url) => url.pathname === "/queries");
    expect((await page.request.get("/api/session")).status()).toBe(200);
    await page.goto("/logout");
    await page.waitForURL((url) => url.pathname === "/login");
    // Session checks go through the context's own cookies (page.request), not the page's script:
    // a page still settling after a redirect can destroy the script's context mid-call.
    const status = (await page.request.get("/api/session")).status();
    expect(status).toBe(404);
    await context.close();
  });

  it("looks right on a phone", async () => {
    const { page, context } = await app.open(PHONE);
    await page.goto("/login");
    const box = await page.locator("main.card").boundingBox();
    expect(box!.width).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, "login-phone");
    await context.close();
    expect(DESKTOP.width).toBe(1280);
  });

  it("accepts an invitation and a password reset", async () => {
    const db = app.server.ctx.database.db;
    const org = (await findOrgBySlug(db, "default"))!;
    const invited = await insertUser(db, {
      orgId: org.id,
      name: "Ivan Invited",
      email: "ivan@example.com",
      passwordHash: null,
      groupIds: [await defaultGroupId(db, org.id)],
      invitationPending: true,
    });
    const { page, context } = await app.open();
    await page.goto(inviteLink(app.server.ctx, invited));
    await screenshot(page, "invite-desktop");
    await page.fill("#password", "123");
    await page.click("button[type=submit]");
    await expect
      .poll(() => page.textContent(".alert"))
      .toContain("Password length is too short (<6).");
    await page.fill("#password", "ivan-password");
    await page.click("button[type=submit]");
    await page.waitForURL((url) => url.pathname === "/");
    const who = await (await page.request.get("/api/session")).json();
    expect(who.user.email).toBe("ivan@example.com");
    await context.close();

    const user = (await findUserByEmail(db, org.id, "ivan@example.com"))!;
    const reset = await app.open();
    await reset.page.goto(resetLink(app.server.ctx, user));
    await reset.page.fill("#password", "ivan-new-password");
    await reset.page.click("button[type=submit]");
    await reset.page.waitForURL((url) => url.pathname === "/");
    // The used link is refused afterwards.
    await reset.page.goto(resetLink(app.server.ctx, user).replace(/.$/, "x"));
    expect(await reset.page.textContent("body")).toContain("invalid");
    await reset.context.close();
  });
});
