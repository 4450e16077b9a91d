import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metadataDatabases } from "../testing/services";
import { startTestServer, type TestServer } from "../testing/testServer";
import { ADMIN, TestClient, setUpAndLogin } from "../testing/httpClient";
import { findOrgBySlug } from "../store/organizations";
import { findUserByEmail, insertUser } from "../store/users";
import { defaultGroupId } from "../services/organizationSetup";
import { inviteLink, resetLink } from "./routes/links";
import { makeToken } from "./tokens";

const DATABASES = await metadataDatabases();

describe.each(DATABASES)("sign-in flows on %s", (db) => {
  let server: TestServer;
  let admin: TestClient;

  beforeAll(async () => {
    server = await startTestServer(db);
  });
  afterAll(async () => {
    await server.close();
  });

  it("redirects to /setup before the first run, and API calls need a login", async () => {
    const visitor = new TestClient(server.url);
    expect((await visitor.get("/login")).headers.get("location")).toBe("/setup");
    expect((await visitor.get("/queries")).headers.get("location")).toBe("/setup");
    const api = await visitor.get("/api/session");
    expect(api.status).toBe(404);
    expect(api.body.message).toContain("Please login");
  });

  it("setup validates its fields and changes nothing on bad input", async () => {
    const visitor = new TestClient(server.url);
    await visitor.get("/setup");
    const res = await visitor.submitForm("/setup", {
      name: "",
      email: "nope",
      password: "123",
      org_name: "",
    });
    expect(res.status).toBe(200);
    expect(res.text).toContain("Invalid email address.");
    expect(res.text).toContain("at least 6 characters");
    expect(await findOrgBySlug(server.ctx.database.db, "default")).toBeNull();
  });

  it("setup refuses a form without the CSRF token", async () => {
    const visitor = new TestClient(server.url);
    await visitor.get("/setup");
    visitor.sendCsrf = false;
    const res = await visitor.request("POST", "/setup", {
      form: { name: "x", email: "x@example.com", password: "secret1", org_name: "x" },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: "The CSRF token is missing." });
  });

  it("first-run setup creates the organisation and signs the admin in", async () => {
    admin = await setUpAndLogin(server.url);
    const session = await admin.get("/api/session");
    expect(session.status).toBe(200);
    expect(session.body.user.email).toBe(ADMIN.email);
    expect(session.body.user.permissions).toEqual(
      expect.arrayContaining(["admin", "super_admin", "create_query"]),
    );
    expect(session.body.client_config.showBeaconConsentMessage).toBe(true);
    expect(session.body.messages).toEqual([]);
    expect(JSON.stringify(session.body)).not.toContain("password");
    // Setup runs only once.
    expect((await new TestClient(server.url).get("/setup")).headers.get("location")).toBe("/");
  });

  it("serves /api/config publicly and /ping with PONG.", async () => {
    const visitor = new TestClient(server.url);
    const config = await visitor.get("/api/config");
    expect(config.status).toBe(200);
    expect(config.body.client_config.queryRefreshIntervals).toContain(86400);
    expect(config.body.client_config.version).toBeUndefined();
    expect((await visitor.get("/ping")).text).toBe("PONG.");
  });

  it("logs in with the right password only, keeping a safe next address", async () => {
    const visitor = new TestClient(server.url);
    const wrong = await visitor.login(ADMIN.email, "wrong password");
    expect(wrong.status).toBe(200);
    expect(wrong.text).toContain("Wrong email or password.");
    // The page names the app's icon, so browsers do not ask for a missing /favicon.ico.
    expect(wrong.text).toContain('<link rel="icon" type="image/svg+xml" href="/favicon.svg">');
    expect((await visitor.get("/api/session")).status).toBe(404);

    const empty = await visitor.login(ADMIN.email, "");
    expect(empty.text).toContain("Wrong email or password.");

    const ok = await visitor.login(ADMIN.email.toUpperCase(), ADMIN.password, "/queries/1");
    expect(ok.status).toBe(302);
    expect(ok.headers.get("location")).toBe("/queries/1");
    expect(visitor.cookies.has("remember_token")).toBe(true);
    expect((await visitor.get("/api/session")).status).toBe(200);

    const evil = new TestClient(server.url);
    const res = await evil.login(ADMIN.email, ADMIN.password, "https://evil.example/phish");
    // Only the path survives: the redirect stays inside Sightline.
    expect(res.headers.get("location")).toBe("/phish");
  });

  it("requires the CSRF header on state-changing API calls from a session", async () => {
    const visitor = new TestClient(server.url);
    await visitor.login(ADMIN.email, ADMIN.password);
    visitor.sendCsrf = false;
    const res = await visitor.post("/api/events", [{ action: "view", object_type: "page" }]);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain("CSRF");
  });

  it("accepts the user's API key instead of a session, without CSRF", async () => {
    const org = (await findOrgBySlug(server.ctx.database.db, "default"))!;
    const user = await findUserByEmail(server.ctx.database.db, org.id, ADMIN.email);
    const byHeader = new TestClient(server.url);
    byHeader.apiKey = user!.api_key;
    expect((await byHeader.get("/api/session")).body.user.email).toBe(ADMIN.email);
    const byParam = new TestClient(server.url);
    expect((await byParam.get(`/api/session?api_key=${user!.api_key}`)).status).toBe(200);
    expect((await byParam.get(`/api/session?api_key=not-a-key`)).status).toBe(404);
    // A script with a wrong key is told to log in, as Redash does, not about CSRF tokens.
    const wrongKey = new TestClient(server.url);
    wrongKey.apiKey = "not-a-key";
    for (const res of [
      await wrongKey.post("/api/queries", { name: "x", query: "select 1", data_source_id: 1 }),
      await wrongKey.post("/api/query_results", { query: "select 1", data_source_id: 1 }),
      await wrongKey.delete("/api/queries/1"),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: "Couldn't find resource. Please login and try again." });
    }
    // The organisation's slug prefix works too (single-org mode).
    expect((await byHeader.get("/default/api/session")).status).toBe(200);
  });

  it("logs out and forgets the session and remember cookie", async () => {
    const visitor = new TestClient(server.url);
    await visitor.login(ADMIN.email, ADMIN.password);
    const out = await visitor.get("/logout");
    expect(out.status).toBe(302);
    expect(out.headers.get("location")).toBe("/login");
    expect((await visitor.get("/api/session")).status).toBe(404);
    // Logging out without a session works too.
    expect((await new TestClient(server.url).get("/logout")).status).toBe(302);
  });

  it("keeps a logout when a response that was in flight renews the old session cookie", async () => {
    const visitor = new TestClient(server.url);
    await visitor.login(ADMIN.email, ADMIN.password);
    // The answer to a request sent before the logout arrives after it, renewing the session.
    await visitor.get("/api/session");
    const renewed = visitor.cookies.get("session")!;
    expect((await visitor.get("/logout")).status).toBe(302);
    visitor.cookies.set("session", renewed);
    expect((await visitor.get("/api/session")).status).toBe(404);
    // Signing in again works, on the same browser.
    await visitor.login(ADMIN.email, ADMIN.password);
    expect((await visitor.get("/api/session")).status).toBe(200);
  });

  it("accepts an invitation once, with the password rules", async () => {
    const dbh = server.ctx.database.db;
    const org = (await findOrgBySlug(dbh, "default"))!;
    const invited = await insertUser(dbh, {
      orgId: org.id,
      name: "Ivy Invited",
      email: "ivy@example.com",
      passwordHash: null,
      groupIds: [await defaultGroupId(dbh, org.id)],
      invitationPending: true,
    });
    const link = inviteLink(server.ctx, invited).replace(server.url, "");
    const visitor = new TestClient(server.url);
    expect((await visitor.get(link)).status).toBe(200);
    expect((await visitor.submitForm(link, { password: "" })).text).toContain(
      "Cannot use empty password.",
    );
    const short = await visitor.submitForm(link, { password: "1234" });
    expect(short.status).toBe(400);
    expect(short.text).toContain("Password length is too short (&lt;6).");
    const ok = await visitor.submitForm(link, { password: "ivy-password" });
    expect(ok.status).toBe(302);
    expect((await visitor.get("/api/session")).body.user.email).toBe("ivy@example.com");
    // Reused link.
    const again = await new TestClient(server.url).get(link);
    expect(again.status).toBe(400);
    expect(again.text).toContain("This invitation has already been accepted.");
    // Garbage and expired tokens.
    expect((await visitor.get("/invite/garbage")).text).toContain("Bad signature");
    const expired = makeToken(
      server.ctx.keys.tokens,
      "invite",
      invited.id,
      invited.session_token,
      Date.now() - 8 * 86400_000,
    );
    expect((await visitor.get(`/invite/${expired}`)).text).toContain(
      "Your invite link has expired.",
    );
  });

  it("resets a password with a single-use link and ends old sessions", async () => {
    const dbh = server.ctx.database.db;
    const org = (await findOrgBySlug(dbh, "default"))!;
    const user = (await findUserByEmail(dbh, org.id, "ivy@example.com"))!;
    const oldSession = new TestClient(server.url);
    await oldSession.login("ivy@example.com", "ivy-password");
    expect((await oldSession.get("/api/session")).status).toBe(200);

    const link = resetLink(server.ctx, user).replace(server.url, "");
    const visitor = new TestClient(server.url);
    expect((await visitor.get(link)).status).toBe(200);
    expect((await visitor.submitForm(link, { password: "new-password" })).status).toBe(302);
    expect((await visitor.get(link)).status).toBe(400);
    expect((await oldSession.get("/api/session")).status).toBe(404);
    const relogin = new TestClient(server.url);
    expect((await relogin.login("ivy@example.com", "new-password")).status).toBe(302);
  });

  it("answers the forgot-password form the same for known and unknown emails", async () => {
    const visitor = new TestClient(server.url);
    await visitor.get("/forgot");
    const known = await visitor.submitForm("/forgot", { email: ADMIN.email });
    const unknown = await visitor.submitForm("/forgot", { email: "nobody@example.com" });
    expect(known.status).toBe(200);
    expect(unknown.text).toBe(
      known.text.replace(
        /name="csrf_token" value="[^"]*"/,
        unknown.text.match(/name="csrf_token" value="[^"]*"/)?.[0] ?? "",
      ),
    );
  });

  it("does not let a disabled user sign in or use their key", async () => {
    const dbh = server.ctx.database.db;
    const org = (await findOrgBySlug(dbh, "default"))!;
    const user = (await findUserByEmail(dbh, org.id, "ivy@example.com"))!;
    const signedIn = new TestClient(server.url);
    await signedIn.login("ivy@example.com", "new-password");
    await dbh
      .updateTable("users")
      .set({ disabled_at: new Date().toISOString() })
      .where("id", "=", user.id)
      .execute();
    expect((await signedIn.get("/api/session")).status).toBe(404);
    expect(
      (await new TestClient(server.url).login("ivy@example.com", "new-password")).text,
    ).toContain("Wrong email or password.");
    const byKey = new TestClient(server.url);
    byKey.apiKey = user.api_key;
    expect((await byKey.get("/api/session")).status).toBe(404);
  });

  it("sends security headers and rejects malformed JSON with a message", async () => {
    const res = await admin.request("POST", "/api/events", { raw: "{not json" });
    expect(res.status).toBe(400);
    expect(res.body.message).toBeTruthy();
    expect(res.headers.get("x-frame-options")).toBe("deny");
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  });
});

