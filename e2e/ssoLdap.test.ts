import { afterAll, describe, expect, it } from "vitest";
import { LDAP_USERS, startTestLdap } from "../packages/server/src/testing/ldapServer";
import { BOTH_VIEWPORTS, DESKTOP, PHONE, screenshot } from "./browser";
import { useBrowserApp } from "./fixtures/browserApp";

// Debian's slapd, started for this file (testing/ldapServer.ts); under CI a missing slapd fails.
const LDAP = await startTestLdap();
afterAll(() => LDAP?.stop());

describe.skipIf(!LDAP)("LDAP login in the browser", () => {
  const app = useBrowserApp({ env: LDAP?.env ?? {} });
  const people = { desktop: LDAP_USERS.ada, phone: LDAP_USERS.grace };

  for (const { name, viewport } of BOTH_VIEWPORTS) {
    it(`signs in from the login page's LDAP/SSO Login button through the LDAP form (${name})`, async () => {
      const person = people[name];
      const { page, context } = await app.open(viewport);
      await page.goto("/login?next=%2Fqueries");
      await screenshot(page, `ldap-login-button-${name}`);
      await page.click("text=LDAP/SSO Login");
      await page.waitForURL((url) => url.pathname === "/ldap/login");
      expect(new URL(page.url()).searchParams.get("next")).toBe("/queries");
      await expect
        .poll(() => page.textContent("label[for=username]"))
        .toBe("LDAP/AD/SSO username:");
      await page.fill("#username", person.uid);
      await page.fill("#password", person.password);
      await screenshot(page, `ldap-form-${name}`);
      await page.click("button[type=submit]");
      await page.waitForURL((url) => url.pathname === "/queries");
      const session = await (await page.request.get("/api/session")).json();
      expect(session.user.email).toBe(person.mail!.toLowerCase());
      expect(session.user.name).toBe(person.displayName);
      await context.close();
    });
  }

  it("shows the form again with a message for a wrong password", async () => {
    const { page, context } = await app.open(PHONE);
    await page.goto("/ldap/login");
    await page.fill("#username", "ada");
    await page.fill("#password", "not her password");
    await page.click("button[type=submit]");
    await expect.poll(() => page.textContent(".alert")).toBe("Wrong username or password.");
    expect(await page.inputValue("#username")).toBe("ada");
    expect(await page.inputValue("#password")).toBe("");
    await screenshot(page, "ldap-form-refused-phone");
    const session = await page.request.get("/api/session");
    expect(session.status()).not.toBe(200);
    await context.close();
  });

  it("lets a signed-in admin test the settings without signing anyone in", async () => {
    const { page, context } = await app.openSignedIn(DESKTOP);
    await page.goto("/ldap/login?test=1");
    await expect.poll(() => page.textContent("h1")).toBe("Test LDAP sign-in");
    await page.fill("#username", "ada");
    await page.fill("#password", LDAP_USERS.ada.password);
    await screenshot(page, "ldap-test-form-desktop");
    await page.click("button[type=submit]");
    await expect.poll(() => page.textContent("body")).toContain("Ada.Lovelace@example.com");
    const session = await (await page.request.get("/api/session")).json();
    expect(session.user.email).toBe("admin@example.com");
    await context.close();
  });

  it("signs in with Enter pressed right after typing, and once when the form is sent twice", async () => {
    const { page, context } = await app.open(DESKTOP);
    await page.goto("/ldap/login?next=%2Fdashboards");
    await page.locator("#username").pressSequentially("grace", { delay: 0 });
    await page.locator("#password").pressSequentially(LDAP_USERS.grace.password, { delay: 0 });
    await page.keyboard.press("Enter");
    await page.waitForURL((url) => url.pathname === "/dashboards");
    expect((await (await page.request.get("/api/session")).json()).user.name).toBe(
      LDAP_USERS.grace.displayName,
    );
    await context.close();

    // An impatient double click on the button: the second sending must not end on an error.
    const second = await app.open(DESKTOP);
    await second.page.goto("/ldap/login?next=%2Fqueries");
    await second.page.fill("#username", "ada");
    await second.page.fill("#password", LDAP_USERS.ada.password);
    await second.page.dblclick("button[type=submit]");
    await second.page.waitForURL((url) => url.pathname === "/queries");
    const session = await (await second.page.request.get("/api/session")).json();
    expect(session.user.email).toBe(LDAP_USERS.ada.mail!.toLowerCase());
    expect(await second.page.textContent("body")).not.toContain("Wrong username or password.");
    await second.context.close();
  });
});
