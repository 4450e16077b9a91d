import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { ConfigError, loadConfig } from "../../config";
import { findUserByEmail } from "../../store/users";
import { metadataDatabases } from "../../testing/services";
import { startLoggedServer, startTestServer, type TestServer } from "../../testing/testServer";
import { ADMIN, TestClient, setUpAndLogin } from "../../testing/httpClient";
import { proxyMatcher } from "./trustedHeader";

const DATABASES = await metadataDatabases();
const HEADER = "x-forwarded-remote-user";
const KEY = crypto.randomBytes(32).toString("hex");

/** A browser behind the proxy: every request carries the header the proxy sets. */
function viaProxy(server: TestServer, email: string, header = HEADER): TestClient {
  const client = new TestClient(server.url);
  const request = client.request.bind(client);
  client.request = (method, url, options = {}) =>
    request(method, url, { ...options, headers: { ...options.headers, [header]: email } });
  return client;
}

describe("trusted proxy settings", () => {
  it("is off by default with Redash's header name", () => {
    const config = loadConfig({ SIGHTLINE_SECRET_KEY: KEY });
    expect(config.remoteUserLoginEnabled).toBe(false);
    expect(config.remoteUserHeader).toBe("X-Forwarded-Remote-User");
  });

  it("refuses to start when enabled without a trusted proxy", () => {
    expect(() =>
      loadConfig({
        SIGHTLINE_SECRET_KEY: KEY,
        SIGHTLINE_REMOTE_USER_LOGIN_ENABLED: "true",
        SIGHTLINE_TRUSTED_PROXIES: "none",
      }),
    ).toThrow(
      new ConfigError(
        "SIGHTLINE_REMOTE_USER_LOGIN_ENABLED needs SIGHTLINE_TRUSTED_PROXIES to list the reverse proxy that sets the header; otherwise any client could send it",
      ),
    );
    expect(() =>
      loadConfig({ SIGHTLINE_SECRET_KEY: KEY, SIGHTLINE_REMOTE_USER_HEADER: "Bad Header" }),
    ).toThrow(/SIGHTLINE_REMOTE_USER_HEADER must be a header name/);
  });

  it("matches addresses and ranges, IPv4-mapped too", () => {
    const trusted = proxyMatcher(["10.0.0.0/8", "::1", "192.168.1.5"]);
    expect(trusted("10.1.2.3")).toBe(true);
    expect(trusted("::ffff:10.1.2.3")).toBe(true);
    expect(trusted("::1")).toBe(true);
    expect(trusted("192.168.1.5")).toBe(true);
    expect(trusted("192.168.1.6")).toBe(false);
    expect(trusted("127.0.0.1")).toBe(false);
    expect(trusted(undefined)).toBe(false);
  });
});

describe.each(DATABASES)("remote user login on %s", (db) => {
  let server: TestServer;
  let admin: TestClient;

  beforeAll(async () => {
    // The test client connects from 127.0.0.1, a trusted proxy by default.
    server = await startTestServer(db, {
      SIGHTLINE_REMOTE_USER_LOGIN_ENABLED: "true",
      SIGHTLINE_REMOTE_USER_HEADER: "X-Forwarded-Remote-User",
    });
    admin = await setUpAndLogin(server.url);
  });
  afterAll(() => server.close());

  it("creates the proxy's user in the default group, signs them in and goes to next", async () => {
    const grace = viaProxy(server, "Grace@Example.com");
    const res = await grace.get("/remote_user/login?next=%2Fqueries%3Fq%3Dx");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/queries?q=x");
    const session = await grace.get<{ user: { email: string; name: string } }>("/api/session");
    expect(session.status).toBe(200);
    expect(session.body.user).toMatchObject({
      email: "grace@example.com",
      name: "grace@example.com",
    });
    const stored = await findUserByEmail(server.ctx.database.db, 1, "grace@example.com");
    const groups = (await admin.get<{ id: number; name: string }[]>("/api/groups")).body;
    expect(stored).toMatchObject({ password_hash: null, is_invitation_pending: false });
    expect(stored!.group_ids).toEqual([groups.find((g) => g.name === "default")!.id]);
  });

  it("finds the same user at the second login", async () => {
    const res = await viaProxy(server, "grace@example.com").get("/remote_user/login");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/");
    const users = await admin.get<{ count: number }>("/api/users?q=grace");
    expect(users.body.count).toBe(1);
  });

  it("signs an existing password user in as themselves (the proxy verified the address)", async () => {
    const client = viaProxy(server, ADMIN.email);
    expect((await client.get("/remote_user/login")).status).toBe(302);
    const session = await client.get<{ user: { id: number; name: string } }>("/api/session");
    expect(session.body.user).toMatchObject({ id: 1, name: ADMIN.name });
    // The password still works too.
    expect((await new TestClient(server.url).login(ADMIN.email, ADMIN.password)).status).toBe(302);
  });

  it("forgets an earlier OpenID Connect sign-in's logout at the provider", async () => {
    // The cookie an OpenID Connect sign-in leaves for /logout; this sign-in must clear it.
    const client = viaProxy(server, ADMIN.email);
    client.cookies.set("oidc_logout", "left-by-an-earlier-sign-in");
    const res = await client.get("/remote_user/login");
    expect(res.status).toBe(302);
    const cleared = res.headers.getSetCookie().find((c) => c.startsWith("oidc_logout="));
    expect(cleared).toMatch(/Path=\/logout/);
    expect(client.cookies.has("oidc_logout")).toBe(false);
  });

  it("refuses a disabled user with a message on the login page", async () => {
    const created = await admin.post<{ id: number }>("/api/users?no_invite=1", {
      name: "Dora",
      email: "dora@example.com",
    });
    expect((await admin.post(`/api/users/${created.body.id}/disable`)).status).toBe(200);
    const dora = viaProxy(server, "dora@example.com");
    const res = await dora.get("/remote_user/login?next=/dashboards");
    expect(res.status).toBe(302);
    const location = res.headers.get("location")!;
    expect(location).toBe("/login?sso_error=disabled&next=%2Fdashboards");
    const page = await dora.get<string>(location);
    expect(page.text).toContain("Your account is disabled.");
    expect((await dora.get("/api/session")).status).not.toBe(200);
  });

  it("sends a request without an e-mail in the header to the login page", async () => {
    for (const value of ["", "(null)", "not-an-email"]) {
      const client = viaProxy(server, value);
      const res = await client.get("/remote_user/login");
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe("/login?sso_error=remote_user_missing");
      expect((await client.get<string>("/login?sso_error=remote_user_missing")).text).toContain(
        "The reverse proxy did not say who you are.",
      );
      expect((await client.get("/api/session")).status).not.toBe(200);
    }
  });

  it("ignores a next that leaves the site", async () => {
    for (const next of ["//evil.example", "https://evil.example", "https://evil.example/x"]) {
      const res = await viaProxy(server, "grace@example.com").get(
        `/remote_user/login?next=${encodeURIComponent(next)}`,
      );
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).not.toContain("evil.example");
    }
  });

  it("offers Redash's Remote User Login button on the login page, keeping next", async () => {
    const page = await new TestClient(server.url).get<string>("/login?next=%2Fqueries");
    expect(page.text).toContain(
      '<form method="get" action="/remote_user/login"><input type="hidden" name="next" value="/queries"><button type="submit">Remote User Login</button></form>',
    );
  });

  it("shows no text of its own for an unknown sso_error", async () => {
    const page = await new TestClient(server.url).get<string>("/login?sso_error=%3Cb%3Ehi");
    expect(page.status).toBe(200);
    expect(page.text).not.toContain("hi<");
    expect(page.text).not.toContain('role="alert"');
  });
});