describe("login rate limit", () => {
  it("answers 429 after the configured number of attempts, GET and POST counted together", async () => {
    const server = await startTestServer("sqlite", {
      SIGHTLINE_LOGIN_RATE_LIMIT: "3",
      SIGHTLINE_FORGOT_RATE_LIMIT: "3",
    });
    try {
      await setUpAndLogin(server.url);
      const visitor = new TestClient(server.url);
      // api-platform.md §1.7: the page and its form share one counter.
      const login = [
        (await visitor.get("/login")).status,
        (await visitor.login(ADMIN.email, "wrong password")).status,
        (await visitor.submitForm("/login", { email: ADMIN.email, password: "wrong" })).status,
        (await visitor.get("/login")).status,
      ];
      expect(login).toEqual([200, 200, 200, 429]);
      const forgot = [
        (await visitor.get("/forgot")).status,
        (await visitor.get("/forgot")).status,
        (await visitor.submitForm("/forgot", { email: "nobody@example.com" })).status,
        (await visitor.get("/forgot")).status,
      ];
      expect(forgot).toEqual([200, 200, 200, 429]);
    } finally {
      await server.close();
    }
  });

  it("believes X-Forwarded-For only from a trusted proxy", async () => {
    const spoofed = async (trusted: string) => {
      const server = await startTestServer("sqlite", {
        SIGHTLINE_LOGIN_RATE_LIMIT: "2",
        SIGHTLINE_TRUSTED_PROXIES: trusted,
      });
      try {
        await setUpAndLogin(server.url);
        const statuses: number[] = [];
        for (let i = 1; i <= 4; i += 1) {
          const visitor = new TestClient(server.url);
          const res = await visitor.request("GET", "/login", {
            headers: { "x-forwarded-for": `203.0.113.${i}` },
          });
          statuses.push(res.status);
        }
        return statuses;
      } finally {
        await server.close();
      }
    };
    // A client that is not a trusted proxy names any address it likes: it is one client still.
    expect(await spoofed("10.9.9.9")).toEqual([200, 200, 429, 429]);
    // Behind a trusted proxy (here the loopback the tests connect from), each client counts alone.
    expect(await spoofed("127.0.0.1,::1")).toEqual([200, 200, 200, 200]);
  });
});
