import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metadataDatabases } from "../testing/services";
import type { TestServer } from "../testing/testServer";
import { ADMIN, TestClient } from "../testing/httpClient";
import { startWithAdminAndMember } from "../testing/signedIn";
import { insertDataSourceRow, insertTestDashboard, insertTestQuery } from "../testing/storeRows";
import { insertAlert } from "../store/alerts";
import { findOrgBySlug, insertOrg, type Organization } from "../store/organizations";
import { insertGroup, insertUser, type User } from "../store/users";
import { adminGroupId, defaultGroupId } from "../services/organizationSetup";
import { PASSWORD_LOGIN_REQUIRED } from "./settings";

const DATABASES = await metadataDatabases();

describe.each(DATABASES)("organisation settings and status on %s", (dbKind) => {
  let server: TestServer;
  let org: Organization;
  let admin: TestClient;
  let member: TestClient;
  let adminUser: User;

  const storedOrg = async () => (await findOrgBySlug(server.ctx.database.db, "default"))!;

  beforeAll(async () => {
    ({ server, org, admin, adminUser, member } = await startWithAdminAndMember(dbKind));
  });
  afterAll(async () => {
    await server?.close();
  });

  describe("/api/settings/organization", () => {
    it("answers the defaults to admins only", async () => {
      expect((await member.get("/api/settings/organization")).status).toBe(403);
      expect((await new TestClient(server.url).get("/api/settings/organization")).status).toBe(404);
      const res = await admin.get("/api/settings/organization");
      expect(res.status).toBe(200);
      expect(res.body.settings).toMatchObject({
        thousands_separator: ",",
        decimal_separator: ".",
        auth_password_login_enabled: true,
        date_format: "YYYY-MM-DD",
        auth_google_apps_domains: [],
      });
      expect((await member.get("/api/session")).body.client_config).toMatchObject({
        dateFormat: "YYYY-MM-DD",
        dateTimeFormat: "YYYY-MM-DD HH:mm",
      });
      // Unset null values are left out.
      expect("beacon_consent" in res.body.settings).toBe(false);
    });

    it("stores and returns new values", async () => {
      const res = await admin.post("/api/settings/organization", {
        thousands_separator: " ",
        decimal_separator: ",",
        date_format: "YYYY-MM-DD",
        beacon_consent: false,
      });
      expect(res.status).toBe(200);
      expect(res.body.settings).toMatchObject({
        thousands_separator: " ",
        decimal_separator: ",",
        date_format: "YYYY-MM-DD",
        beacon_consent: false,
      });
      expect((await admin.get("/api/settings/organization")).body.settings).toMatchObject({
        thousands_separator: " ",
        decimal_separator: ",",
      });
      // The client config follows.
      const config = (await member.get("/api/session")).body.client_config;
      expect(config.thousandsSeparator).toBe(" ");
      expect(config.dateFormat).toBe("YYYY-MM-DD");
      const back = await admin.post("/api/settings/organization", {
        thousands_separator: ",",
        decimal_separator: ".",
      });
      expect(back.body.settings).toMatchObject({
        thousands_separator: ",",
        decimal_separator: ".",
      });
      // An organisation that chose another date format keeps it.
      await admin.post("/api/settings/organization", { date_format: "DD/MM/YY" });
      expect((await member.get("/api/session")).body.client_config.dateFormat).toBe("DD/MM/YY");
      expect((await admin.get("/api/settings/organization")).body.settings.date_format).toBe(
        "DD/MM/YY",
      );
    });

    it("stores the Google Apps domains beside the settings", async () => {
      const res = await admin.post("/api/settings/organization", {
        auth_google_apps_domains: ["example.com", "Example.org"],
      });
      expect(res.status).toBe(200);
      expect(res.body.settings.auth_google_apps_domains).toEqual(["example.com", "example.org"]);
      const stored = await storedOrg();
      expect(stored.settings.google_apps_domains).toEqual(["example.com", "example.org"]);
      expect(
        (stored.settings.settings as Record<string, unknown>).auth_google_apps_domains,
      ).toBeUndefined();
      await admin.post("/api/settings/organization", { auth_google_apps_domains: [] });
    });

    it("keeps password login on while it is the only way to sign in", async () => {
      const off = await admin.post("/api/settings/organization", {
        auth_password_login_enabled: false,
      });
      expect(off.status).toBe(400);
      expect(off.body.message).toBe(PASSWORD_LOGIN_REQUIRED);
      expect(
        (await admin.get("/api/settings/organization")).body.settings.auth_password_login_enabled,
      ).toBe(true);

      // With SAML on, password login may go; turning SAML off again is refused.
      const withSaml = await admin.post("/api/settings/organization", {
        auth_saml_enabled: true,
        auth_password_login_enabled: false,
      });
      expect(withSaml.status).toBe(200);
      expect(withSaml.body.settings.auth_password_login_enabled).toBe(false);
      const stored = (await storedOrg()).settings.settings as Record<string, unknown>;
      expect(stored.auth_password_login_enabled).toBe(false);
      const samlOff = await admin.post("/api/settings/organization", { auth_saml_enabled: false });
      expect(samlOff.status).toBe(400);
      expect(samlOff.body.message).toBe(PASSWORD_LOGIN_REQUIRED);

      const on = await admin.post("/api/settings/organization", {
        auth_password_login_enabled: true,
        auth_saml_enabled: false,
      });
      expect(on.status).toBe(200);
      expect(on.body.settings.auth_password_login_enabled).toBe(true);

      // Google domains without Google login, and JWT, are not sign-in methods of the rule (spec 2 §5).
      for (const other of [
        { auth_google_apps_domains: ["example.com"] },
        { auth_jwt_login_enabled: true },
      ]) {
        const res = await admin.post("/api/settings/organization", {
          ...other,
          auth_password_login_enabled: false,
        });
        expect(res.status).toBe(400);
        expect(res.body.message).toBe(PASSWORD_LOGIN_REQUIRED);
      }
      expect(
        (await admin.get("/api/settings/organization")).body.settings.auth_password_login_enabled,
      ).toBe(true);
    });

    it("refuses unknown keys, wrong types and non-admins, changing nothing", async () => {
      const before = JSON.stringify((await storedOrg()).settings);
      const cases: unknown[] = [
        { no_such_setting: 1 },
        { thousands_separator: 5 },
        { auth_password_login_enabled: "false" },
        { auth_jwt_auth_algorithms: "HS256" },
        { auth_google_apps_domains: "example.com" },
        { beacon_consent: "yes" },
        { date_format: "YYYY", bogus: true },
        ["date_format"],
      ];
      for (const body of cases) {
        const res = await admin.post("/api/settings/organization", body);
        expect(res.status).toBe(400);
      }
      expect((await admin.request("POST", "/api/settings/organization", { raw: "{" })).status).toBe(
        400,
      );
      expect((await member.post("/api/settings/organization", { date_format: "X" })).status).toBe(
        403,
      );
      const noCsrf = new TestClient(server.url);
      await noCsrf.login(ADMIN.email, ADMIN.password);
      noCsrf.sendCsrf = false;
      expect((await noCsrf.post("/api/settings/organization", { date_format: "X" })).status).toBe(
        400,
      );
      expect(JSON.stringify((await storedOrg()).settings)).toBe(before);
    });

    it("records the edits with old and new values", async () => {
      await admin.post("/api/settings/organization", { null_value: "-" });
      const rows = await server.ctx.database.db
        .selectFrom("events")
        .select(["action", "object_id", "user_id", "additional_properties"])
        .where("object_type", "=", "settings")
        .orderBy("id", "desc")
        .execute();
      expect(rows[0]).toMatchObject({
        action: "edit",
        object_id: String(org.id),
        user_id: adminUser.id,
      });
      expect(JSON.parse(rows[0]!.additional_properties)).toMatchObject({
        new_values: { null_value: "-" },
        previous_values: { null_value: "null" },
      });
    });
  });

  describe("/api/organization/status", () => {
    it("counts what the caller's groups reach", async () => {
      const db = server.ctx.database.db;
      const ts = new Date().toISOString();
      const defaultGroup = await defaultGroupId(db, org.id);
      const adminGroup = await adminGroupId(db, org.id);
      const addSource = (orgId: number, name: string, groupIds: number[]) =>
        insertDataSourceRow(db, orgId, { name, type: "pg", encryptedOptions: "x", groupIds });
      const addQuery = async (orgId: number, dataSourceId: number, archived = false) => {
        const query = await insertTestQuery(db, orgId, {
          dataSourceId,
          userId: adminUser.id,
          name: "q",
          text: "select 1",
          hash: "h",
          archived,
          draft: true,
        });
        return query.id;
      };
      const addDashboard = (orgId: number, archived: boolean) =>
        insertTestDashboard(db, orgId, { name: "d", userId: adminUser.id, archived });
      const addAlert = (orgId: number, queryId: number) =>
        insertAlert(db, {
          orgId,
          userId: adminUser.id,
          name: "a",
          queryId,
          options: {},
          rearm: null,
        });

      // Setup may have created objects already (a demo data source): count from there.
      const counters = async (client: TestClient) =>
        (await client.get("/api/organization/status")).body.object_counters as Record<
          string,
          number
        >;
      const adminBefore = await counters(admin);
      const memberBefore = await counters(member);
      const plus = (base: Record<string, number>, delta: Record<string, number>) =>
        Object.fromEntries(Object.entries(base).map(([k, v]) => [k, v + (delta[k] ?? 0)]));

      const shared = await addSource(org.id, "Shared", [defaultGroup, adminGroup]);
      const adminsOnly = await addSource(org.id, "Admins only", [adminGroup]);
      await addSource(org.id, "Nobody's", []);
      const q1 = await addQuery(org.id, shared);
      await addQuery(org.id, shared, true);
      const q3 = await addQuery(org.id, adminsOnly);
      await addAlert(org.id, q1);
      await addAlert(org.id, q3);
      await addDashboard(org.id, false);
      await addDashboard(org.id, true);
      const other = await insertOrg(db, "Other", "other");
      const otherGroup = await insertGroup(db, other.id, "default", "builtin", []);
      await insertUser(db, {
        orgId: other.id,
        name: "F",
        email: "f@example.com",
        passwordHash: null,
        groupIds: [otherGroup.id],
        invitationPending: false,
      });
      await addDashboard(other.id, false);
      const disabled = await insertUser(db, {
        orgId: org.id,
        name: "Gone",
        email: "gone@example.com",
        passwordHash: null,
        groupIds: [defaultGroup],
        invitationPending: false,
      });
      await db
        .updateTable("users")
        .set({ disabled_at: ts })
        .where("id", "=", disabled.id)
        .execute();

      const forAdmin = await admin.get("/api/organization/status");
      expect(forAdmin.status).toBe(200);
      expect(forAdmin.body.object_counters).toEqual(
        plus(adminBefore, { alerts: 2, data_sources: 2, queries: 2, dashboards: 1 }),
      );
      expect(await counters(member)).toEqual(
        plus(memberBefore, { alerts: 1, data_sources: 1, queries: 1, dashboards: 1 }),
      );
      // The other organisation's user and the disabled user are not counted.
      expect(adminBefore.users).toBe(2);
      expect((await new TestClient(server.url).get("/api/organization/status")).status).toBe(404);
    });
  });
});