describe.each(DATABASES)("remote user login refusals on %s", (db) => {
  let untrusted: TestServer;
  let disabled: TestServer;

  beforeAll(async () => {
    // The test client connects from 127.0.0.1, which is not the proxy here.
    untrusted = await startTestServer(db, {
      SIGHTLINE_REMOTE_USER_LOGIN_ENABLED: "true",
      SIGHTLINE_TRUSTED_PROXIES: "10.0.0.0/8",
    });
    await setUpAndLogin(untrusted.url);
    disabled = await startTestServer(db);
    await setUpAndLogin(disabled.url);
  });
  afterAll(async () => {
    await untrusted.close();
    await disabled.close();
  });

  it("refuses the header from an address that is not a trusted proxy, creating nobody", async () => {
    for (const email of ["mallory@example.com", ADMIN.email]) {
      const client = viaProxy(untrusted, email);
      const res = await client.get("/remote_user/login");
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe("/login?sso_error=remote_user_untrusted");
      expect((await client.get("/api/session")).status).not.toBe(200);
    }
    expect(await findUserByEmail(untrusted.ctx.database.db, 1, "mallory@example.com")).toBeNull();
    const page = await new TestClient(untrusted.url).get<string>(
      "/login?sso_error=remote_user_untrusted",
    );
    expect(page.text).toContain("only accepted from the proxy itself");
  });

  it("answers 404 while the login is off, creating nobody", async () => {
    const client = viaProxy(disabled, "mallory@example.com");
    const res = await client.get<{ message: string }>("/remote_user/login");
    expect(res.status).toBe(404);
    expect(res.body.message).toBe("Remote user login is not enabled.");
    expect((await client.get<string>("/login")).text).not.toContain("Remote User Login");
    expect(await findUserByEmail(disabled.ctx.database.db, 1, "mallory@example.com")).toBeNull();
    expect((await client.get("/api/session")).status).not.toBe(200);
  });
});

describe("the refusal log", () => {
  it("names the address and the reason, never the header's value", async () => {
    const server = await startLoggedServer({
      SIGHTLINE_REMOTE_USER_LOGIN_ENABLED: "true",
      SIGHTLINE_TRUSTED_PROXIES: "10.0.0.0/8",
    });
    const { url } = server;
    try {
      await setUpAndLogin(url);
      const client = new TestClient(url);
      const res = await client.request("GET", "/remote_user/login", {
        headers: { [HEADER]: "mallory.secret@example.com" },
      });
      expect(res.status).toBe(302);
    } finally {
      await server.close();
    }
    const log = server.logSince();
    expect(log).toContain("the request did not come from a trusted proxy");
    expect(log).toContain('"address":"127.0.0.1"');
    expect(log).not.toContain("mallory.secret");
  });
});
