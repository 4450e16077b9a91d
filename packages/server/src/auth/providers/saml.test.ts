import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

import { findUserByEmail } from "../../store/users";
import { ADMIN, TestClient, setUpAndLogin } from "../../testing/httpClient";
import { metadataDatabases } from "../../testing/services";
import { startLoggedServer, startTestServer, type TestServer } from "../../testing/testServer";
import { parseIdpMetadata } from "./samlIdp";
import {
  startTestIdp,
  type AuthnRequestInfo,
  type ResponseOptions,
  type TestIdp,
} from "./samlTestIdp";

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
const EMAIL_FORMAT = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress";

let idp: TestIdp;
beforeAll(async () => {
  idp = await startTestIdp();
});
afterAll(() => idp.close());

function staticSettings(enabled = true) {
  return {
    auth_saml_enabled: enabled,
    auth_saml_type: "static",
    auth_saml_sso_url: idp.ssoUrl,
    auth_saml_x509_cert: idp.certificate,
    auth_saml_entity_id: "",
    auth_saml_metadata_url: "",
  };
}

/** A browser coming back from the provider's page: a cross-site POST, no CSRF token. */
function browser(server: TestServer): TestClient {
  const client = new TestClient(server.url);
  client.sendCsrf = false;
  return client;
}

async function startLogin(client: TestClient, next?: string): Promise<AuthnRequestInfo> {
  const res = await client.get(`/saml/login${next ? `?next=${encodeURIComponent(next)}` : ""}`);
  expect(res.status, res.text).toBe(302);
  const location = res.headers.get("location")!;
  expect(location.startsWith(`${idp.ssoUrl}?SAMLRequest=`)).toBe(true);
  return idp.readRequest(location);
}

function postResponse(
  client: TestClient,
  request: AuthnRequestInfo,
  samlResponse: string,
  relayState = request.relayState,
) {
  return client.request<string>("POST", "/saml/callback?org_slug=default", {
    form: { SAMLResponse: samlResponse, RelayState: relayState },
  });
}

describe("identity provider metadata", () => {
  it("gives the Redirect SSO URL, the signing certificates and the entity id", () => {
    const parsed = parseIdpMetadata(idp.metadata());
    expect(parsed.ssoUrl).toBe(idp.ssoUrl);
    expect(parsed.entityId).toBe(idp.entityId);
    expect(parsed.logoutUrl).toBe(idp.sloUrl);
    expect(parsed.certificates).toHaveLength(1);
    expect(parsed.certificates[0]!.replace(/-----[A-Z ]+-----|\s/g, "")).toBe(idp.certificate);
  });

  it("refuses a document without a usable SSO service or certificate", () => {
    expect(() => parseIdpMetadata("not xml <")).toThrow();
    expect(() =>
      parseIdpMetadata(
        idp.metadata().replace(/(SingleSignOnService Binding="[^"]*)HTTP-Redirect/, "$1SOAP"),
      ),
    ).toThrow(/HTTP-Redirect/);
    expect(() =>
      parseIdpMetadata(idp.metadata().replace(/use="signing"/, 'use="encryption"')),
    ).toThrow(/signing certificate/);
  });
});

