import crypto from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

import { ConfigError, loadConfig } from "../../config";
import { findUserByEmail } from "../../store/users";
import { metadataDatabases } from "../../testing/services";
import { startLoggedServer, startTestServer, type TestServer } from "../../testing/testServer";
import { ADMIN, TestClient, setUpAndLogin } from "../../testing/httpClient";
import { startTestOidcProvider, type TestOidcProvider } from "./oidcTestProvider";

// Group mapping is another module's (groupMapping.ts); here only that sign-in calls it.
const mapping = vi.hoisted(() => ({
  calls: [] as string[][],
  result: null as number[] | null,
}));
vi.mock(import("./groupMapping"), async (importOriginal) => ({
  ...(await importOriginal()),
  groupMappingFor: () => async (groups: string[]) => {
    mapping.calls.push(groups);
    return mapping.result;
  },
}));

const DATABASES = await metadataDatabases();
const KEY = crypto.randomBytes(32).toString("hex");
const OIDC_CLIENT = { id: "sightline-test", secret: "oidc-client-secret-4f9a2c" };
const GOOGLE_CLIENT = { id: "sightline-google", secret: "google-client-secret-7d1e0b" };

/** Follows the provider's redirects, signing in as `login` on its page, up to Sightline's callback. */
async function authorize(server: TestServer, sightline: TestClient, start: string, login: string) {
  const res = await sightline.get(start);
  expect(res.status, res.text).toBe(302);
  let url = new URL(res.headers.get("location")!, server.url).href;
  const browser = new TestClient(""); // the provider's cookies: a fresh session each time
  for (let hop = 0; hop < 10; hop++) {
    if (url.startsWith(server.url)) return url.slice(server.url.length);
    let step = await browser.get<string>(url);
    if (step.status === 200 && url.includes("/interaction/"))
      step = await browser.request("POST", url, { form: { login } });
    const next = step.headers.get("location");
    if (!next) throw new Error(`stuck at ${url}: ${step.status} ${step.text.slice(0, 300)}`);
    url = new URL(next, url).href;
  }
  throw new Error("too many redirects");
}

async function signIn(server: TestServer, start: string, login: string) {
  const client = new TestClient(server.url);
  const callback = await authorize(server, client, start, login);
  const res = await client.get<string>(callback);
  return { client, res, callback, location: res.headers.get("location") };
}

async function signedInAs(client: TestClient): Promise<string | null> {
  const session = await client.get<{ user: { email: string } }>("/api/session");
  return session.status === 200 ? session.body.user.email : null;
}

function addAccounts(idp: TestOidcProvider) {
  const account = (email: string, extra: Record<string, unknown> = {}) => ({
    email,
    email_verified: true,
    ...extra,
  });
  idp.accounts.set(
    "grace",
    account("Grace@Example.com", { name: "Grace Hopper", groups: ["analysts", "ops"] }),
  );
  idp.accounts.set("ada", account(ADMIN.email, { name: ADMIN.name }));
  idp.accounts.set("ada-unverified", account(ADMIN.email, { email_verified: false }));
  idp.accounts.set("newbie-unverified", account("newbie@example.com", { email_verified: false }));
  idp.accounts.set("dora", account("dora@example.com", { name: "Dora" }));
  idp.accounts.set("mallory", account("mallory@example.com", { name: "Mallory" }));
  idp.accounts.set("noemail", { name: "No Mail" });
  idp.accounts.set("worker", account("worker@example.com", { hd: "example.com" }));
  idp.accounts.set("gmail", account("someone@gmail.com"));
  idp.accounts.set("mixed", account("someone@other.example", { hd: "example.com" }));
  idp.accounts.set("otherhd", account("boss@other.example", { hd: "other.example" }));
}

