import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey } from "jose";
import { metadataDatabases } from "../testing/services";
import { startTestServer, type TestServer } from "../testing/testServer";
import {
  ADMIN,
  TestClient,
  createDataSource,
  ownApiKey,
  setUpAndLogin,
} from "../testing/httpClient";
import { findUserByEmail } from "../store/users";
import { hmacSignature } from "./hmac";

const DATABASES = await metadataDatabases();

/** An identity provider's key set, served over HTTP as the proxy's issuer would. */
async function startIssuer() {
  const { privateKey, publicKey } = await generateKeyPair("RS256");
  const jwk = { ...(await exportJWK(publicKey)), kid: "k1", alg: "RS256" };
  const server = http.createServer((_req, res) => {
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/certs`;
  return { url, privateKey, close: () => new Promise((resolve) => server.close(resolve)) };
}

const ISSUER = "https://access.example";
const AUDIENCE = "sightline-app";

function token(key: CryptoKey, claims: Record<string, unknown>, audience = AUDIENCE) {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: "RS256", kid: "k1" })
    .setIssuer(ISSUER)
    .setAudience(audience)
    .setExpirationTime("5m")
    .sign(key);
}

describe.each(DATABASES)("JWT login on %s", (db) => {
  let server: TestServer;
  let admin: TestClient;
  let issuer: Awaited<ReturnType<typeof startIssuer>>;

  /** A client that sends the token in the proxy's header on every request. */
  function behindProxy(jwt: string): TestClient {
    const client = new TestClient(server.url);
    const request = client.request.bind(client);
    client.request = (method, url, options = {}) =>
      request(method, url, {
        ...options,
        headers: { ...options.headers, "x-jwt-assertion": jwt },
      });
    return client;
  }

  beforeAll(async () => {
    issuer = await startIssuer();
    server = await startTestServer(db, { SIGHTLINE_OUTBOUND_ALLOWED_RANGES: "127.0.0.1/32" });
    admin = await setUpAndLogin(server.url);
  });
  afterAll(async () => {
    await server.close();
    await issuer.close();
  });

  it("ignores tokens while JWT login is off", async () => {
    const res = await behindProxy(await token(issuer.privateKey, { email: "ada@example.com" })).get(
      "/api/session",
    );
    expect(res.status).toBe(404);
    expect(res.body.message).toContain("Please login");
  });

  it("signs in the token's user, creating a new one in the default group", async () => {
    const saved = await admin.post("/api/settings/organization", {
      auth_jwt_login_enabled: true,
      auth_jwt_auth_issuer: ISSUER,
      auth_jwt_auth_audience: AUDIENCE,
      auth_jwt_auth_public_certs_url: issuer.url,
      auth_jwt_auth_header_name: "X-Jwt-Assertion",
      auth_jwt_auth_cookie_name: "jwt_token",
    });
    expect(saved.status).toBe(200);

    const grace = behindProxy(await token(issuer.privateKey, { email: "Grace@Example.com" }));
    const session = await grace.get<{ user: { email: string; name: string; groups: number[] } }>(
      "/api/session",
    );
    expect(session.status).toBe(200);
    expect(session.body.user).toMatchObject({
      email: "grace@example.com",
      name: "grace@example.com",
    });
    const stored = await findUserByEmail(server.ctx.database.db, 1, "grace@example.com");
    expect(stored).toMatchObject({ is_invitation_pending: false, password_hash: null });
    const groups = (await admin.get<{ id: number; name: string }[]>("/api/groups")).body;
    expect(stored!.group_ids).toEqual([groups.find((g) => g.name === "default")!.id]);

    // The next request finds the same user instead of creating another.
    expect((await grace.get("/api/session")).status).toBe(200);
    const users = await admin.get<{ count: number }>("/api/users?q=grace");
    expect(users.body.count).toBe(1);
  });

  it("reads the token from the named cookie too", async () => {
    const client = new TestClient(server.url);
    const jwt = await token(issuer.privateKey, { email: "admin@example.com" });
    const res = await client.request<{ user: { email: string } }>("GET", "/api/session", {
      headers: { cookie: `jwt_token=${jwt}` },
    });
    expect(res.status).toBe(200);
    expect(res.body.user.email).toBe(ADMIN.email);
  });

  it("answers 401 to an invalid token and creates nobody", async () => {
    const wrongAudience = await token(issuer.privateKey, { email: "eve@example.com" }, "other");
    const res = await behindProxy(wrongAudience).get("/api/session");
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: "Invalid JWT token." });
    const forged = await token((await generateKeyPair("RS256")).privateKey, {
      email: "eve@example.com",
    });
    expect((await behindProxy(forged).get("/api/queries")).status).toBe(401);
    expect(await findUserByEmail(server.ctx.database.db, 1, "eve@example.com")).toBeNull();
  });

  it("accepts an invited user, and never a disabled one", async () => {
    const invited = await admin.post<{ id: number }>("/api/users?no_invite=1", {
      name: "Ivy",
      email: "ivy@example.com",
    });
    const ivy = behindProxy(await token(issuer.privateKey, { email: "ivy@example.com" }));
    expect((await ivy.get("/api/session")).status).toBe(200);
    const user = await admin.get<{ is_invitation_pending: boolean }>(
      `/api/users/${invited.body.id}`,
    );
    expect(user.body.is_invitation_pending).toBe(false);

    expect((await admin.post(`/api/users/${invited.body.id}/disable`, {})).status).toBe(200);
    const res = await ivy.get("/api/session");
    expect(res.status).toBe(404);
    expect(res.body.message).toContain("Please login");
  });

  it("checks CSRF on changes, as for a session: the token travels with every request", async () => {
    const grace = behindProxy(await token(issuer.privateKey, { email: "grace@example.com" }));
    grace.sendCsrf = false;
    const refused = await grace.post("/api/query_snippets", {
      trigger: "x",
      description: "",
      snippet: "select 1",
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain("CSRF");
    grace.sendCsrf = true;
    await grace.get("/api/session");
    const made = await grace.post("/api/query_snippets", {
      trigger: "x",
      description: "",
      snippet: "select 1",
    });
    expect(made.body).toMatchObject({ trigger: "x" });
  });
});

describe.each(DATABASES)("HMAC signed links on %s", (db) => {
  let server: TestServer;
  let admin: TestClient;
  let queryId: number;
  let queryKey: string;
  let userKey: string;
  let userId: number;

  const now = () => Math.floor(Date.now() / 1000);

  function signedUrl(path: string, key: string, params: Record<string, string>, expires: number) {
    const query = new URLSearchParams({
      ...params,
      expires: String(expires),
      signature: hmacSignature(key, path, expires),
    });
    return `${path}?${query}`;
  }

  beforeAll(async () => {
    server = await startTestServer(db, { SIGHTLINE_AUTH_TYPE: "hmac" });
    admin = await setUpAndLogin(server.url);
    const dataSourceId = await createDataSource(admin, "Local", "duckdb", {
      dbpath: ":memory:",
    });
    const query = await admin.post<{ id: number; api_key: string }>("/api/queries", {
      name: "Signed",
      query: "select 1 as one",
      data_source_id: dataSourceId,
    });
    queryId = query.body.id;
    queryKey = query.body.api_key;
    userKey = await ownApiKey(admin);
    userId = (await admin.get<{ user: { id: number } }>("/api/session")).body.user.id;
  });
  afterAll(async () => {
    await server.close();
  });

  it("opens a link signed with the user's key that names the user", async () => {
    const path = `/api/queries/${queryId}`;
    const url = signedUrl(path, userKey, { user_id: String(userId) }, now() + 600);
    const res = await new TestClient(server.url).get<{ name: string }>(url);
    expect(res.status).toBe(200);
    expect(res.body.name).toBe("Signed");
  });

  it("reads only: the same signed link changes nothing", async () => {
    const path = `/api/queries/${queryId}`;
    const url = signedUrl(path, userKey, { user_id: String(userId) }, now() + 600);
    const visitor = new TestClient(server.url);
    const change = await visitor.post(url, { query: "select 'changed' as x" });
    expect(change.status).toBe(404);
    expect((await visitor.request("DELETE", url)).status).toBe(404);
    const query = await admin.get<{ query: string; is_archived: boolean }>(path);
    expect(query.body).toMatchObject({ query: "select 1 as one", is_archived: false });
  });

  it("opens a link signed with the query's key on that query's routes only", async () => {
    const expires = now() + 600;
    const ok = await new TestClient(server.url).get(
      signedUrl(`/api/queries/${queryId}`, queryKey, {}, expires),
    );
    expect(ok.status).toBe(200);
    const other = await new TestClient(server.url).get(
      signedUrl(`/api/queries/${queryId + 1000}`, queryKey, {}, expires),
    );
    expect(other.status).toBe(404);
  });

  it("refuses expired links, links too far ahead, wrong signatures and bare keys", async () => {
    const path = `/api/queries/${queryId}`;
    const visitor = new TestClient(server.url);
    const refused = async (url: string) => {
      const res = await visitor.get(url);
      return res.status === 404 && String((res.body as { message: string }).message);
    };
    const user = { user_id: String(userId) };
    expect(await refused(signedUrl(path, userKey, user, now() - 1))).toContain("Please login");
    expect(await refused(signedUrl(path, userKey, user, now() + 3700))).toContain("Please login");
    expect(await refused(signedUrl(path, "not-the-key", user, now() + 600))).toContain(
      "Please login",
    );
    // Signed for another path.
    const elsewhere = signedUrl("/api/queries", userKey, user, now() + 600).replace(
      "/api/queries?",
      `${path}?`,
    );
    expect(await refused(elsewhere)).toContain("Please login");
    // With the hmac auth type a bare API key opens nothing without a session, as in Redash.
    expect(await refused(`${path}?api_key=${userKey}`)).toContain("Please login");
  });
});
