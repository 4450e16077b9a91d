import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metadataDatabases } from "../testing/services";
import { startLoggedServer, startTestServer, type TestServer } from "../testing/testServer";
import { TestClient, ownApiKey, setUpAndLogin } from "../testing/httpClient";
import { findOrgBySlug } from "../store/organizations";
import { insertUser, type User } from "../store/users";
import { defaultGroupId } from "../services/organizationSetup";
import { hashPassword } from "../auth/passwords";

// SIGHTLINE_SHOW_API_KEYS_TO_ADMINS: off by default (only users see their own key); while on,
// admins read other users' keys as in Redash, which redash-migrate needs to keep query owners.

const DATABASES = await metadataDatabases();
const SETTING = "SIGHTLINE_SHOW_API_KEYS_TO_ADMINS";
const PASSWORD = "secret password";

interface Setup {
  server: TestServer;
  admin: TestClient;
  alice: User;
  aliceClient: TestClient;
}

async function setUp(dbKind: "sqlite" | "postgres", env: Record<string, string>): Promise<Setup> {
  const server = await startTestServer(dbKind, env);
  const admin = await setUpAndLogin(server.url);
  const db = server.ctx.database.db;
  const org = (await findOrgBySlug(db, "default"))!;
  const alice = await insertUser(db, {
    orgId: org.id,
    name: "alice",
    email: "alice@example.com",
    passwordHash: await hashPassword(PASSWORD),
    groupIds: [await defaultGroupId(db, org.id)],
    invitationPending: false,
  });
  const aliceClient = new TestClient(server.url);
  if ((await aliceClient.login(alice.email, PASSWORD)).status !== 302) throw new Error("login");
  return { server, admin, alice, aliceClient };
}

describe.each(DATABASES)("other users' API keys for admins on %s", (dbKind) => {
  describe("by default", () => {
    let s: Setup;
    beforeAll(async () => {
      s = await setUp(dbKind, {});
    });
    afterAll(async () => {
      await s?.server.close();
    });

    it("are hidden from admins, also when reading with an API key", async () => {
      const byAdmin = await s.admin.get(`/api/users/${s.alice.id}`);
      expect(byAdmin.status).toBe(200);
      expect(byAdmin.text).not.toContain(s.alice.api_key);
      const adminKey = await ownApiKey(s.admin);
      const script = new TestClient(s.server.url);
      script.apiKey = adminKey;
      const byScript = await script.get(`/api/users/${s.alice.id}`);
      expect(byScript.status).toBe(200);
      expect(byScript.text).not.toContain(s.alice.api_key);
    });
  });

  describe(`with ${SETTING}=true`, () => {
    let s: Setup;
    beforeAll(async () => {
      s = await setUp(dbKind, { [SETTING]: "true" });
    });
    afterAll(async () => {
      await s?.server.close();
    });

    it("are shown to admins as in Redash, by session and by API key", async () => {
      const byAdmin = await s.admin.get(`/api/users/${s.alice.id}`);
      expect(byAdmin.status).toBe(200);
      expect(byAdmin.body.api_key).toBe(s.alice.api_key);
      // redash-migrate reads them with the admin's API key, then acts with the owner's.
      const adminKey = await ownApiKey(s.admin);
      const script = new TestClient(s.server.url);
      script.apiKey = adminKey;
      const byScript = await script.get(`/api/users/${s.alice.id}`);
      expect(byScript.body.api_key).toBe(s.alice.api_key);
      const asAlice = new TestClient(s.server.url);
      asAlice.apiKey = byScript.body.api_key;
      expect((await asAlice.get("/api/session")).body.user.id).toBe(s.alice.id);
    });

    it("are still hidden from other users, and from lists", async () => {
      const adminId = (await s.admin.get("/api/session")).body.user.id as number;
      const adminKey = await ownApiKey(s.admin);
      const byAlice = await s.aliceClient.get(`/api/users/${adminId}`);
      expect(byAlice.status).toBe(200);
      expect(byAlice.body.api_key).toBeUndefined();
      expect(byAlice.text).not.toContain(adminKey);
      const list = await s.admin.get("/api/users");
      expect(list.status).toBe(200);
      expect(list.text).not.toContain(s.alice.api_key);
    });
  });
});

describe("the start-up log", () => {
  async function startupLog(env: Record<string, string>): Promise<string> {
    const server = await startLoggedServer(env);
    await server.close();
    return server.logSince();
  }

  it("warns while the setting is on, and only then", async () => {
    const on = await startupLog({ [SETTING]: "true" });
    expect(on).toContain(`"level":40`);
    expect(on).toContain(`${SETTING} is on`);
    expect(await startupLog({})).not.toContain(SETTING);
  });
});