describe("OpenID Connect settings", () => {
  it("is off unless issuer, client id and secret are set; Google needs its id and secret", () => {
    const config = loadConfig({
      SIGHTLINE_SECRET_KEY: KEY,
      SIGHTLINE_OIDC_ISSUER: "https://id.example",
    });
    expect(config.oidc.enabled).toBe(false);
    expect(config.google).toMatchObject({ enabled: false, issuer: "https://accounts.google.com" });
    const on = loadConfig({
      SIGHTLINE_SECRET_KEY: KEY,
      SIGHTLINE_GOOGLE_CLIENT_ID: "id",
      SIGHTLINE_GOOGLE_CLIENT_SECRET: "secret",
    });
    expect(on.google.enabled).toBe(true);
  });

  it("refuses an issuer over http except on the machine itself, and scopes without openid", () => {
    for (const issuer of [
      "http://id.example",
      "ftp://id.example",
      "https://id.example/?x=1",
      "x",
    ]) {
      expect(() =>
        loadConfig({ SIGHTLINE_SECRET_KEY: KEY, SIGHTLINE_OIDC_ISSUER: issuer }),
      ).toThrow(ConfigError);
    }
    expect(
      loadConfig({
        SIGHTLINE_SECRET_KEY: KEY,
        SIGHTLINE_OIDC_ISSUER: "http://127.0.0.1:9000/realm",
      }).oidc.issuer,
    ).toBe("http://127.0.0.1:9000/realm");
    expect(() =>
      loadConfig({ SIGHTLINE_SECRET_KEY: KEY, SIGHTLINE_OIDC_SCOPES: "email,profile" }),
    ).toThrow(/must include openid/);
  });
});

describe("an OpenID provider that cannot be reached", () => {
  it("sends the browser back to the login page with a message", async () => {
    const server = await startTestServer("sqlite", {
      SIGHTLINE_OIDC_ISSUER: "http://127.0.0.1:1/realms/none",
      SIGHTLINE_OIDC_CLIENT_ID: OIDC_CLIENT.id,
      SIGHTLINE_OIDC_CLIENT_SECRET: OIDC_CLIENT.secret,
    });
    try {
      await setUpAndLogin(server.url);
      const client = new TestClient(server.url);
      const res = await client.get("/oidc/login?next=/queries");
      expect(res.headers.get("location")).toBe("/login?sso_error=oidc_unavailable&next=%2Fqueries");
      const page = await client.get<string>(res.headers.get("location")!);
      expect(page.text).toContain("Your identity provider could not be reached.");
    } finally {
      await server.close();
    }
  });
});