describe.each(DATABASES)("SAML sign-in (static settings) on %s", (db) => {
  let server: TestServer;
  let admin: TestClient;
  let analystsId: number;

  beforeAll(async () => {
    server = await startTestServer(db, { SIGHTLINE_SAML_GROUPS_ATTRIBUTE: "groups" });
    admin = await setUpAndLogin(server.url);
    const saved = await admin.post("/api/settings/organization", staticSettings());
    expect(saved.status, saved.text).toBe(200);
    analystsId = (await admin.post<{ id: number }>("/api/groups", { name: "Analysts" })).body.id;
  });
  afterAll(() => server.close());
  beforeEach(() => {
    mapping.calls = [];
    mapping.result = null;
    idp.user = { nameId: "saml.user@example.com", nameIdFormat: EMAIL_FORMAT };
  });

  const noUser = async (email: string) =>
    expect(await findUserByEmail(server.ctx.database.db, 1, email)).toBeNull();

  it("publishes the service provider's metadata: entity id and ACS URL", async () => {
    const res = await new TestClient(server.url).get<string>("/saml/metadata");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/samlmetadata+xml");
    expect(res.text).toContain(`entityID="${server.url}/saml/metadata"`);
    expect(res.text).toContain(`Location="${server.url}/saml/callback?org_slug=default"`);
    expect(res.text).toContain('WantAssertionsSigned="true"');
  });

  it("shows Redash's SAML Login button on the login page, keeping next", async () => {
    const page = await new TestClient(server.url).get<string>("/login?next=%2Fqueries");
    expect(page.text).toMatch(
      /<a class="sso-button" href="\/saml\/login\?next=%2Fqueries">SAML Login<\/a>/,
    );
  });

  it("signs a new user in through the provider's page, just in time, with mapped groups", async () => {
    idp.user = {
      nameId: "Saml.User@Example.com",
      nameIdFormat: EMAIL_FORMAT,
      attributes: { FirstName: "Sam", LastName: "Lee", groups: ["analysts", "staff"] },
    };
    mapping.result = [analystsId];
    const client = browser(server);
    const start = await client.get("/saml/login?next=%2Fqueries%3Fq%3Dx");
    expect(start.status).toBe(302);
    // The browser follows the redirect to the provider, which answers with its auto-post form.
    const idpPage = await fetch(start.headers.get("location")!);
    const html = await idpPage.text();
    const action = /action="([^"]+)"/.exec(html)![1]!.replace(/&amp;/g, "&");
    const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)![1]!;
    expect(action).toBe(`${server.url}/saml/callback?org_slug=default`);
    const res = await client.request("POST", action.slice(server.url.length), {
      form: { SAMLResponse: field("SAMLResponse"), RelayState: field("RelayState") },
    });
    expect(res.status, res.text).toBe(302);
    expect(res.headers.get("location")).toBe("/queries?q=x");
    const session = await client.get<{ user: { email: string; name: string } }>("/api/session");
    expect(session.status).toBe(200);
    expect(session.body.user).toMatchObject({ email: "saml.user@example.com", name: "Sam Lee" });
    expect(mapping.calls).toEqual([["analysts", "staff"]]);
    const stored = await findUserByEmail(server.ctx.database.db, 1, "saml.user@example.com");
    expect(stored).toMatchObject({ password_hash: null, is_invitation_pending: false });
    expect(stored!.group_ids).toContain(analystsId);
  });

  it("finds the same user again; an e-mail attribute and displayName serve too", async () => {
    idp.user = {
      nameId: "opaque-id-123",
      nameIdFormat: "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent",
      attributes: { email: "saml.user@example.com", displayName: "Samantha Lee" },
    };
    const client = browser(server);
    const request = await startLogin(client);
    const res = await postResponse(client, request, idp.respond(request));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/");
    const users = await admin.get<{ count: number; results: { name: string }[] }>(
      "/api/users?q=saml.user",
    );
    expect(users.body.count).toBe(1);
    expect(users.body.results[0]!.name).toBe("Samantha Lee");
  });

  it("signs an existing password user in as themselves", async () => {
    idp.user = { nameId: ADMIN.email, nameIdFormat: EMAIL_FORMAT };
    const client = browser(server);
    const request = await startLogin(client);
    expect((await postResponse(client, request, idp.respond(request))).status).toBe(302);
    const session = await client.get<{ user: { id: number } }>("/api/session");
    expect(session.body.user.id).toBe(1);
  });

  it("refuses a disabled user with the login page's message", async () => {
    const created = await admin.post<{ id: number }>("/api/users?no_invite=1", {
      name: "Dora",
      email: "dora.saml@example.com",
    });
    expect((await admin.post(`/api/users/${created.body.id}/disable`)).status).toBe(200);
    idp.user = { nameId: "dora.saml@example.com", nameIdFormat: EMAIL_FORMAT };
    const client = browser(server);
    const request = await startLogin(client, "/dashboards");
    const res = await postResponse(client, request, idp.respond(request));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/login?sso_error=disabled&next=%2Fdashboards");
    expect((await client.get("/api/session")).status).not.toBe(200);
  });

  const attacks: [string, ResponseOptions, string][] = [
    ["an unsigned assertion", { signing: "none" }, "saml_invalid"],
    ["an assertion signed by another key", { signing: "other-key" }, "saml_invalid"],
    ["an assertion changed after signing", { signing: "tampered" }, "saml_invalid"],
    ["an assertion for another audience", { audience: "https://other.example/sp" }, "saml_invalid"],
    [
      "an assertion for another recipient",
      { recipient: "https://other.example/acs" },
      "saml_invalid",
    ],
    [
      "a response to another destination",
      { destination: "https://other.example/acs" },
      "saml_invalid",
    ],
    ["an expired assertion", { notBefore: -600, notOnOrAfter: -61 }, "saml_invalid"],
    ["an assertion not valid yet", { notBefore: 90, notOnOrAfter: 400 }, "saml_invalid"],
    ["an answer to a request never sent", { inResponseTo: "_never-sent" }, "saml_request"],
    [
      "a response saying the provider refused",
      { status: "urn:oasis:names:tc:SAML:2.0:status:Requester" },
      "saml_denied",
    ],
  ];
  for (const [what, options, error] of attacks) {
    it(`refuses ${what}, creating nobody`, async () => {
      idp.user = { nameId: "mallory@example.com", nameIdFormat: EMAIL_FORMAT };
      const client = browser(server);
      const request = await startLogin(client, "/queries");
      const res = await postResponse(client, request, idp.respond(request, options));
      expect(res.status, res.text).toBe(302);
      const location = res.headers.get("location")!;
      expect(location).toMatch(new RegExp(`^/login\\?sso_error=${error}`));
      expect((await client.get("/api/session")).status).not.toBe(200);
      await noUser("mallory@example.com");
      const page = await client.get<string>(location);
      expect(page.text).toContain('role="alert"');
      // The request is used up: the real answer cannot follow the refused one (an answer naming
      // another request leaves this one alone).
      if (!options.inResponseTo) {
        const again = await postResponse(client, request, idp.respond(request));
        expect(again.headers.get("location")).toMatch(/^\/login\?sso_error=saml_request/);
      }
    });
  }

  it("accepts clocks apart by less than a minute", async () => {
    idp.user = { nameId: "skew@example.com", nameIdFormat: EMAIL_FORMAT };
    const client = browser(server);
    const request = await startLogin(client);
    const res = await postResponse(client, request, idp.respond(request, { notBefore: 30 }));
    expect(res.headers.get("location")).toBe("/");
  });

  it("refuses a replayed response and a replayed assertion ID", async () => {
    idp.user = { nameId: "replay@example.com", nameIdFormat: EMAIL_FORMAT };
    const first = browser(server);
    const request = await startLogin(first);
    const response = idp.respond(request, { assertionId: "_replayed-assertion" });
    expect((await postResponse(first, request, response)).headers.get("location")).toBe("/");
    const thief = browser(server);
    const replay = await postResponse(thief, request, response);
    expect(replay.headers.get("location")).toBe("/login?sso_error=saml_request");
    expect((await thief.get("/api/session")).status).not.toBe(200);
    // The same assertion answering a fresh request: its ID is remembered in the database.
    const fresh = await startLogin(thief);
    const again = await postResponse(
      thief,
      fresh,
      idp.respond(fresh, { assertionId: "_replayed-assertion" }),
    );
    expect(again.headers.get("location")).toBe("/login?sso_error=saml_request");
    const row = await server.ctx.database.db
      .selectFrom("saml_used_assertions")
      .selectAll()
      .where("id", "=", "1:_replayed-assertion")
      .executeTakeFirst();
    expect(row).toBeDefined();
  });

  it("refuses a RelayState that is not the request's", async () => {
    idp.user = { nameId: "relay@example.com", nameIdFormat: EMAIL_FORMAT };
    const client = browser(server);
    const request = await startLogin(client, "/queries");
    for (const relay of ["", "https://evil.example/", "_other"]) {
      const other = relay === "" ? await startLogin(client) : request;
      const res = await postResponse(client, other, idp.respond(other), relay);
      expect(res.headers.get("location")).toMatch(/^\/login\?sso_error=saml_request/);
    }
    await noUser("relay@example.com");
  });

  it("keeps next on this site (sanitizeNext)", async () => {
    idp.user = { nameId: "redirect@example.com", nameIdFormat: EMAIL_FORMAT };
    for (const next of ["//evil.example", "https://evil.example/x", "/\\evil.example"]) {
      const client = browser(server);
      const request = await startLogin(client, next);
      const res = await postResponse(client, request, idp.respond(request));
      expect(res.status).toBe(302);
      const location = res.headers.get("location")!;
      expect(location).toMatch(/^\/(?![/\\])/);
      expect(location).not.toContain("evil.example");
    }
  });

  it("answers a test sign-in to the admin without signing anyone in or creating anyone", async () => {
    idp.user = {
      nameId: "tester@example.com",
      nameIdFormat: EMAIL_FORMAT,
      attributes: { FirstName: "Tess", LastName: "Ter", groups: "admins" },
    };
    const memberLogin = browser(server);
    expect((await memberLogin.get("/saml/login?test=1")).status).toBe(403);
    const start = await admin.get("/saml/login?test=1");
    expect(start.status).toBe(302);
    const request = idp.readRequest(start.headers.get("location")!);
    // The provider posts from another site: the admin's cookie may not come along.
    const res = await postResponse(browser(server), request, idp.respond(request));
    expect(res.status).toBe(200);
    expect(res.text).toContain("tester@example.com");
    expect(res.text).toContain("Tess Ter");
    await noUser("tester@example.com");
    // The page works out the groups the mapping would give, read only.
    expect(res.text).toContain("admins");
    // A refused test sign-in says why, on the same page.
    const start2 = await admin.get("/saml/login?test=1");
    const request2 = idp.readRequest(start2.headers.get("location")!);
    const refused = await postResponse(
      admin,
      request2,
      idp.respond(request2, { signing: "other-key" }),
    );
    expect(refused.status).toBe(200);
    expect(refused.text).toContain("could not be verified");
  });

  it("answers 400 without a SAMLResponse and 404 while SAML is off", async () => {
    const client = browser(server);
    const missing = await client.request<{ message: string }>(
      "POST",
      "/saml/callback?org_slug=default",
      { form: { RelayState: "x" } },
    );
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe("The SAMLResponse form field is missing.");
    expect((await admin.post("/api/settings/organization", staticSettings(false))).status).toBe(
      200,
    );
    try {
      const off = await client.get<{ message: string }>("/saml/login");
      expect(off.status).toBe(404);
      expect(off.body.message).toBe("SAML login is not enabled.");
      expect((await client.get<string>("/login")).text).not.toContain("SAML Login");
    } finally {
      await admin.post("/api/settings/organization", staticSettings());
    }
  });
});