describe.each(DATABASES)(
  "password login with a sign-in method from the environment on %s",
  (dbKind) => {
    // LDAP and OpenID Connect are on by their settings alone; nothing is contacted here.
    const methods: [string, Record<string, string>, string][] = [
      [
        "LDAP",
        {
          SIGHTLINE_LDAP_LOGIN_ENABLED: "true",
          SIGHTLINE_LDAP_URL: "ldap://127.0.0.1:1",
          SIGHTLINE_LDAP_SEARCH_DN: "dc=example,dc=org",
        },
        "ldapLoginEnabled",
      ],
      [
        "OpenID Connect",
        {
          SIGHTLINE_OIDC_ISSUER: "http://127.0.0.1:1/",
          SIGHTLINE_OIDC_CLIENT_ID: "sightline",
          SIGHTLINE_OIDC_CLIENT_SECRET: "not-a-real-secret",
        },
        "oidcLoginEnabled",
      ],
      [
        "Google",
        { SIGHTLINE_GOOGLE_CLIENT_ID: "sightline", SIGHTLINE_GOOGLE_CLIENT_SECRET: "not-a-secret" },
        "googleLoginEnabled",
      ],
    ];

    it.each(methods)("%s on lets password login go", async (_name, env, flag) => {
      const { server, admin } = await startWithAdminAndMember(dbKind, { env });
      try {
        const config = (await admin.get("/api/session")).body.client_config;
        expect(config[flag]).toBe(true);
        for (const [, , other] of methods) if (other !== flag) expect(config[other]).toBe(false);
        const off = await admin.post("/api/settings/organization", {
          auth_password_login_enabled: false,
        });
        expect(off.status).toBe(200);
        expect(off.body.settings.auth_password_login_enabled).toBe(false);
        expect(
          (await admin.get("/api/settings/organization")).body.settings.auth_password_login_enabled,
        ).toBe(false);
      } finally {
        await server.close();
      }
    });
  },
);
