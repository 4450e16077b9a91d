import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestIdp } from "../packages/server/src/auth/providers/samlTestIdp";
import { BOTH_VIEWPORTS, PHONE, screenshot } from "./browser";
import { useBrowserApp } from "./fixtures/browserApp";

// A SAML identity provider on 127.0.0.1 that signs real assertions (xml-crypto, a key made at
// start) and answers with the auto-posting form a real provider shows after its own sign-in.
const idp = await startTestIdp();
const EMAIL_FORMAT = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress";

describe("SAML sign-in in the browser", () => {
  const app = useBrowserApp();

  beforeAll(async () => {
    const saved = await app.api.post("/api/settings/organization", {
      auth_saml_enabled: true,
      auth_saml_type: "static",
      auth_saml_sso_url: idp.ssoUrl,
      auth_saml_x509_cert: idp.certificate,
    });
    expect(saved.status, saved.text).toBe(200);
  });
  afterAll(() => idp.close());

  for (const { name, viewport } of BOTH_VIEWPORTS) {
    it(`signs in from the login page's SAML Login button (${name})`, async () => {
      idp.user = {
        nameId: `saml-${name}@example.com`,
        nameIdFormat: EMAIL_FORMAT,
        attributes: { FirstName: "Sam", LastName: name === "phone" ? "Phone" : "Desktop" },
      };
      const { page, context } = await app.open(viewport);
      await page.goto("/login?next=%2Fqueries");
      await page.locator("text=SAML Login").waitFor();
      await screenshot(page, `saml-login-${name}`);
      await page.click("text=SAML Login");
      await page.waitForURL((url) => url.pathname === "/queries");
      const session = await (await page.request.get("/api/session")).json();
      expect(session.user).toMatchObject({
        email: `saml-${name}@example.com`,
        name: `Sam ${name === "phone" ? "Phone" : "Desktop"}`,
      });
      await page.locator("text=Queries").first().waitFor();
      await screenshot(page, `saml-signed-in-${name}`);
      await context.close();
    });
  }

  it("shows why on the login page when the user is disabled", async () => {
    const created = await app.api.post<{ id: number }>("/api/users?no_invite=1", {
      name: "Dora",
      email: "dora-saml@example.com",
    });
    expect((await app.api.post(`/api/users/${created.body.id}/disable`)).status).toBe(200);
    idp.user = { nameId: "dora-saml@example.com", nameIdFormat: EMAIL_FORMAT };
    const { page, context } = await app.open(PHONE);
    await page.goto("/login");
    await page.click("text=SAML Login");
    await page.waitForURL((url) => url.pathname === "/login" && url.search.includes("sso_error"));
    await expect.poll(() => page.textContent(".alert")).toContain("Your account is disabled.");
    await screenshot(page, "saml-refused-phone");
    expect((await page.request.get("/api/session")).status()).not.toBe(200);
    await context.close();
  });

  it("signs in once from a double-clicked SAML Login button", async () => {
    idp.user = { nameId: "saml-impatient@example.com", nameIdFormat: EMAIL_FORMAT };
    const { page, context } = await app.open(PHONE);
    await page.goto("/login?next=%2Fqueries");
    await page.dblclick("text=SAML Login");
    await page.waitForURL((url) => url.pathname === "/queries");
    await page.locator("text=Queries").first().waitFor();
    expect(page.url()).not.toContain("sso_error");
    const session = await (await page.request.get("/api/session")).json();
    expect(session.user.email).toBe("saml-impatient@example.com");
    await context.close();
  });
});