describe.each(DATABASES)("SAML sign-in (dynamic metadata) on %s", (db) => {
  let server: TestServer;
  let admin: TestClient;

  beforeAll(async () => {
    server = await startTestServer(db, { SIGHTLINE_OUTBOUND_ALLOWED_RANGES: "127.0.0.0/8" });
    admin = await setUpAndLogin(server.url);
    const saved = await admin.post("/api/settings/organization", {
      auth_saml_enabled: true,
      auth_saml_type: "dynamic",
      auth_saml_metadata_url: idp.metadataUrl,
      auth_saml_entity_id: "https://sightline.example/saml",
    });
    expect(saved.status, saved.text).toBe(200);
  });
  afterAll(() => server.close());

  it("reads the SSO URL and certificate from the metadata and signs in", async () => {
    idp.user = { nameId: "dyn@example.com", nameIdFormat: EMAIL_FORMAT };
    const client = browser(server);
    const request = await startLogin(client);
    expect(request.issuer).toBe("https://sightline.example/saml");
    const res = await postResponse(client, request, idp.respond(request));
    expect(res.headers.get("location")).toBe("/");
    expect((await client.get("/api/session")).status).toBe(200);
  });

  it("keeps the metadata for an hour instead of fetching it at every sign-in", async () => {
    const before = idp.metadataFetches;
    for (let i = 0; i < 3; i++) await startLogin(browser(server));
    expect(idp.metadataFetches).toBe(before);
  });

  it("checks the issuer the metadata names and the configured audience", async () => {
    idp.user = { nameId: "dyn2@example.com", nameIdFormat: EMAIL_FORMAT };
    for (const options of [
      { issuer: "https://impostor.example/idp" },
      { audience: `${server.url}/saml/metadata` },
    ]) {
      const client = browser(server);
      const request = await startLogin(client);
      const res = await postResponse(client, request, idp.respond(request, options));
      expect(res.headers.get("location")).toBe("/login?sso_error=saml_invalid");
    }
    expect(await findUserByEmail(server.ctx.database.db, 1, "dyn2@example.com")).toBeNull();
  });
});

