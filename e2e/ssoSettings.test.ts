import { describe, expect, it } from "vitest";
import { DESKTOP, PHONE, screenshot } from "./browser";
import { useBrowserApp } from "./fixtures/browserApp";
import { ADMIN } from "../packages/server/src/testing/httpClient";

// LDAP is configured (it is never contacted here), so the settings page offers its test sign-in
// and password login may be turned off.
describe("single sign-on settings in the browser", () => {
  const app = useBrowserApp({
    env: {
      SIGHTLINE_LDAP_LOGIN_ENABLED: "true",
      SIGHTLINE_LDAP_URL: "ldap://127.0.0.1:1",
      SIGHTLINE_LDAP_SEARCH_DN: "dc=example,dc=org",
    },
  });

  it("adds a group mapping that is there after a reload, and offers Test sign-in (desktop)", async () => {
    const group = await app.api.post<{ id: number; name: string }>("/api/groups", {
      name: "Engineers",
    });
    expect(group.status).toBe(200);
    const { page, context } = await app.openSignedIn(DESKTOP);
    await page.goto("/settings/general");
    await page.getByRole("button", { name: "Add mapping" }).click();
    await page.getByLabel("Provider group 1").fill("eng-team");
    await page.getByLabel("Sightline group 1").click();
    await page.locator(".ant-select-item-option", { hasText: "Engineers" }).click();
    await page.getByRole("button", { name: "Save" }).click();
    await expect.poll(() => page.textContent("body")).toContain("Settings changes saved.");
    const stored = await app.api.get<{ settings: Record<string, unknown> }>(
      "/api/settings/organization",
    );
    expect(stored.body.settings.auth_sso_group_mapping).toEqual([
      { provider_group: "eng-team", group_id: group.body.id },
    ]);

    await page.reload();
    await expect.poll(() => page.getByLabel("Provider group 1").inputValue()).toBe("eng-team");
    await expect
      .poll(() => page.getByTestId("group-mapping-row").textContent())
      .toContain("Engineers");
    const test = page.getByRole("link", { name: "Test LDAP sign-in" });
    expect(await test.getAttribute("href")).toBe("/ldap/login?test=1");
    expect(await test.getAttribute("target")).toBe("_blank");
    // Only LDAP is configured: no other method's button.
    expect(await page.getByTestId("test-sign-in").textContent()).not.toContain("Google");
    // With LDAP on, password login may be switched off.
    expect(await page.getByLabel("Password Login Enabled").isDisabled()).toBe(false);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, "sso-settings-desktop");

    // The test opens in a new tab, on LDAP's test form, for the admin.
    const [tab] = await Promise.all([context.waitForEvent("page"), test.click()]);
    await tab.waitForLoadState();
    expect(new URL(tab.url()).pathname).toBe("/ldap/login");
    expect(await tab.textContent("body")).toContain("Test LDAP sign-in");
    // The directory cannot be reached: the test's result page says so, and nobody is signed in.
    await tab.fill("#username", "grace");
    await tab.fill("#password", "secret");
    await tab.click("button[type=submit]");
    await expect.poll(() => tab.textContent("main")).toContain("LDAP sign-in failed");
    expect(await tab.textContent("main")).toContain("nobody was signed in");
    await screenshot(tab, "sso-test-sign-in-failed-desktop");
    const session = await (await page.request.get("/api/session")).json();
    expect(session.user.email).toBe(ADMIN.email);
    await context.close();
  });

  it("removes a mapping row at phone size", async () => {
    const { page, context } = await app.openSignedIn(PHONE);
    await page.goto("/settings/general");
    await expect.poll(() => page.getByTestId("group-mapping-row").count()).toBe(1);
    await screenshot(page, "sso-settings-phone");
    await page.getByRole("button", { name: "Remove mapping 1" }).click();
    await page.getByRole("button", { name: "Save" }).click();
    await expect.poll(() => page.textContent("body")).toContain("Settings changes saved.");
    const stored = await app.api.get<{ settings: Record<string, unknown> }>(
      "/api/settings/organization",
    );
    expect(stored.body.settings.auth_sso_group_mapping).toEqual([]);
    await context.close();
  });

  for (const [name, viewport] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    it(`says why a save failed, below the spec's words (${name})`, async () => {
      const group = await app.api.post<{ id: number }>("/api/groups", { name: `Gone ${name}` });
      expect(group.status).toBe(200);
      const { page, context } = await app.openSignedIn(viewport);
      await page.goto("/settings/general");
      await page.getByRole("button", { name: "Add mapping" }).click();
      const row = await page.getByTestId("group-mapping-row").count();
      await page.getByLabel(`Provider group ${row}`).fill("leavers");
      await page.getByLabel(`Sightline group ${row}`).click();
      await page.locator(".ant-select-item-option", { hasText: `Gone ${name}` }).click();
      // The group is deleted while the page is open: the server refuses the mapping.
      expect((await app.api.delete(`/api/groups/${group.body.id}`)).status).toBe(200);
      await page.getByRole("button", { name: "Save" }).click();
      const notice = page.locator(".ant-notification-notice");
      await expect.poll(() => notice.textContent()).toContain("Failed saving changes.");
      expect(await notice.textContent()).toContain(
        `'auth_sso_group_mapping': there is no group ${group.body.id}.`,
      );
      await screenshot(page, `settings-save-failed-${name}`);
      await context.close();
    });
  }

  for (const [name, viewport] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    it(`tells a new admin which methods the environment sets, by name, and where the docs are (${name})`, async () => {
      const { page, context } = await app.openSignedIn(viewport);
      await page.goto("/settings/general");
      const overview = page.getByTestId("sso-methods");
      await overview.scrollIntoViewIfNeeded();
      const rowOf = (method: string) => overview.locator("li", { hasText: method });
      await expect.poll(() => rowOf("LDAP").textContent()).toContain("On");
      expect(await rowOf("LDAP").textContent()).toContain("SIGHTLINE_LDAP_URL");
      expect(await rowOf("OpenID Connect").textContent()).toContain("Off");
      expect(await rowOf("OpenID Connect").textContent()).toContain("SIGHTLINE_OIDC_ISSUER");
      expect(await rowOf("Google").textContent()).toContain("SIGHTLINE_GOOGLE_CLIENT_ID");
      expect(await rowOf("Trusted proxy header").textContent()).toContain(
        "SIGHTLINE_TRUSTED_PROXIES",
      );
      expect(await rowOf("SAML").textContent()).toContain("Set on this page.");
      expect(await overview.textContent()).toContain("docs/single-sign-on.md");
      await screenshot(page, `sso-methods-${name}`);
      await context.close();
    });
  }

  it("saves once when a pasted mapping is saved with a double click", async () => {
    const group = await app.api.post<{ id: number }>("/api/groups", { name: "Pasted" });
    expect(group.status).toBe(200);
    const { page, context } = await app.openSignedIn(DESKTOP);
    const saves: string[] = [];
    page.on("request", (r) => {
      if (r.method() === "POST" && r.url().endsWith("/api/settings/organization"))
        saves.push(r.url());
    });
    await page.goto("/settings/general");
    await page.getByRole("button", { name: "Add mapping" }).click();
    const row = await page.getByTestId("group-mapping-row").count();
    await page.getByLabel(`Provider group ${row}`).focus();
    await page.keyboard.insertText("pasted-team");
    await page.getByLabel(`Sightline group ${row}`).click();
    await page.locator(".ant-select-item-option", { hasText: "Pasted" }).click();
    await page.getByRole("button", { name: "Save" }).dblclick();
    await expect.poll(() => page.textContent("body")).toContain("Settings changes saved.");
    const stored = await app.api.get<{ settings: Record<string, unknown> }>(
      "/api/settings/organization",
    );
    expect(stored.body.settings.auth_sso_group_mapping).toContainEqual({
      provider_group: "pasted-team",
      group_id: group.body.id,
    });
    expect(saves.length).toBe(1);
    await context.close();
  });

  it("saves SAML fields typed fast and sent with Enter; a reload mid-save shows what was stored", async () => {
    const { page, context } = await app.openSignedIn(DESKTOP);
    await page.goto("/settings/general");
    await page.getByLabel("SAML Enabled").check();
    await page.getByLabel("SAML 2.0 Metadata URL (dynamic)").check();
    await page.getByLabel("SAML Metadata URL").focus();
    await page.keyboard.insertText("https://idp.example.org/metadata");
    await page.getByLabel("SAML Entity ID").pressSequentially("sightline-e2e", { delay: 0 });
    await page.keyboard.press("Enter");
    await expect.poll(() => page.textContent("body")).toContain("Settings changes saved.");
    const stored = await app.api.get<{ settings: Record<string, unknown> }>(
      "/api/settings/organization",
    );
    expect(stored.body.settings).toMatchObject({
      auth_saml_enabled: true,
      auth_saml_type: "dynamic",
      auth_saml_metadata_url: "https://idp.example.org/metadata",
      auth_saml_entity_id: "sightline-e2e",
    });

    // Save and reload at once: the page comes back whole, showing the stored settings.
    await page.getByLabel("SAML Entity ID").fill("sightline-e2e-2");
    await page.getByRole("button", { name: "Save" }).click();
    await page.reload();
    // The save may land before or after the reload; either way the page shows the stored value.
    const storedEntityId = async () =>
      (await app.api.get<{ settings: Record<string, unknown> }>("/api/settings/organization")).body
        .settings.auth_saml_entity_id;
    await expect
      .poll(
        async () =>
          (await page.getByLabel("SAML Entity ID").inputValue()) === (await storedEntityId()),
      )
      .toBe(true);
    expect(["sightline-e2e", "sightline-e2e-2"]).toContain(await storedEntityId());
    expect(await page.getByLabel("SAML Enabled").isChecked()).toBe(true);

    // Leave SAML off for the other tests.
    await app.api.post("/api/settings/organization", { auth_saml_enabled: false });
    await context.close();
  });
});
