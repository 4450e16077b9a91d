import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestOidcProvider } from "../packages/server/src/auth/providers/oidcTestProvider";
import { ADMIN } from "../packages/server/src/testing/httpClient";
import { BOTH_VIEWPORTS, screenshot } from "./browser";
import { useBrowserApp } from "./fixtures/browserApp";

// The settings page's Test sign-in run end to end against a real OpenID provider (oidc-provider)
// on 127.0.0.1: the result page tells what Sightline would do, and nothing happens.
const idp = await startTestOidcProvider();
const CLIENT = { id: "sightline-e2e-test-sign-in", secret: "e2e-test-sign-in-secret" };

describe("Test sign-in from the settings page", () => {
  const app = useBrowserApp({
    env: {
      SIGHTLINE_OIDC_ISSUER: idp.issuer,
      SIGHTLINE_OIDC_CLIENT_ID: CLIENT.id,
      SIGHTLINE_OIDC_CLIENT_SECRET: CLIENT.secret,
      SIGHTLINE_OIDC_SCOPES: "openid,email,profile,groups",
      SIGHTLINE_OIDC_GROUPS_CLAIM: "groups",
    },
  });

  beforeAll(async () => {
    idp.setClients([
      {
        client_id: CLIENT.id,
        client_secret: CLIENT.secret,
        redirect_uris: [`${app.server.url}/oidc/callback`],
      },
    ]);
    for (const { name } of BOTH_VIEWPORTS) {
      idp.accounts.set(`tried-${name}@example.com`, {
        email: `tried-${name}@example.com`,
        email_verified: true,
        name: `<b>Tried</b> ${name}`,
        groups: ["eng-team", "unmapped"],
      });
    }
    const group = await app.api.post<{ id: number }>("/api/groups", { name: "Engineers" });
    const saved = await app.api.post("/api/settings/organization", {
      auth_sso_group_mapping: [{ provider_group: "ENG-TEAM", group_id: group.body.id }],
    });
    expect(saved.status).toBe(200);
  });
  afterAll(() => idp.close());

  for (const { name, viewport } of BOTH_VIEWPORTS) {
    it(`shows who the provider says and what would happen, changing nothing (${name})`, async () => {
      const { page, context } = await app.openSignedIn(viewport);
      await page.goto("/settings/general");
      const test = page.getByRole("link", { name: "Test OpenID Connect sign-in" });
      const [tab] = await Promise.all([context.waitForEvent("page"), test.click()]);
      await tab.waitForURL((url) => url.href.startsWith(idp.issuer));
      await tab.fill("#login", `tried-${name}@example.com`);
      await tab.click("text=Sign in");
      await tab.waitForURL((url) => url.pathname === "/oidc/callback");
      const main = (await tab.textContent("main")) ?? "";
      expect(main).toContain("OpenID Connect sign-in worked.");
      expect(main).toContain(`tried-${name}@example.com`);
      // The provider's name is shown as text, not markup.
      expect(main).toContain(`<b>Tried</b> ${name}`);
      expect(main).toContain("Create a new user and sign them in.");
      expect(await tab.locator("ul.groups").last().textContent()).toBe("defaultEngineers");
      await screenshot(tab, `sso-test-sign-in-${name}`);

      const users = await app.api.get<{ results: { email: string }[] }>(
        `/api/users?q=tried-${name}`,
      );
      expect(users.body.results).toEqual([]);
      const session = await (await page.request.get("/api/session")).json();
      expect(session.user.email).toBe(ADMIN.email);
      await context.close();
    });
  }

  it("then a real sign-in gives the mapped group", async () => {
    const { page, context } = await app.open();
    await page.goto("/login");
    await page.click("text=Sign in with OpenID Connect");
    await page.waitForURL((url) => url.href.startsWith(idp.issuer));
    await page.fill("#login", "tried-desktop@example.com");
    await page.click("text=Sign in");
    await page.waitForURL((url) => url.pathname === "/");
    const session = await (await page.request.get("/api/session")).json();
    expect(session.user.email).toBe("tried-desktop@example.com");
    const groups = await app.api.get<{ id: number; name: string }[]>("/api/groups");
    const byName = new Map(groups.body.map((g) => [g.name, g.id]));
    expect([...session.user.groups].sort()).toEqual(
      [byName.get("default"), byName.get("Engineers")].sort(),
    );
    await context.close();
  });
});
