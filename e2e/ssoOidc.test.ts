import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestOidcProvider } from "../packages/server/src/auth/providers/oidcTestProvider";
import { BOTH_VIEWPORTS, PHONE, screenshot } from "./browser";
import { useBrowserApp } from "./fixtures/browserApp";

// A real OpenID provider (oidc-provider) on 127.0.0.1, behind both the generic method and the
// Google preset (pointed at it by the tests-only SIGHTLINE_GOOGLE_ISSUER).
const idp = await startTestOidcProvider();
const OIDC = { id: "sightline-e2e", secret: "e2e-oidc-secret" };
const GOOGLE = { id: "sightline-e2e-google", secret: "e2e-google-secret" };

describe("OpenID Connect sign-in in the browser", () => {
  const app = useBrowserApp({
    env: {
      SIGHTLINE_OIDC_ISSUER: idp.issuer,
      SIGHTLINE_OIDC_CLIENT_ID: OIDC.id,
      SIGHTLINE_OIDC_CLIENT_SECRET: OIDC.secret,
      SIGHTLINE_OIDC_DISPLAY_NAME: "Keycloak",
      SIGHTLINE_GOOGLE_CLIENT_ID: GOOGLE.id,
      SIGHTLINE_GOOGLE_CLIENT_SECRET: GOOGLE.secret,
      SIGHTLINE_GOOGLE_ISSUER: idp.issuer,
    },
  });

  beforeAll(() => {
    const url = app.server.url;
    idp.setClients([
      {
        client_id: OIDC.id,
        client_secret: OIDC.secret,
        redirect_uris: [`${url}/oidc/callback`],
        post_logout_redirect_uris: [`${url}/login`],
      },
      {
        client_id: GOOGLE.id,
        client_secret: GOOGLE.secret,
        redirect_uris: [`${url}/oauth/google_callback`],
      },
    ]);
    for (const { name } of BOTH_VIEWPORTS) {
      idp.accounts.set(`oidc-${name}@example.com`, {
        email: `oidc-${name}@example.com`,
        email_verified: true,
        name: `OIDC ${name}`,
      });
    }
    idp.accounts.set("google@example.com", { email: "google@example.com", email_verified: true });
    idp.accounts.set("unverified@example.com", {
      email: "unverified@example.com",
      email_verified: false,
    });
  });
  afterAll(() => idp.close());

  for (const { name, viewport } of BOTH_VIEWPORTS) {
    it(`signs in from the login page's Sign in with Keycloak button, and out again (${name})`, async () => {
      const { page, context } = await app.open(viewport);
      await page.goto("/login?next=%2Fqueries");
      await expect.poll(() => page.isVisible("text=Sign in with Google")).toBe(true);
      await screenshot(page, `oidc-login-${name}`);
      // The outlined buttons answer the pointer and show keyboard focus in the product's blue.
      const blue = "rgb(34, 81, 209)";
      const styleOf = (text: string, prop: "borderColor" | "outlineStyle") =>
        page
          .locator("a.sso-button", { hasText: text })
          .evaluate((el, p) => getComputedStyle(el)[p as "borderColor"], prop);
      expect(await styleOf("Sign in with Google", "borderColor")).not.toBe(blue);
      await page.hover("text=Sign in with Google");
      await expect.poll(() => styleOf("Sign in with Google", "borderColor")).toBe(blue);
      await screenshot(page, `oidc-login-hover-${name}`);
      await page.mouse.move(0, 0);
      await page.focus("text=Sign in with Google");
      await page.keyboard.press("Tab");
      await expect.poll(() => styleOf("Sign in with Keycloak", "outlineStyle")).toBe("solid");
      expect(await styleOf("Sign in with Google", "outlineStyle")).toBe("none");
      await expect.poll(() => styleOf("Sign in with Keycloak", "borderColor")).toBe(blue);
      await expect.poll(() => styleOf("Sign in with Google", "borderColor")).not.toBe(blue);
      await screenshot(page, `oidc-login-focus-${name}`);
      await page.click("text=Sign in with Keycloak");
      await page.waitForURL((url) => url.href.startsWith(idp.issuer));
      await page.fill("#login", `oidc-${name}@example.com`);
      await page.click("text=Sign in");
      await page.waitForURL((url) => url.pathname === "/queries");
      const session = await (await page.request.get("/api/session")).json();
      expect(session.user).toMatchObject({
        email: `oidc-${name}@example.com`,
        name: `OIDC ${name}`,
      });
      await page.locator("text=Queries").first().waitFor();
      await screenshot(page, `oidc-signed-in-${name}`);

      // Logout ends Sightline's session, then offers the provider's.
      await page.goto("/logout");
      await page.waitForURL((url) => url.href.startsWith(`${idp.issuer}/session/end`));
      await page.click("button[name=logout][value=yes]");
      await page.waitForURL((url) => url.pathname === "/login");
      expect((await page.request.get("/api/session")).status()).not.toBe(200);
      await context.close();
    });
  }

  it("signs in with the Google preset", async () => {
    const { page, context } = await app.open(PHONE);
    await page.goto("/login");
    await page.click("text=Sign in with Google");
    await page.fill("#login", "google@example.com");
    await page.click("text=Sign in");
    await page.waitForURL((url) => url.pathname === "/");
    const session = await (await page.request.get("/api/session")).json();
    expect(session.user.email).toBe("google@example.com");
    await context.close();
  });

  it("shows why on the login page when the provider did not verify the address", async () => {
    const { page, context } = await app.open(PHONE);
    await page.goto("/login");
    await page.click("text=Sign in with Keycloak");
    await page.fill("#login", "unverified@example.com");
    await page.click("text=Sign in");
    await page.waitForURL((url) => url.pathname === "/login");
    await expect
      .poll(() => page.textContent(".alert"))
      .toContain("Your sign-in provider did not confirm your e-mail address.");
    await screenshot(page, "oidc-refused-phone");
    await context.close();
  });

  it("signs in after a double-clicked button and Back from the provider's page", async () => {
    idp.accounts.set("impatient@example.com", {
      email: "impatient@example.com",
      email_verified: true,
    });
    const { page, context } = await app.open(PHONE);
    await page.goto("/login?next=%2Fqueries");
    await page.dblclick("text=Sign in with Keycloak");
    await page.waitForURL((url) => url.href.startsWith(idp.issuer));
    // Back on Sightline's login page, then the button again.
    await page.goBack();
    await page.waitForURL((url) => url.pathname === "/login");
    await page.click("text=Sign in with Keycloak");
    await page.waitForURL((url) => url.href.startsWith(idp.issuer));
    await page.fill("#login", "impatient@example.com");
    await page.click("text=Sign in");
    await page.waitForURL((url) => url.pathname === "/queries");
    const session = await (await page.request.get("/api/session")).json();
    expect(session.user.email).toBe("impatient@example.com");
    await context.close();
  });
});