describe.each(DATABASES)("OpenID Connect sign-in on %s", (db) => {
  let idp: TestOidcProvider;
  let server: TestServer;
  let google: TestServer;
  let admin: TestClient;
  let googleAdmin: TestClient;

  beforeAll(async () => {
    idp = await startTestOidcProvider();
    addAccounts(idp);
    server = await startTestServer(db, {
      SIGHTLINE_OIDC_ISSUER: idp.issuer,
      SIGHTLINE_OIDC_CLIENT_ID: OIDC_CLIENT.id,
      SIGHTLINE_OIDC_CLIENT_SECRET: OIDC_CLIENT.secret,
      SIGHTLINE_OIDC_DISPLAY_NAME: "Test IdP",
      SIGHTLINE_OIDC_SCOPES: "openid,email,profile,groups",
      SIGHTLINE_OIDC_GROUPS_CLAIM: "groups",
    });
    google = await startTestServer(db, {
      SIGHTLINE_GOOGLE_CLIENT_ID: GOOGLE_CLIENT.id,
      SIGHTLINE_GOOGLE_CLIENT_SECRET: GOOGLE_CLIENT.secret,
      SIGHTLINE_GOOGLE_ISSUER: idp.issuer,
    });
    idp.setClients([
      {
        client_id: OIDC_CLIENT.id,
        client_secret: OIDC_CLIENT.secret,
        redirect_uris: [`${server.url}/oidc/callback`],
        post_logout_redirect_uris: [`${server.url}/login`],
      },
      {
        client_id: GOOGLE_CLIENT.id,
        client_secret: GOOGLE_CLIENT.secret,
        redirect_uris: [`${google.url}/oauth/google_callback`],
      },
    ]);
    admin = await setUpAndLogin(server.url);
    googleAdmin = await setUpAndLogin(google.url);
  });
  afterAll(async () => {
    await server?.close();
    await google?.close();
    await idp?.close();
  });
  beforeEach(() => {
    mapping.calls.length = 0;
    mapping.result = null;
  });

  const userCount = async (server: TestServer, email: string) =>
    (await findUserByEmail(server.ctx.database.db, 1, email)) ? 1 : 0;

  it("shows a button per enabled method on the login page, keeping next", async () => {
    const page = await new TestClient(server.url).get<string>("/login?next=%2Fqueries");
    expect(page.text).toMatch(
      /<a class="sso-button" href="\/oidc\/login\?next=%2Fqueries">Sign in with Test IdP<\/a>/,
    );
    expect(page.text).not.toContain("Sign in with Google");
    const googlePage = await new TestClient(google.url).get<string>("/login");
    expect(googlePage.text).toMatch(
      /<a class="sso-button" href="\/oauth\/google">Sign in with Google<\/a>/,
    );
    expect(googlePage.text).not.toContain("/oidc/login");
    const config = async (url: string) =>
      (
        await new TestClient(url).get<{ client_config: { googleLoginEnabled: boolean } }>(
          "/api/config",
        )
      ).body.client_config.googleLoginEnabled;
    expect(await config(server.url)).toBe(false);
    expect(await config(google.url)).toBe(true);
  });

  it("answers 404 for a method that is off", async () => {
    const res = await new TestClient(server.url).get<{ message: string }>("/oauth/google");
    expect(res.status).toBe(404);
    expect(res.body.message).toBe("Google login is not enabled.");
    expect((await new TestClient(google.url).get("/oidc/callback?code=x&state=y")).status).toBe(
      404,
    );
  });

  it("sends the browser to the provider with PKCE, state and nonce", async () => {
    const res = await new TestClient(server.url).get("/oidc/login");
    const url = new URL(res.headers.get("location")!);
    expect(url.origin).toBe(idp.issuer);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: "code",
      client_id: OIDC_CLIENT.id,
      redirect_uri: `${server.url}/oidc/callback`,
      scope: "openid email profile groups",
      code_challenge_method: "S256",
    });
    for (const name of ["state", "nonce", "code_challenge"])
      expect(url.searchParams.get(name)!.length).toBeGreaterThanOrEqual(32);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("oidc_flow="))!;
    expect(cookie).toMatch(/Path=\/oidc/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    // Encrypted: neither the state nor the nonce can be read from it.
    expect(cookie).not.toContain(url.searchParams.get("state"));
  });

  it("creates a new user at the first sign-in, maps groups and goes to next", async () => {
    const groups = (await admin.get<{ id: number; name: string }[]>("/api/groups")).body;
    const created = await admin.post<{ id: number }>("/api/groups", { name: "analysts" });
    mapping.result = [created.body.id];
    const { client, location } = await signIn(
      server,
      "/oidc/login?next=%2Fqueries%3Fq%3Dx",
      "grace",
    );
    expect(location).toBe("/queries?q=x");
    expect(await signedInAs(client)).toBe("grace@example.com");
    expect(mapping.calls).toEqual([["analysts", "ops"]]);
    const stored = await findUserByEmail(server.ctx.database.db, 1, "grace@example.com");
    expect(stored).toMatchObject({ name: "Grace Hopper", password_hash: null });
    const defaultGroup = groups.find((g) => g.name === "default")!.id;
    expect(stored!.group_ids).toEqual([defaultGroup, created.body.id].sort((a, b) => a - b));
  });

  it("finds the same user at the next sign-in", async () => {
    const { client, location } = await signIn(server, "/oidc/login", "grace");
    expect(location).toBe("/");
    expect(await signedInAs(client)).toBe("grace@example.com");
    expect((await admin.get<{ count: number }>("/api/users?q=grace")).body.count).toBe(1);
  });

  it("signs an existing password user in when the provider verified the address", async () => {
    const { client } = await signIn(server, "/oidc/login", "ada");
    const session = await client.get<{ user: { id: number; name: string } }>("/api/session");
    expect(session.body.user).toMatchObject({ id: 1, name: ADMIN.name });
  });

  it("refuses an unverified address, for an existing user and a new one", async () => {
    const existing = await signIn(server, "/oidc/login?next=/dashboards", "ada-unverified");
    expect(existing.location).toBe("/login?sso_error=unverified_email&next=%2Fdashboards");
    expect(await signedInAs(existing.client)).toBeNull();
    const page = await existing.client.get<string>(existing.location!);
    expect(page.text).toContain("Your sign-in provider did not confirm your e-mail address.");
    const newbie = await signIn(server, "/oidc/login", "newbie-unverified");
    expect(newbie.location).toBe("/login?sso_error=unverified_email");
    expect(await userCount(server, "newbie@example.com")).toBe(0);
  });

  it("refuses an identity without an e-mail address", async () => {
    const { location, client } = await signIn(server, "/oidc/login", "noemail");
    expect(location).toBe("/login?sso_error=invalid_email");
    expect(await signedInAs(client)).toBeNull();
  });

  it("refuses a disabled user", async () => {
    const created = await admin.post<{ id: number }>("/api/users?no_invite=1", {
      name: "Dora",
      email: "dora@example.com",
    });
    expect((await admin.post(`/api/users/${created.body.id}/disable`)).status).toBe(200);
    const { location, client } = await signIn(server, "/oidc/login", "dora");
    expect(location).toBe("/login?sso_error=disabled");
    expect(await signedInAs(client)).toBeNull();
  });

  it("ignores a next that leaves the site", async () => {
    for (const next of ["//evil.example", "https://evil.example/x", "/\\evil.example"]) {
      const { location } = await signIn(
        server,
        `/oidc/login?next=${encodeURIComponent(next)}`,
        "grace",
      );
      expect(location).toMatch(/^\/(?![/\\])/);
      expect(location).not.toContain("evil");
    }
  });

  describe("attacks", () => {
    async function refused(
      expectedError: string,
      tamper: Parameters<TestOidcProvider["tamperNextIdToken"]>[0],
    ) {
      idp.tamperNextIdToken(tamper);
      const { client, location } = await signIn(server, "/oidc/login", "mallory");
      expect(location).toBe(`/login?sso_error=${expectedError}`);
      expect(await signedInAs(client)).toBeNull();
      expect(await userCount(server, "mallory@example.com")).toBe(0);
      const page = await client.get<string>(location!);
      expect(page.text).toContain("could not be verified");
    }

    it("refuses an ID token signed by another key", () =>
      refused("oidc_invalid", {
        signer: "attacker",
        claims: (p) => (p.email = "mallory@example.com"),
      }));
    it("refuses an unsigned ID token", () => refused("oidc_invalid", { signer: "none" }));
    it("refuses an ID token for another audience", () =>
      refused("oidc_invalid", { claims: (p) => (p.aud = "another-client") }));
    it("refuses an ID token from another issuer", () =>
      refused("oidc_invalid", { claims: (p) => (p.iss = "http://127.0.0.1:1") }));
    it("refuses an ID token with another nonce", () =>
      refused("oidc_invalid", { claims: (p) => (p.nonce = "replayed-nonce") }));
    it("refuses an ID token expired more than a minute ago", () =>
      refused("oidc_invalid", {
        claims: (p) => {
          const now = Math.floor(Date.now() / 1000);
          p.iat = now - 600;
          p.exp = now - 90;
        },
      }));

    it("accepts an ID token expired within the minute of clock skew", async () => {
      idp.tamperNextIdToken({
        claims: (p) => {
          const now = Math.floor(Date.now() / 1000);
          p.iat = now - 600;
          p.exp = now - 30;
        },
      });
      const { client, location } = await signIn(server, "/oidc/login", "grace");
      expect(location).toBe("/");
      expect(await signedInAs(client)).toBe("grace@example.com");
    });

    it("refuses a callback without the browser's sign-in, or with another state", async () => {
      const victim = new TestClient(server.url);
      const callback = await authorize(server, victim, "/oidc/login", "mallory");
      // Another browser (no flow cookie) brings the code: login CSRF.
      const attacker = new TestClient(server.url);
      const res = await attacker.get(callback);
      expect(res.headers.get("location")).toBe("/login?sso_error=oidc_state");
      // The right browser with a changed state.
      const changed = callback.replace(/state=[^&]+/, "state=forged-state");
      const wrong = await victim.get(changed);
      expect(wrong.headers.get("location")).toBe("/login?sso_error=oidc_state");
      expect(await signedInAs(victim)).toBeNull();
      expect(await signedInAs(attacker)).toBeNull();
      const page = await attacker.get<string>("/login?sso_error=oidc_state");
      expect(page.text).toContain("This sign-in was not started in this browser");
      expect(await userCount(server, "mallory@example.com")).toBe(0);
    });

    it("refuses a callback used twice, even with the flow cookie kept", async () => {
      const client = new TestClient(server.url);
      const callback = await authorize(server, client, "/oidc/login", "grace");
      const flowCookie = client.cookies.get("oidc_flow")!;
      expect((await client.get(callback)).headers.get("location")).toBe("/");
      // The same address again: the flow cookie is gone.
      const again = new TestClient(server.url);
      expect((await again.get(callback)).headers.get("location")).toBe(
        "/login?sso_error=oidc_state",
      );
      // With a copy of the cookie: its state was used.
      again.cookies.set("oidc_flow", flowCookie);
      expect((await again.get(callback)).headers.get("location")).toBe(
        "/login?sso_error=oidc_state",
      );
      expect(await signedInAs(again)).toBeNull();
    });

    it("refuses a forged flow cookie", async () => {
      const client = new TestClient(server.url);
      const callback = await authorize(server, client, "/oidc/login", "mallory");
      const cookie = client.cookies.get("oidc_flow")!;
      client.cookies.set(
        "oidc_flow",
        cookie.slice(0, -4) + (cookie.endsWith("AAA=") ? "BBB=" : "AAA="),
      );
      expect((await client.get(callback)).headers.get("location")).toBe(
        "/login?sso_error=oidc_state",
      );
      expect(await userCount(server, "mallory@example.com")).toBe(0);
    });

    it("shows the provider's refusal", async () => {
      const client = new TestClient(server.url);
      const start = await client.get("/oidc/login?next=/queries");
      const state = new URL(start.headers.get("location")!).searchParams.get("state")!;
      const res = await client.get(
        `/oidc/callback?error=access_denied&error_description=nope&state=${state}&iss=${encodeURIComponent(idp.issuer)}`,
      );
      expect(res.headers.get("location")).toBe("/login?sso_error=oidc_denied&next=%2Fqueries");
      const page = await client.get<string>(res.headers.get("location")!);
      expect(page.text).toContain("Your identity provider did not sign you in.");
      expect(page.text).not.toContain("nope");
    });
  });

  describe("test sign-in", () => {
    it("shows an admin who the provider says they are, signing nobody in", async () => {
      const callback = await authorize(server, admin, "/oidc/login?test=1", "mallory");
      const res = await admin.get<string>(callback);
      expect(res.status).toBe(200);
      expect(res.text).toContain("mallory@example.com");
      expect(await userCount(server, "mallory@example.com")).toBe(0);
      expect(await signedInAs(admin)).toBe(ADMIN.email);
    });

    it("reports a failure to the admin instead of the login page", async () => {
      idp.tamperNextIdToken({ signer: "attacker" });
      const callback = await authorize(server, admin, "/oidc/login?test=1", "mallory");
      const res = await admin.get<string>(callback);
      expect(res.status).toBe(200);
      expect(res.text).toContain("could not be verified");
      expect(await signedInAs(admin)).toBe(ADMIN.email);
    });

    it("ends without a result when the callback comes without the admin's session", async () => {
      const callback = await authorize(server, admin, "/oidc/login?test=1", "mallory");
      const elsewhere = new TestClient(server.url);
      elsewhere.cookies.set("oidc_flow", admin.cookies.get("oidc_flow")!);
      const res = await elsewhere.get<string>(callback);
      expect(res.headers.get("location")).toBe("/login?sso_error=oidc_state");
      expect(res.text).not.toContain("mallory");
      expect(await userCount(server, "mallory@example.com")).toBe(0);
    });

    it("is for admins only", async () => {
      const anonymous = await new TestClient(server.url).get<{ message: string }>(
        "/oidc/login?test=1",
      );
      expect(anonymous.status).toBe(403);
      expect(anonymous.body.message).toBe("Only an admin can test a sign-in method.");
      const grace = (await signIn(server, "/oidc/login", "grace")).client;
      expect((await grace.get("/oidc/login?test=1")).status).toBe(403);
    });
  });

  describe("Google preset", () => {
    it("lets any verified account in while no domain is listed", async () => {
      const { client, location } = await signIn(google, "/oauth/google?next=/queries", "gmail");
      expect(location).toBe("/queries");
      expect(await signedInAs(client)).toBe("someone@gmail.com");
    });

    it("hints Google at the domain while exactly one is listed", async () => {
      const hdOf = async (server: TestServer, path: string) => {
        const res = await new TestClient(server.url).get(path);
        return new URL(res.headers.get("location")!).searchParams.get("hd");
      };
      expect(await hdOf(google, "/oauth/google")).toBeNull();
      const setDomains = async (domains: string[]) =>
        expect(
          (
            await googleAdmin.post("/api/settings/organization", {
              auth_google_apps_domains: domains,
            })
          ).status,
        ).toBe(200);
      try {
        await setDomains([" Example.com "]);
        expect(await hdOf(google, "/oauth/google")).toBe("example.com");
        await setDomains(["example.com", "other.example"]);
        expect(await hdOf(google, "/oauth/google")).toBeNull();
        // The generic provider is never sent Google's parameter.
        await admin.post("/api/settings/organization", {
          auth_google_apps_domains: ["example.com"],
        });
        expect(await hdOf(server, "/oidc/login")).toBeNull();
      } finally {
        await setDomains([]);
        await admin.post("/api/settings/organization", { auth_google_apps_domains: [] });
      }
    });

    it("requires both the hosted domain and the e-mail's domain to be listed", async () => {
      const set = await googleAdmin.post("/api/settings/organization", {
        auth_google_apps_domains: ["Example.com"],
      });
      expect(set.status).toBe(200);
      try {
        const worker = await signIn(google, "/oauth/google", "worker");
        expect(worker.location).toBe("/");
        expect(await signedInAs(worker.client)).toBe("worker@example.com");
        for (const login of ["gmail", "mixed", "otherhd"]) {
          const { client, location } = await signIn(google, "/oauth/google", login);
          expect(location, login).toBe("/login?sso_error=google_domain");
          expect(await signedInAs(client)).toBeNull();
        }
        expect(await userCount(google, "someone@other.example")).toBe(0);
        expect(await userCount(google, "boss@other.example")).toBe(0);
        const page = await new TestClient(google.url).get<string>("/login?sso_error=google_domain");
        expect(page.text).toContain(
          "Your Google account is not in a domain allowed to sign in to Sightline.",
        );
        // A test sign-in says so too.
        const callback = await authorize(google, googleAdmin, "/oauth/google?test=1", "otherhd");
        expect((await googleAdmin.get<string>(callback)).text).toContain("not in a domain allowed");
      } finally {
        await googleAdmin.post("/api/settings/organization", { auth_google_apps_domains: [] });
      }
    });
  });

  describe("logout", () => {
    it("ends the Sightline session, then the provider's", async () => {
      const { client } = await signIn(server, "/oidc/login", "grace");
      const res = await client.get("/logout");
      expect(res.status).toBe(302);
      const url = new URL(res.headers.get("location")!);
      expect(`${url.origin}${url.pathname}`).toBe(`${idp.issuer}/session/end`);
      expect(url.searchParams.get("client_id")).toBe(OIDC_CLIENT.id);
      expect(url.searchParams.get("post_logout_redirect_uri")).toBe(`${server.url}/login`);
      expect(url.searchParams.get("id_token_hint")).toMatch(/^ey/);
      expect(await signedInAs(client)).toBeNull();
      // Once only: the next logout stays in Sightline.
      expect((await client.get("/logout")).headers.get("location")).toBe("/login");
    });

    it("stays in Sightline after a password sign-in follows one through the provider", async () => {
      const { client } = await signIn(server, "/oidc/login", "grace");
      expect(client.cookies.has("oidc_logout")).toBe(true);
      expect((await client.login(ADMIN.email, ADMIN.password)).status).toBe(302);
      expect(client.cookies.has("oidc_logout")).toBe(false);
      expect((await client.get("/logout")).headers.get("location")).toBe("/login");
      expect(await signedInAs(client)).toBeNull();
    });

    it("keeps Sightline's own logout for password sign-ins", async () => {
      const client = new TestClient(server.url);
      await client.login(ADMIN.email, ADMIN.password);
      expect((await client.get("/logout")).headers.get("location")).toBe("/login");
      expect(await signedInAs(client)).toBeNull();
    });
  });
});