describe("SAML sign-in across two servers sharing one (SQLite) metadata database", () => {
  let first: TestServer;
  let second: TestServer;

  beforeAll(async () => {
    first = await startTestServer("sqlite");
    const admin = await setUpAndLogin(first.url);
    expect((await admin.post("/api/settings/organization", staticSettings())).status).toBe(200);
    second = await startTestServer("sqlite", {
      SIGHTLINE_DATABASE_URL: path.join(first.dataDir, "sightline.db"),
    });
    // Both behind one address, as a load balancer has them.
    second.config.baseUrl = first.url;
  });
  afterAll(async () => {
    await second.close();
    await first.close();
  });

  it("takes the answer on the other server once, and refuses its replay on either", async () => {
    idp.user = { nameId: "two.servers@example.com", nameIdFormat: EMAIL_FORMAT };
    const request = await startLogin(browser(first));
    const response = idp.respond(request);
    const onSecond = await postResponse(browser(second), request, response);
    expect(onSecond.headers.get("location")).toBe("/");
    for (const server of [first, second]) {
      const replay = await postResponse(browser(server), request, response);
      expect(replay.headers.get("location")).toBe("/login?sso_error=saml_request");
    }
    // The same assertion answering a fresh request from the first server is refused there too.
    const fresh = await startLogin(browser(first));
    const assertionId = /ID="(_a[0-9a-f]+)"/.exec(Buffer.from(response, "base64").toString())![1]!;
    const again = await postResponse(browser(first), fresh, idp.respond(fresh, { assertionId }));
    expect(again.headers.get("location")).toBe("/login?sso_error=saml_request");
  });
});

