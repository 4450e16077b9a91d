import fs from "node:fs";
import net, { type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import { ConfigError } from "../../config";
import { findUserByEmail } from "../../store/users";
import { freePort } from "../../testing/processes";
import { addUser, signIn } from "../../testing/signedIn";
import { findOrgBySlug } from "../../store/organizations";
import { metadataDatabases } from "../../testing/services";
import { startLoggedServer, startTestServer, type TestServer } from "../../testing/testServer";
import { ADMIN, TestClient, setUpAndLogin } from "../../testing/httpClient";
import { LDAP_USERS, startTestLdap } from "../../testing/ldapServer";
import { ldapConfig } from "./ldapConfig";
import { escapeFilterValue, groupNames, ldapAuthenticate, searchFilter } from "./ldapDirectory";

// Group mapping is another module's work: here it records the groups LDAP gave and maps names
// to the ids the test chose, so the test sees what reached the mapping and what it did.
const mapping = vi.hoisted(() => ({
  seen: [] as string[][],
  ids: new Map<string, number>(),
}));
vi.mock("./groupMapping", () => ({
  groupMappingFor: () => async (groups: string[]) => {
    mapping.seen.push(groups);
    return groups.flatMap((g) => (mapping.ids.has(g) ? [mapping.ids.get(g)!] : []));
  },
}));

const DATABASES = await metadataDatabases();
const LDAP = await startTestLdap();
afterAll(() => LDAP?.stop());
const { ada, grace, linus, dora, eve } = LDAP_USERS;

/** Posts the LDAP form as a browser would (CSRF token from the form's cookie). */
async function ldapLogin(
  client: TestClient,
  username: string,
  password: string,
  query = "",
): Promise<{ status: number; text: string; location: string | null }> {
  await client.get(`/ldap/login${query}`);
  const res = await client.submitForm(`/ldap/login${query}`, {
    username,
    password,
    remember: "on",
  });
  return { status: res.status, text: res.text, location: res.headers.get("location") };
}

async function signedIn(client: TestClient): Promise<{ email: string; name: string } | null> {
  const res = await client.get<{ user: { email: string; name: string } }>("/api/session");
  return res.status === 200 ? res.body.user : null;
}

describe("LDAP filter escaping and settings", () => {
  it("escapes RFC 4515's metacharacters so a user name is only ever a value", () => {
    expect(escapeFilterValue("a*b(c)d\\e\0f")).toBe("a\\2ab\\28c\\29d\\5ce\\00f");
    expect(escapeFilterValue("Ada Lovelace é")).toBe("Ada Lovelace é");
    expect(searchFilter("(&(uid=%(username)s)(!(mail=%(username)s)))", "admin)(|(mail=*")).toBe(
      "(&(uid=admin\\29\\28|\\28mail=\\2a)(!(mail=admin\\29\\28|\\28mail=\\2a)))",
    );
  });

  it("gives a memberOf DN's group name as well as the DN", () => {
    expect(
      groupNames(["cn=analysts,ou=groups,dc=example,dc=org", "plain", "cn=a\\,b,dc=x"]),
    ).toEqual([
      "cn=analysts,ou=groups,dc=example,dc=org",
      "analysts",
      "plain",
      "cn=a\\,b,dc=x",
      "a,b",
    ]);
  });

  it("reads Redash's names and refuses settings that cannot work", () => {
    const config = ldapConfig({});
    expect(config).toMatchObject({
      enabled: false,
      searchTemplate: "(cn=%(username)s)",
      emailKey: "mail",
      displayNameKey: "displayName",
      groupsKey: null,
      timeoutMs: 10_000,
      loginPrompt: "LDAP/AD/SSO username:",
    });
    const on = { SIGHTLINE_LDAP_LOGIN_ENABLED: "true", SIGHTLINE_LDAP_URL: "ldaps://h" };
    expect(() => ldapConfig(on)).toThrow(
      new ConfigError("SIGHTLINE_LDAP_LOGIN_ENABLED needs SIGHTLINE_LDAP_SEARCH_DN"),
    );
    expect(() =>
      ldapConfig({
        ...on,
        SIGHTLINE_LDAP_SEARCH_DN: "dc=x",
        SIGHTLINE_LDAP_SEARCH_TEMPLATE: "(uid=x)",
      }),
    ).toThrow(/must contain %\(username\)s/);
    expect(() => ldapConfig({ SIGHTLINE_LDAP_URL: "http://h" })).toThrow(/ldap:\/\/ or ldaps:\/\//);
    expect(() =>
      ldapConfig({ SIGHTLINE_LDAP_URL: "ldaps://h", SIGHTLINE_LDAP_START_TLS: "true" }),
    ).toThrow(/START_TLS is for ldap:\/\//);
    // Passwords never cross the network in clear: TLS unless the directory is on this machine.
    expect(() => ldapConfig({ SIGHTLINE_LDAP_URL: "ldap://ldap.example.org:389" })).toThrow(
      /would send passwords unencrypted/,
    );
    expect(() => ldapConfig({ SIGHTLINE_LDAP_URL: "ldap://127.0.0.1.example.org" })).toThrow(
      /would send passwords unencrypted/,
    );
    for (const safe of [
      { SIGHTLINE_LDAP_URL: "ldap://ldap.example.org", SIGHTLINE_LDAP_START_TLS: "true" },
      { SIGHTLINE_LDAP_URL: "ldaps://ldap.example.org" },
      { SIGHTLINE_LDAP_URL: "ldap://127.0.0.1:389" },
      { SIGHTLINE_LDAP_URL: "ldap://localhost" },
      { SIGHTLINE_LDAP_URL: "ldap://[::1]:389" },
    ]) {
      expect(ldapConfig(safe).url).toBe(safe.SIGHTLINE_LDAP_URL);
    }
    expect(() => ldapConfig({ SIGHTLINE_LDAP_CA_CERT_FILE: "/nonexistent/ca.pem" })).toThrow(
      /cannot be read/,
    );
  });
});

describe.skipIf(!LDAP)("the directory conversation with slapd", () => {
  const base = () => ldapConfig(LDAP!.env);
  const ca = () => fs.readFileSync(LDAP!.caFile, "utf8");

  it("binds, searches and reads e-mail, name and groups", async () => {
    const outcome = await ldapAuthenticate(base(), "ada", ada.password);
    expect(outcome).toEqual({
      ok: true,
      dn: "uid=ada,ou=people,dc=example,dc=org",
      identity: {
        email: ada.mail,
        name: ada.displayName,
        verifiedEmail: true,
        groups: [
          "cn=analysts,ou=groups,dc=example,dc=org",
          "analysts",
          "cn=engineers,ou=groups,dc=example,dc=org",
          "engineers",
        ],
      },
    });
  });

  it("refuses a name that matches two entries", async () => {
    const config = { ...base(), searchTemplate: "(cn=%(username)s)" };
    expect(await ldapAuthenticate(config, "Ada Lovelace", ada.password)).toEqual({
      ok: false,
      failure: "bad_credentials",
      detail: "several entries match",
    });
  });

  it("speaks StartTLS and ldaps:// with the CA it is given, and refuses an untrusted certificate", async () => {
    const startTls = { ...base(), startTls: true };
    expect(
      await ldapAuthenticate({ ...startTls, caCert: ca() }, "grace", grace.password),
    ).toMatchObject({ ok: true, identity: { email: grace.mail } });
    const ldaps = { ...base(), url: LDAP!.ldapsUrl };
    expect(
      await ldapAuthenticate({ ...ldaps, caCert: ca() }, "grace", grace.password),
    ).toMatchObject({
      ok: true,
    });
    for (const config of [startTls, ldaps]) {
      expect(await ldapAuthenticate(config, "grace", grace.password)).toMatchObject({
        ok: false,
        failure: "untrusted_certificate",
      });
    }
  });

  it("says the set-up is wrong when the service bind is refused", async () => {
    const config = { ...base(), bindPassword: "not the password" };
    expect(await ldapAuthenticate(config, "ada", ada.password)).toMatchObject({
      ok: false,
      failure: "misconfigured",
    });
  });

  it("finds nobody for a user name with NUL or a wildcard", async () => {
    for (const name of ["ada\0", "ad*", "*"]) {
      expect(await ldapAuthenticate(base(), name, ada.password)).toEqual({
        ok: false,
        failure: "bad_credentials",
        detail: "no entry matches",
      });
    }
  });

  it("never binds with an empty password (an anonymous bind would succeed)", async () => {
    expect(await ldapAuthenticate(base(), "ada", "")).toMatchObject({
      ok: false,
      failure: "bad_credentials",
      detail: "empty user name or password",
    });
  });
});

describe("an LDAP server that is down or silent", () => {
  it("answers quickly when nothing listens, and within the time limit when the server never answers", async () => {
    const closed = {
      ...ldapConfig({}),
      url: `ldap://127.0.0.1:${await freePort()}`,
      searchDn: "dc=x",
    };
    expect(await ldapAuthenticate(closed, "ada", "pw")).toMatchObject({
      ok: false,
      failure: "unreachable",
    });
    // Accepts the connection and then says nothing.
    const sockets: net.Socket[] = [];
    const silent = net.createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = silent.address() as AddressInfo;
      const config = {
        ...closed,
        url: `ldap://127.0.0.1:${port}`,
        bindDn: "cn=x",
        timeoutMs: 1000,
      };
      const started = Date.now();
      expect(await ldapAuthenticate(config, "ada", "pw")).toMatchObject({
        ok: false,
        failure: "unreachable",
      });
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

describe.each(DATABASES)("LDAP login on %s", (db) => {
  let server: TestServer;
  let admin: TestClient;
  let analystsId: number;

  beforeAll(async () => {
    if (!LDAP) return;
    server = await startTestServer(db, { ...LDAP.env, SIGHTLINE_LOGIN_RATE_LIMIT: "1000" });
    admin = await setUpAndLogin(server.url);
    const group = await admin.post<{ id: number }>("/api/groups", { name: "Analysts" });
    analystsId = group.body.id;
    mapping.ids.set("analysts", analystsId);
  });
  afterAll(() => server?.close());

  it.skipIf(!LDAP)(
    "offers Redash's LDAP/SSO Login button, keeping next, and says so in client_config",
    async () => {
      const client = new TestClient(server.url);
      const page = await client.get<string>("/login?next=%2Fqueries");
      expect(page.text).toContain(
        '<form method="get" action="/ldap/login"><input type="hidden" name="next" value="/queries"><button type="submit">LDAP/SSO Login</button></form>',
      );
      const config = await client.get<{ client_config: { ldapLoginEnabled: boolean } }>(
        "/api/config",
      );
      expect(config.body.client_config.ldapLoginEnabled).toBe(true);
      const form = await client.get<string>("/ldap/login?next=%2Fqueries");
      expect(form.status).toBe(200);
      expect(form.text).toContain('<label for="username">LDAP/AD/SSO username:</label>');
      expect(form.text).toContain('action="/ldap/login?next=%2Fqueries"');
      expect(form.text).toContain('name="csrf_token"');
      expect(form.text).toContain('id="remember"');
    },
  );

  it.skipIf(!LDAP)(
    "tests a sign-in for an admin without signing in or creating anyone",
    async () => {
      const res = await ldapLogin(admin, "grace", grace.password, "?test=1");
      expect(res.status).toBe(200);
      expect(res.text).toContain("grace@example.com");
      expect(res.text).toContain("Grace Hopper");
      expect(await findUserByEmail(server.ctx.database.db, 1, "grace@example.com")).toBeNull();
      expect((await signedIn(admin))?.email).toBe(ADMIN.email);
      const wrong = await ldapLogin(admin, "grace", "nope", "?test=1");
      expect(wrong.text).toContain("Wrong username or password.");
      // Not for anyone else.
      const anonymous = new TestClient(server.url);
      expect((await anonymous.get("/ldap/login?test=1")).status).toBe(403);
      expect((await ldapLogin(anonymous, "grace", grace.password, "?test=1")).status).toBe(403);
    },
  );

  it.skipIf(!LDAP)(
    "creates the directory's user just in time, with mapped groups, and goes to next",
    async () => {
      mapping.seen.length = 0;
      const client = new TestClient(server.url);
      const res = await ldapLogin(client, "ada", ada.password, "?next=%2Fqueries%3Fq%3Dx");
      expect(res.status).toBe(302);
      expect(res.location).toBe("/queries?q=x");
      expect(await signedIn(client)).toMatchObject({
        email: "ada.lovelace@example.com",
        name: "Ada Lovelace",
      });
      expect(mapping.seen).toEqual([
        [
          "cn=analysts,ou=groups,dc=example,dc=org",
          "analysts",
          "cn=engineers,ou=groups,dc=example,dc=org",
          "engineers",
        ],
      ]);
      const stored = await findUserByEmail(server.ctx.database.db, 1, "ada.lovelace@example.com");
      const groups = (await admin.get<{ id: number; name: string }[]>("/api/groups")).body;
      const defaultId = groups.find((g) => g.name === "default")!.id;
      expect(stored).toMatchObject({ password_hash: null, is_invitation_pending: false });
      expect(stored!.group_ids).toEqual([defaultId, analystsId].sort((a, b) => a - b));
    },
  );

  it.skipIf(!LDAP)("finds the same user at the next sign-in", async () => {
    const res = await ldapLogin(new TestClient(server.url), "ada", ada.password);
    expect(res.status).toBe(302);
    expect(res.location).toBe("/");
    expect((await admin.get<{ count: number }>("/api/users?q=lovelace")).body.count).toBe(1);
  });

  it.skipIf(!LDAP)(
    "signs an existing user with the directory's address in as themselves",
    async () => {
      const created = await admin.post<{ id: number }>("/api/users?no_invite=1", {
        name: "G. H.",
        email: "grace@example.com",
      });
      const client = new TestClient(server.url);
      expect((await ldapLogin(client, "grace", grace.password)).status).toBe(302);
      const session = await client.get<{ user: { id: number; name: string } }>("/api/session");
      expect(session.body.user).toMatchObject({ id: created.body.id, name: "Grace Hopper" });
    },
  );

  it.skipIf(!LDAP)("refuses a disabled user on the LDAP form", async () => {
    const created = await admin.post<{ id: number }>("/api/users?no_invite=1", {
      name: "Dora",
      email: dora.mail,
    });
    expect((await admin.post(`/api/users/${created.body.id}/disable`)).status).toBe(200);
    const client = new TestClient(server.url);
    const res = await ldapLogin(client, "dora", dora.password);
    expect(res.status).toBe(200);
    expect(res.text).toContain("Your account is disabled. Ask an administrator to enable it.");
    expect(res.text).toContain('value="dora"');
    expect(await signedIn(client)).toBeNull();
  });

  it.skipIf(!LDAP)(
    "refuses a wrong password, an unknown user and an empty password, creating nobody",
    async () => {
      const before = (await admin.get<{ count: number }>("/api/users")).body.count;
      for (const [username, password] of [
        ["ada", "wrong"],
        ["nobody", "x"],
        ["ada", ""],
        ["", ada.password],
      ] as const) {
        const client = new TestClient(server.url);
        const res = await ldapLogin(client, username, password);
        expect(res.status).toBe(200);
        expect(res.text).toContain("Wrong username or password.");
        expect(res.text).not.toContain(ada.password);
        expect(await signedIn(client)).toBeNull();
      }
      expect((await admin.get<{ count: number }>("/api/users")).body.count).toBe(before);
    },
  );

  it.skipIf(!LDAP)(
    "finds nobody with filter metacharacters in the user name (no LDAP injection)",
    async () => {
      for (const username of [
        "*",
        "a*",
        "admin)(|(mail=*",
        "ada)(uid=*",
        "*)(uid=*))(|(uid=*",
        "ada\\",
        // Each of these would find exactly Grace if the name went into the filter unescaped.
        "gr*",
        "*)(uid=grace",
        "grace)(uid=*",
      ]) {
        const client = new TestClient(server.url);
        const res = await ldapLogin(client, username, grace.password);
        expect(res.status, username).toBe(200);
        expect(res.text).toContain("Wrong username or password.");
        expect(await signedIn(client)).toBeNull();
      }
    },
  );

  it.skipIf(!LDAP)(
    "refuses an account disabled in the directory (locked), creating nobody",
    async () => {
      const client = new TestClient(server.url);
      const res = await ldapLogin(client, "eve", eve.password);
      expect(res.status).toBe(200);
      expect(res.text).toContain("Wrong username or password.");
      expect(await signedIn(client)).toBeNull();
      expect(await findUserByEmail(server.ctx.database.db, 1, eve.mail!)).toBeNull();
    },
  );

  it.skipIf(!LDAP)("refuses a directory account without an e-mail address", async () => {
    const res = await ldapLogin(new TestClient(server.url), "linus", linus.password);
    expect(res.status).toBe(200);
    expect(res.text).toContain("Your directory account has no e-mail address.");
  });

  it.skipIf(!LDAP)("ignores a next that leaves the site", async () => {
    for (const next of ["//evil.example", "https://evil.example/x"]) {
      const res = await ldapLogin(
        new TestClient(server.url),
        "ada",
        ada.password,
        `?next=${encodeURIComponent(next)}`,
      );
      expect(res.status).toBe(302);
      expect(res.location).not.toContain("evil");
    }
  });
});

describe.each(DATABASES)("LDAP login switched off or unreachable on %s", (db) => {
  let off: TestServer;
  let down: TestServer;

  beforeAll(async () => {
    off = await startTestServer(db);
    await setUpAndLogin(off.url);
    down = await startTestServer(db, {
      SIGHTLINE_LDAP_LOGIN_ENABLED: "true",
      SIGHTLINE_LDAP_URL: `ldap://127.0.0.1:${await freePort()}`,
      SIGHTLINE_LDAP_SEARCH_DN: "dc=example,dc=org",
      SIGHTLINE_LOGIN_RATE_LIMIT: "6",
    });
    await setUpAndLogin(down.url);
  });
  afterAll(async () => {
    await off.close();
    await down.close();
  });

  it("answers 404 while LDAP login is off, with no button", async () => {
    const client = new TestClient(off.url);
    const res = await client.get<{ message: string }>("/ldap/login");
    expect(res.status).toBe(404);
    expect(res.body.message).toBe("LDAP login is not enabled.");
    expect((await client.get<string>("/login")).text).not.toContain("LDAP/SSO Login");
    const config = await client.get<{ client_config: { ldapLoginEnabled: boolean } }>(
      "/api/config",
    );
    expect(config.body.client_config.ldapLoginEnabled).toBe(false);
  });

  it("shows a clear message when the server cannot be reached", async () => {
    const client = new TestClient(down.url);
    const res = await ldapLogin(client, "ada", "pw");
    expect(res.status).toBe(200);
    expect(res.text).toContain("The LDAP server could not be reached.");
    expect(await signedIn(client)).toBeNull();
  });

  it("is rate-limited like /login: GET and POST share the hourly count", async () => {
    const client = new TestClient(down.url);
    // Two requests were made by the test before; six are allowed an hour.
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      statuses.push((await client.get("/ldap/login")).status);
      statuses.push(
        (await client.submitForm("/ldap/login", { username: "a", password: "b" })).status,
      );
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
  });
});

describe.skipIf(!LDAP)("LDAP test sign-in before LDAP login is switched on", () => {
  let server: TestServer;
  let admin: TestClient;

  beforeAll(async () => {
    const { SIGHTLINE_LDAP_LOGIN_ENABLED: _on, ...settings } = LDAP!.env;
    server = await startTestServer("sqlite", settings);
    admin = await setUpAndLogin(server.url);
  });
  afterAll(() => server?.close());

  it("lets an admin try the settings while the login is still off", async () => {
    expect((await new TestClient(server.url).get("/ldap/login")).status).toBe(404);
    expect((await admin.get<string>("/login")).status).toBe(302);
    const form = await admin.get<string>("/ldap/login?test=1");
    expect(form.status).toBe(200);
    expect(form.text).toContain("Test LDAP sign-in");
    expect(form.text).toContain('action="/ldap/login?test=1"');
    const res = await ldapLogin(admin, "ada", ada.password, "?test=1");
    expect(res.status).toBe(200);
    expect(res.text).toContain("Ada.Lovelace@example.com");
    expect(res.text).toContain("analysts");
    expect(await findUserByEmail(server.ctx.database.db, 1, "ada.lovelace@example.com")).toBeNull();
    expect((await signedIn(admin))?.email).toBe(ADMIN.email);
  });

  it("is not for a signed-in user who is not an admin", async () => {
    const org = await findOrgBySlug(server.ctx.database.db, "default");
    await addUser(server, org!, "reader@example.com");
    const reader = await signIn(server, "reader@example.com");
    const page = await reader.get<{ message: string }>("/ldap/login?test=1");
    expect(page.status).toBe(403);
    expect(page.body.message).toBe("Only an admin can test LDAP sign-in.");
    expect((await ldapLogin(reader, "ada", ada.password, "?test=1")).status).toBe(403);
  });

  it("says what is missing when LDAP is not configured at all", async () => {
    const bare = await startTestServer("sqlite");
    try {
      const bareAdmin = await setUpAndLogin(bare.url);
      const res = await bareAdmin.get<{ message: string }>("/ldap/login?test=1");
      expect(res.status).toBe(404);
      expect(res.body.message).toBe(
        "LDAP is not configured: set SIGHTLINE_LDAP_URL and SIGHTLINE_LDAP_SEARCH_DN.",
      );
    } finally {
      await bare.close();
    }
  });
});

describe.skipIf(!LDAP)("the LDAP refusal log", () => {
  it("names the user and the reason, never the password", async () => {
    const server = await startLoggedServer(LDAP!.env);
    const { url } = server;
    try {
      await setUpAndLogin(url);
      await ldapLogin(new TestClient(url), "ada", "Secret-Wrong-Pass");
      await ldapLogin(new TestClient(url), "grace", grace.password);
    } finally {
      await server.close();
    }
    const log = server.logSince();
    expect(log).toContain("LDAP login refused");
    expect(log).toContain('"username":"ada"');
    expect(log).toContain('"failure":"bad_credentials"');
    expect(log).toContain("signed in with LDAP");
    expect(log).not.toContain("Secret-Wrong-Pass");
    expect(log).not.toContain(grace.password);
    expect(log).not.toContain(LDAP!.env.SIGHTLINE_LDAP_BIND_DN_PASSWORD);
  });
});