describe("the OpenID Connect log", () => {
  it("names the reason, never the code, state, tokens or client secret", async () => {
    const idp = await startTestOidcProvider();
    addAccounts(idp);
    const running = await startLoggedServer({
      SIGHTLINE_OIDC_ISSUER: idp.issuer,
      SIGHTLINE_OIDC_CLIENT_ID: OIDC_CLIENT.id,
      SIGHTLINE_OIDC_CLIENT_SECRET: OIDC_CLIENT.secret,
    });
    const { url } = running;
    const secrets: string[] = [OIDC_CLIENT.secret];
    try {
      idp.setClients([
        {
          client_id: OIDC_CLIENT.id,
          client_secret: OIDC_CLIENT.secret,
          redirect_uris: [`${url}/oidc/callback`],
        },
      ]);
      await setUpAndLogin(url);
      const server = { url } as TestServer;
      for (const signer of ["attacker", "provider"] as const) {
        idp.tamperNextIdToken({ signer });
        const client = new TestClient(url);
        const callback = await authorize(server, client, "/oidc/login", "mallory");
        const query = new URL(callback, url).searchParams;
        secrets.push(query.get("code")!, query.get("state")!, client.cookies.get("oidc_flow")!);
        expect((await client.get(callback)).status).toBe(302);
      }
    } finally {
      await running.close();
      await idp.close();
    }
    const log = running.logSince();
    expect(log).toContain('"reason":"oidc_invalid"');
    expect(log).toContain("OpenID Connect login refused");
    expect(log).toContain("signed in by OpenID Connect");
    for (const secret of secrets) expect(log).not.toContain(secret);
    expect(log).not.toMatch(/eyJ[\w-]+\.eyJ/); // no JWT
  });
});
