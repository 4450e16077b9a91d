import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClient } from "../../testing/httpClient";
import { startTestIdp, useDynamicSaml, type StartedLogout, type TestIdp } from "./samlTestIdp";
import { startLoggedServer, type LoggedServer } from "../../testing/testServer";

const EMAIL_FORMAT = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress";

describe("SAML single logout through the identity provider's SingleLogoutService", () => {
  let idp: TestIdp;
  let server: LoggedServer;
  let baseUrl: string;
  let admin: TestClient;

  beforeAll(async () => {
    idp = await startTestIdp();
    server = await startLoggedServer({ SIGHTLINE_OUTBOUND_ALLOWED_RANGES: "127.0.0.0/8" });
    baseUrl = server.url;
    admin = await useDynamicSaml(baseUrl, idp);
  });
  afterAll(async () => {
    await server.close();
    await idp.close();
  });

  /** Signs a browser in through the provider's pages, over HTTP. */
  async function signIn(nameId: string): Promise<TestClient> {
    idp.user = { nameId, nameIdFormat: EMAIL_FORMAT };
    const client = new TestClient(baseUrl);
    client.sendCsrf = false;
    const login = await client.get("/saml/login");
    const request = idp.readRequest(login.headers.get("location")!);
    const res = await client.request<string>("POST", "/saml/callback?org_slug=default", {
      form: { SAMLResponse: idp.respond(request), RelayState: request.relayState },
    });
    expect(res.headers.get("location")).toBe("/");
    expect((await client.get("/api/session")).status).toBe(200);
    return client;
  }

  /** /logout, then the provider's SLO page; returns where the provider sends the browser back. */
  async function logout(client: TestClient): Promise<string> {
    const res = await client.get("/logout");
    expect(res.status).toBe(302);
    const location = res.headers.get("location")!;
    expect(location.startsWith(`${idp.sloUrl}?SAMLRequest=`)).toBe(true);
    // Without a key of Sightline's own (samlSigning.test.ts), the request is not signed.
    expect(location).not.toContain("Signature=");
    // Sightline's session ended before the browser left.
    expect((await client.get("/api/session")).status).not.toBe(200);
    const atIdp = await fetch(location, { redirect: "manual" });
    expect(atIdp.status).toBe(302);
    return atIdp.headers.get("location")!;
  }

  const lines = () => server.lines;
  const logSince = (from: number) => server.logSince(from);

  it("ends the session, sends a LogoutRequest with the NameID and SessionIndex, takes the signed answer", async () => {
    const client = await signIn("slo.user@example.com");
    const back = await logout(client);
    const request = idp.logoutRequests.at(-1)!;
    expect(request.nameId).toBe("slo.user@example.com");
    expect(request.sessionIndex).toMatch(/^_s[0-9a-f]+$/);
    expect(request.issuer).toBe(`${baseUrl}/saml/metadata`);
    expect(request.destination).toBe(idp.sloUrl);
    const from = lines().length;
    const res = await client.get(back.slice(baseUrl.length));
    // Never the RelayState's address: always the login page.
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/login");
    expect(logSince(from)).toContain("SAML logout finished");
    // The cookie was used up: a second /logout is Sightline's own.
    expect((await client.get("/logout")).headers.get("location")).toBe("/login");
  });

  for (const [signing, check] of [
    ["none", "unsigned"],
    ["other-key", "bad signature"],
  ] as const) {
    it(`refuses a LogoutResponse signed by ${signing}, still going to the login page`, async () => {
      const client = await signIn(`slo.${signing}@example.com`);
      idp.logoutSigning = signing;
      try {
        const back = await logout(client);
        const from = lines().length;
        const res = await client.get(back.slice(baseUrl.length));
        expect(res.headers.get("location")).toBe("/login");
        expect(logSince(from)).toContain("SAML logout response refused");
        expect(logSince(from)).toContain(`"check":"${check}"`);
        expect(logSince(from)).not.toContain("SAML logout finished");
      } finally {
        idp.logoutSigning = "ours";
      }
    });
  }

  /** The provider's own logout reaching Sightline in this browser: where it is sent next. */
  async function providerLogout(client: TestClient, started: StartedLogout): Promise<string> {
    const url = idp.logoutRequestUrl(`${baseUrl}/saml/logout?org_slug=default`, started);
    const res = await client.get(url.slice(baseUrl.length));
    expect(res.status).toBe(302);
    return res.headers.get("location")!;
  }

  it("ends the session when the provider starts the logout, and answers the provider", async () => {
    const nameId = "idp.started@example.com";
    const client = await signIn(nameId);
    const from = lines().length;
    const back = await providerLogout(client, {
      nameId,
      sessionIndex: idp.lastSessionIndex,
      relayState: "next-application",
    });
    expect(back.startsWith(`${idp.sloUrl}?SAMLResponse=`)).toBe(true);
    const answer = idp.readLogoutResponse(back);
    expect(answer).toMatchObject({
      status: "urn:oasis:names:tc:SAML:2.0:status:Success",
      destination: idp.sloUrl,
      issuer: `${baseUrl}/saml/metadata`,
      relayState: "next-application",
    });
    expect(answer.inResponseTo).toMatch(/^_lr[0-9a-f]+$/);
    expect((await client.get("/api/session")).status).not.toBe(200);
    expect(logSince(from)).toContain("SAML logout started by the identity provider: session ended");
    // Its logout cookie went with it: Sightline's /logout is its own now.
    expect((await client.get("/logout")).headers.get("location")).toBe("/login");
  });

  it("ends no session of another NameID or another sign-in, and still answers", async () => {
    const nameId = "idp.kept@example.com";
    const client = await signIn(nameId);
    for (const started of [
      { nameId: "someone.else@example.com" },
      { nameId, sessionIndex: "_s-another-sign-in" },
    ]) {
      const back = await providerLogout(client, started);
      expect(idp.readLogoutResponse(back).status).toBe(
        "urn:oasis:names:tc:SAML:2.0:status:Success",
      );
      expect((await client.get("/api/session")).status).toBe(200);
    }
    // A request naming no SessionIndex means every sign-in of the NameID.
    await providerLogout(client, { nameId });
    expect((await client.get("/api/session")).status).not.toBe(200);
  });

  for (const [signing, check] of [
    ["none", "unsigned"],
    ["other-key", "bad signature"],
  ] as const) {
    it(`refuses a LogoutRequest signed by ${signing}: the session stays`, async () => {
      const nameId = `idp.${signing}@example.com`;
      const client = await signIn(nameId);
      const from = lines().length;
      const back = await providerLogout(client, { nameId, signing });
      expect(back).toBe("/login");
      expect((await client.get("/api/session")).status).toBe(200);
      expect(logSince(from)).toContain("SAML logout request refused");
      expect(logSince(from)).toContain(`"check":"${check}"`);
    });
  }

  it("keeps /logout Sightline's own after a password sign-in", async () => {
    const client = await signIn("slo.again@example.com");
    await admin.get("/api/session");
    const res = await admin.get("/logout");
    expect(res.headers.get("location")).toBe("/login");
    expect((await client.get("/api/session")).status).toBe(200);
  });
});