describe("SAML sign-in when the metadata cannot be fetched", () => {
  it("goes to the login page when the outbound guard refuses the address, and logs no content", async () => {
    const server = await startLoggedServer();
    const { config } = server;
    try {
      const admin = await setUpAndLogin(config.baseUrl);
      await admin.post("/api/settings/organization", {
        auth_saml_enabled: true,
        auth_saml_type: "dynamic",
        auth_saml_metadata_url: idp.metadataUrl,
      });
      const client = new TestClient(config.baseUrl);
      const res = await client.get("/saml/login?next=%2Fqueries");
      expect(res.headers.get("location")).toBe("/login?sso_error=saml_unavailable&next=%2Fqueries");
      const page = await client.get<string>(res.headers.get("location")!);
      expect(page.text).toContain("SAML sign-in is not set up completely");

      // A forged answer to a request: refused, and its content stays out of the log.
      await admin.post("/api/settings/organization", {
        auth_saml_type: "static",
        auth_saml_sso_url: idp.ssoUrl,
        auth_saml_x509_cert: idp.certificate,
      });
      idp.user = { nameId: "secret.person@example.com", nameIdFormat: EMAIL_FORMAT };
      const browserClient = new TestClient(config.baseUrl);
      browserClient.sendCsrf = false;
      const request = await startLogin(browserClient);
      const forged = await postResponse(
        browserClient,
        request,
        idp.respond(request, { audience: "https://audience.secret.example" }),
      );
      expect(forged.headers.get("location")).toBe("/login?sso_error=saml_invalid");
    } finally {
      await server.close();
    }
    const log = server.logSince();
    expect(log).toContain("SAML login refused");
    expect(log).toContain('"check":"audience"');
    expect(log).not.toContain("secret.person");
    expect(log).not.toContain("audience.secret");
  });
});
