import { describe, expect, it } from "vitest";
import { DESKTOP, PHONE, screenshot } from "./browser";
import { useBrowserApp } from "./fixtures/browserApp";

// The browser connects from 127.0.0.1, a trusted proxy by default; the header a real proxy would
// add is sent by the browser context here.
describe("remote user login (trusted proxy header) in the browser", () => {
  const app = useBrowserApp({ env: { SIGHTLINE_REMOTE_USER_LOGIN_ENABLED: "true" } });

  for (const [name, viewport] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    it(`signs in from the login page's Remote User Login button (${name})`, async () => {
      const { page, context } = await app.open(viewport);
      await context.setExtraHTTPHeaders({ "X-Forwarded-Remote-User": `proxy-${name}@example.com` });
      await page.goto("/login?next=%2Fqueries");
      await screenshot(page, `remote-user-login-${name}`);
      await page.click("text=Remote User Login");
      await page.waitForURL((url) => url.pathname === "/queries");
      const session = await (await page.request.get("/api/session")).json();
      expect(session.user.email).toBe(`proxy-${name}@example.com`);
      await context.close();
    });
  }

  it("shows why on the login page when the proxy names nobody", async () => {
    const { page, context } = await app.open(PHONE);
    await page.goto("/remote_user/login");
    await page.waitForURL((url) => url.pathname === "/login");
    await expect
      .poll(() => page.textContent(".alert"))
      .toContain("The reverse proxy did not say who you are.");
    await screenshot(page, "remote-user-login-refused-phone");
    await context.close();
  });
});
