import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metadataDatabases } from "../testing/services";
import { startTestServer, type TestServer } from "../testing/testServer";
import {
  ADMIN,
  RecordingClient,
  TestClient,
  setUpAndLogin,
  type Response,
} from "../testing/httpClient";
import { addUser, PASSWORD, signIn, startWithAdminAndMember } from "../testing/signedIn";
import { insertOrg, type Organization } from "../store/organizations";
import { findUserByEmail, findUserById, insertGroup, updateUser, type User } from "../store/users";
import { adminGroupId, defaultGroupId } from "../services/organizationSetup";

const DATABASES = await metadataDatabases();
const MAIL = { SIGHTLINE_MAIL_DEFAULT_SENDER: "sightline@example.com" };

/** A client for the users API tests: it records every answer for the check that no secret left. */
const loginAs = (server: TestServer, email: string, password = PASSWORD) =>
  signIn(server, email, password, RecordingClient);

describe.each(DATABASES)("users API on %s", (dbKind) => {
  let server: TestServer;
  let org: Organization;
  let admin: RecordingClient;
  let adminUser: User;
  let alice: User;
  let aliceClient: RecordingClient;
  let otherOrg: Organization;
  let foreigner: User;
  const clients: RecordingClient[] = [];

  beforeAll(async () => {
    ({
      server,
      org,
      admin,
      adminUser,
      memberUser: alice,
      member: aliceClient,
    } = await startWithAdminAndMember(
      dbKind,
      { env: MAIL, member: { name: "alice", email: "alice@example.com" } },
      RecordingClient,
    ));
    const db = server.ctx.database.db;
    clients.push(admin, aliceClient);
    otherOrg = await insertOrg(db, "Other", "other");
    await insertGroup(db, otherOrg.id, "default", "builtin", ["list_users"]);
    foreigner = await addUser(server, otherOrg, "foreigner@example.com");
  });
  afterAll(async () => {
    await server?.close();
  });

  describe("POST /api/users", () => {
    it("is for admins only", async () => {
      const res = await aliceClient.post("/api/users", { name: "X", email: "x@example.com" });
      expect(res.status).toBe(403);
      expect(await findUserByEmail(server.ctx.database.db, org.id, "x@example.com")).toBeNull();
    });

    it("refuses missing fields, bad and blocked addresses, and wrong types", async () => {
      const bad = async (body: unknown, message?: string) => {
        const res = await admin.post("/api/users", body);
        expect(res.status).toBe(400);
        if (message) expect(res.body.message).toBe(message);
      };
      await bad(undefined);
      await bad({ name: "Only Name" });
      await bad({ email: "only@example.com" });
      await bad({ name: "N", email: "no-at-sign" }, "Bad email address.");
      await bad({ name: "N", email: "n@mailinator.com" }, "Bad email address.");
      await bad({ name: "N", email: "n@MAILINATOR.com." }, "Bad email address.");
      await bad({ name: "N", email: "n@qq.com" }, "Bad email address.");
      await bad({ name: 42, email: "n@example.com" });
      await bad({ name: "N", email: ["n@example.com"] });
      await bad([{ name: "N", email: "n@example.com" }]);
      const malformed = await admin.request("POST", "/api/users", { raw: '{"name": ' });
      expect(malformed.status).toBe(400);
      expect(malformed.body.message).toContain("not valid JSON");
    });

    it("creates a pending user in the default group, emailing the invitation", async () => {
      const db = server.ctx.database.db;
      const before = server.ctx.mailer.sent.length;
      const res = await admin.post("/api/users", { name: "Bob", email: "Bob@Example.com" });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        name: "Bob",
        email: "bob@example.com",
        is_invitation_pending: true,
        auth_type: "external",
        groups: [await defaultGroupId(db, org.id)],
      });
      expect(res.body.invite_link).toBeUndefined();
      expect(res.body.api_key).toBeUndefined();
      const mail = server.ctx.mailer.sent.slice(before);
      expect(mail).toHaveLength(1);
      expect(mail[0]!.to).toBe("bob@example.com");
      expect(mail[0]!.text).toContain(`${server.url}/invite/`);
      const stored = (await findUserByEmail(db, org.id, "bob@example.com"))!;
      expect(stored.password_hash).toBeNull();
    });

    it("returns the invite link instead with no_invite", async () => {
      const before = server.ctx.mailer.sent.length;
      const res = await admin.post("/api/users?no_invite", {
        name: "Nia",
        email: "nia@example.com",
      });
      expect(res.status).toBe(200);
      expect(res.body.invite_link).toMatch(new RegExp(`^${server.url}/invite/`));
      expect(server.ctx.mailer.sent.length).toBe(before);
      // The link works: the invitation page opens.
      const page = await new TestClient(server.url).get(
        res.body.invite_link.replace(server.url, ""),
      );
      expect(page.status).toBe(200);
    });

    it("refuses an address already taken, whatever its case", async () => {
      const res = await admin.post("/api/users", { name: "Bob 2", email: "BOB@example.COM" });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe("Email already taken.");
    });
  });

  describe("GET /api/users", () => {
    let disabledPending: User;
    let disabledActive: User;

    beforeAll(async () => {
      const db = server.ctx.database.db;
      disabledPending = await addUser(server, org, "dp@example.com", { pending: true });
      disabledActive = await addUser(server, org, "da@example.com");
      for (const u of [disabledPending, disabledActive]) {
        await updateUser(db, u.id, { disabled_at: new Date().toISOString() });
      }
    });

    const emails = (res: Response<any>) =>
      (res.body.results as { email: string }[]).map((u) => u.email);

    it("lists enabled users of this organisation only, newest first, with group names", async () => {
      const res = await aliceClient.get("/api/users");
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ page: 1, page_size: 25 });
      const list = emails(res);
      expect(list).toEqual([
        "nia@example.com",
        "bob@example.com",
        "alice@example.com",
        ADMIN.email,
      ]);
      expect(res.body.count).toBe(4);
      expect(list).not.toContain(foreigner.email);
      const adminRow = res.body.results.find((u: { email: string }) => u.email === ADMIN.email);
      expect(adminRow.groups.map((g: { name: string }) => g.name).sort()).toEqual([
        "admin",
        "default",
      ]);
      expect(res.text).not.toContain("api_key");
    });

    it("filters by disabled and pending", async () => {
      expect(emails(await admin.get("/api/users?disabled=true")).sort()).toEqual([
        "da@example.com",
        "dp@example.com",
      ]);
      expect(emails(await admin.get("/api/users?pending=true")).sort()).toEqual([
        "bob@example.com",
        "nia@example.com",
      ]);
      expect(emails(await admin.get("/api/users?pending=false")).sort()).toEqual([
        "admin@example.com",
        "alice@example.com",
      ]);
      expect(emails(await admin.get("/api/users?disabled=yes&pending=on"))).toEqual([
        "dp@example.com",
      ]);
      expect(emails(await admin.get("/api/users?disabled=1&pending=no"))).toEqual([
        "da@example.com",
      ]);
    });

    it("searches names and emails case-insensitively and orders on request", async () => {
      expect(emails(await admin.get("/api/users?q=ALI"))).toEqual(["alice@example.com"]);
      expect(emails(await admin.get("/api/users?q=example.com&order=name"))).toEqual([
        "admin@example.com",
        "alice@example.com",
        "bob@example.com",
        "nia@example.com",
      ]);
      expect(emails(await admin.get("/api/users?q=%25"))).toEqual([]);
      expect(emails(await admin.get("/api/users?order=-name"))[0]).toBe("nia@example.com");
      // Nobody has logged in as bob or nia: their empty active_at sorts last both ways.
      for (const order of ["active_at", "-active_at"]) {
        expect(
          emails(await admin.get(`/api/users?order=${order}`))
            .slice(2)
            .sort(),
        ).toEqual(["bob@example.com", "nia@example.com"]);
      }
      expect(emails(await admin.get("/api/users?order=groups"))[0]).toBe(ADMIN.email);
    });

    it("pages and checks the paging parameters", async () => {
      const page2 = await admin.get("/api/users?page=2&page_size=3");
      expect(page2.body).toMatchObject({ count: 4, page: 2, page_size: 3 });
      expect(emails(page2)).toEqual([ADMIN.email]);
      expect((await admin.get("/api/users?page=0")).body.message).toBe(
        "Page must be positive integer.",
      );
      expect((await admin.get("/api/users?page=3&page_size=3")).body.message).toBe(
        "Page is out of range.",
      );
      expect((await admin.get("/api/users?page_size=251")).body.message).toBe(
        "Page size is out of range (1-250).",
      );
      expect((await admin.get("/api/users?page=abc")).body.page).toBe(1);
      const badBool = await admin.get("/api/users?disabled=maybe");
      expect(badBool.status).toBe(400);
      expect(badBool.body.message).toContain("disabled");
    });

    it("needs the list_users permission", async () => {
      const db = server.ctx.database.db;
      const lonely = await addUser(server, org, "lonely@example.com");
      const { setUserGroups } = await import("../store/users");
      await setUserGroups(db, lonely.id, []);
      const client = await loginAs(server, lonely.email);
      clients.push(client);
      expect((await client.get("/api/users")).status).toBe(403);
      // Everyone may still read themself.
      expect((await client.get(`/api/users/${lonely.id}`)).status).toBe(200);
      expect((await client.get(`/api/users/${alice.id}`)).status).toBe(403);
      expect((await new TestClient(server.url).get("/api/users")).status).toBe(404);
    });
  });

  describe("GET /api/users/<id>", () => {
    it("shows the API key to the user themself only, not even to admins", async () => {
      const own = await aliceClient.get(`/api/users/${alice.id}`);
      expect(own.status).toBe(200);
      expect(own.body.api_key).toBe(alice.api_key);
      const byAdmin = await admin.get(`/api/users/${alice.id}`);
      expect(byAdmin.status).toBe(200);
      expect(byAdmin.body.email).toBe(alice.email);
      expect(byAdmin.body.api_key).toBeUndefined();
      expect(byAdmin.text).not.toContain(alice.api_key);
      const other = await aliceClient.get(`/api/users/${adminUser.id}`);
      expect(other.status).toBe(200);
      expect(other.body.email).toBe(ADMIN.email);
      expect(other.body.api_key).toBeUndefined();
      expect(other.text).not.toContain(adminUser.api_key);
    });

    it("answers 404 for other organisations' users, unknown and non-numeric ids", async () => {
      for (const id of [String(foreigner.id), "999999", "abc", "-1", "1.5", "1e3"]) {
        const res = await admin.get(`/api/users/${id}`);
        expect(res.status).toBe(404);
        expect(res.text).not.toContain(foreigner.email);
      }
    });
  });

  describe("POST /api/users/<id>", () => {
    it("lets users edit themselves, not others", async () => {
      const other = await aliceClient.post(`/api/users/${adminUser.id}`, { name: "Hacked" });
      expect(other.status).toBe(403);
      expect(other.body.message).toBe("You don't have permission to edit this resource.");
      expect((await findUserById(server.ctx.database.db, org.id, adminUser.id))!.name).toBe(
        ADMIN.name,
      );
      const own = await aliceClient.post(`/api/users/${alice.id}`, { name: "Alice Liddell" });
      expect(own.status).toBe(200);
      expect(own.body.name).toBe("Alice Liddell");
      expect(own.body.api_key).toBe(alice.api_key);
      expect((await aliceClient.get("/api/session")).status).toBe(200);
    });

    it("lets admins edit other users", async () => {
      const res = await admin.post(`/api/users/${alice.id}`, { name: "Alice L." });
      expect(res.status).toBe(200);
      expect(res.body.name).toBe("Alice L.");
      expect(res.body.api_key).toBeUndefined();
      expect(res.text).not.toContain(alice.api_key);
    });

    it("asks for the current password to set a new one", async () => {
      const url = `/api/users/${alice.id}`;
      const missing = await aliceClient.post(url, { password: "new password" });
      expect(missing.status).toBe(403);
      expect(missing.body.message).toBe("Must provide current password to update password.");
      const adminToo = await admin.post(url, { password: "new password" });
      expect(adminToo.status).toBe(403);
      const wrong = await aliceClient.post(url, {
        password: "new password",
        old_password: "not it",
      });
      expect(wrong.status).toBe(403);
      expect(wrong.body.message).toBe("Incorrect current password.");
      expect((await new TestClient(server.url).login(alice.email, PASSWORD)).status).toBe(302);

      const elsewhere = await loginAs(server, alice.email);
      const ok = await aliceClient.post(url, { password: "new password", old_password: PASSWORD });
      expect(ok.status).toBe(200);
      expect(ok.body.auth_type).toBe("password");
      // The new password works, the old one not; this session lives on, the other one ended.
      expect((await new TestClient(server.url).login(alice.email, PASSWORD)).status).toBe(200);
      aliceClient = await loginAs(server, alice.email, "new password");
      expect((await elsewhere.get("/api/session")).status).toBe(404);
    });

    it("changes the email: other sessions end, this one continues", async () => {
      const url = `/api/users/${alice.id}`;
      const elsewhere = await loginAs(server, alice.email, "new password");
      const before = server.ctx.mailer.sent.length;
      const res = await aliceClient.post(url, { email: "Alice.New@Example.com" });
      expect(res.status).toBe(200);
      expect(res.body.email).toBe("alice.new@example.com");
      // Mail is configured here, so the address must be verified again.
      expect(res.body.is_email_verified).toBe(false);
      expect(server.ctx.mailer.sent.slice(before).map((m) => m.to)).toEqual([
        "alice.new@example.com",
      ]);
      const session = await aliceClient.get("/api/session");
      expect(session.status).toBe(200);
      expect(session.body.user.email).toBe("alice.new@example.com");
      expect(session.body.messages).toContain("email-not-verified");
      expect((await elsewhere.get("/api/session")).status).toBe(404);
      alice = (await findUserById(server.ctx.database.db, org.id, alice.id))!;
    });

    it("refuses bad, blocked and taken addresses", async () => {
      const url = `/api/users/${alice.id}`;
      for (const email of ["nope", "a@mailinator.com", "a@yopmail.com", "a@qq.com"]) {
        const res = await aliceClient.post(url, { email });
        expect(res.status).toBe(400);
        expect(res.body.message).toBe("Bad email address.");
      }
      const taken = await aliceClient.post(url, { email: "BOB@example.com" });
      expect(taken.status).toBe(400);
      expect(taken.body.message).toBe("Email already taken.");
      expect((await findUserById(server.ctx.database.db, org.id, alice.id))!.email).toBe(
        "alice.new@example.com",
      );
    });

    it("lets only admins change groups, and only to groups of this organisation", async () => {
      const db = server.ctx.database.db;
      const url = `/api/users/${alice.id}`;
      const adminGroup = await adminGroupId(db, org.id);
      const defaultGroup = await defaultGroupId(db, org.id);
      const self = await aliceClient.post(url, { group_ids: [adminGroup] });
      expect(self.status).toBe(403);
      expect(self.body.message).toBe("Must be admin to change groups membership.");
      const foreignGroup = (await insertGroup(db, otherOrg.id, "theirs", "regular", [])).id;
      const invalid = await admin.post(url, { group_ids: [defaultGroup, foreignGroup] });
      expect(invalid.status).toBe(400);
      expect(invalid.body.message).toBe(`Group id ${foreignGroup} is invalid.`);
      const wrongType = await admin.post(url, { group_ids: "1,2" });
      expect(wrongType.status).toBe(400);
      const ok = await admin.post(url, { group_ids: [adminGroup, defaultGroup] });
      expect(ok.status).toBe(200);
      expect([...ok.body.groups].sort()).toEqual([adminGroup, defaultGroup].sort());
      // An empty list leaves the membership as it is.
      expect((await admin.post(url, { group_ids: [] })).body.groups).toHaveLength(2);
      await admin.post(url, { group_ids: [defaultGroup] });
    });

    it("answers 404 for unknown ids and 400 for wrong types", async () => {
      expect((await admin.post(`/api/users/999999`, { name: "x" })).status).toBe(404);
      expect((await admin.post(`/api/users/${foreigner.id}`, { name: "x" })).status).toBe(404);
      expect((await admin.post(`/api/users/abc`, { name: "x" })).status).toBe(404);
      expect((await admin.post(`/api/users/${alice.id}`, { name: 5 })).status).toBe(400);
      expect((await admin.post(`/api/users/${alice.id}`, { name: "  " })).status).toBe(400);
      expect((await admin.post(`/api/users/${alice.id}`, "just a string")).status).toBe(400);
      const malformed = await admin.request("POST", `/api/users/${alice.id}`, { raw: "{" });
      expect(malformed.status).toBe(400);
    });

    it("refuses state changes without the CSRF token", async () => {
      const client = await loginAs(server, alice.email, "new password");
      client.sendCsrf = false;
      const res = await client.post(`/api/users/${alice.id}`, { name: "No CSRF" });
      expect(res.status).toBe(400);
      expect(res.body.message).toContain("CSRF");
      expect((await findUserById(server.ctx.database.db, org.id, alice.id))!.name).not.toBe(
        "No CSRF",
      );
    });

    it("accepts the user's API key without CSRF and without starting a session", async () => {
      const client = new RecordingClient(server.url);
      client.apiKey = alice.api_key;
      const res = await client.post(`/api/users/${alice.id}`, { name: "Alice K." });
      expect(res.status).toBe(200);
      expect(client.cookies.has("remember_token")).toBe(false);
    });
  });

  describe("DELETE /api/users/<id>", () => {
    it("deletes pending users only, never oneself", async () => {
      const db = server.ctx.database.db;
      const bob = (await findUserByEmail(db, org.id, "bob@example.com"))!;
      expect((await aliceClient.delete(`/api/users/${bob.id}`)).status).toBe(403);
      const active = await admin.delete(`/api/users/${alice.id}`);
      expect(active.status).toBe(403);
      expect(active.body.message).toBe(
        "You cannot delete activated users. Please disable the user instead.",
      );
      const self = await admin.delete(`/api/users/${adminUser.id}`);
      expect(self.status).toBe(403);
      expect(self.body.message).toBe(
        "You cannot delete your own account. Please ask another admin to do this for you.",
      );
      expect((await admin.delete(`/api/users/${foreigner.id}`)).status).toBe(404);
      const ok = await admin.delete(`/api/users/${bob.id}`);
      expect(ok.status).toBe(200);
      expect(ok.body.email).toBe("bob@example.com");
      expect(await findUserById(db, org.id, bob.id)).toBeNull();
      expect((await admin.get(`/api/users/${bob.id}`)).status).toBe(404);
    });
  });

  describe("disable and enable", () => {
    it("is for admins only, never oneself", async () => {
      const db = server.ctx.database.db;
      const denied = await aliceClient.post(`/api/users/${adminUser.id}/disable`);
      expect(denied.status).toBe(403);
      expect((await findUserById(db, org.id, adminUser.id))!.disabled_at).toBeNull();
      const self = await admin.post(`/api/users/${adminUser.id}/disable`);
      expect(self.status).toBe(403);
      expect(self.body.message).toBe(
        "You cannot disable your own account. Please ask another admin to do this for you.",
      );
      expect((await admin.post(`/api/users/${foreigner.id}/disable`)).status).toBe(404);
    });

    it("ends the user's sessions and API key at once; enabling restores the account", async () => {
      const carol = await addUser(server, org, "carol@example.com");
      const carolClient = await loginAs(server, carol.email);
      clients.push(carolClient);
      const keyClient = new TestClient(server.url);
      keyClient.apiKey = carol.api_key;
      expect((await keyClient.get("/api/session")).status).toBe(200);

      const res = await admin.post(`/api/users/${carol.id}/disable`);
      expect(res.status).toBe(200);
      expect(res.body.is_disabled).toBe(true);
      expect(res.body.disabled_at).not.toBeNull();
      expect(res.text).not.toContain(carol.api_key);
      expect((await carolClient.get("/api/session")).status).toBe(404);
      expect((await keyClient.get("/api/session")).status).toBe(404);
      const login = await new TestClient(server.url).login(carol.email, PASSWORD);
      expect(login.status).toBe(200);
      expect(login.text).toContain("Wrong email or password");

      const enabled = await admin.delete(`/api/users/${carol.id}/disable`);
      expect(enabled.status).toBe(200);
      expect(enabled.body.is_disabled).toBe(false);
      expect(enabled.text).not.toContain(carol.api_key);
      expect((await keyClient.get("/api/session")).status).toBe(200);
      expect((await loginAs(server, carol.email).then((c) => c.get("/api/session"))).status).toBe(
        200,
      );
    });

    it("lets an admin disable and re-enable another admin", async () => {
      const dave = await addUser(server, org, "dave@example.com", { admin: true });
      expect((await admin.post(`/api/users/${dave.id}/disable`)).body.is_disabled).toBe(true);
      expect((await admin.delete(`/api/users/${dave.id}/disable`)).body.is_disabled).toBe(false);
    });
  });

  describe("invite, reset password, API key", () => {
    it("re-sends invitations (admins only)", async () => {
      const nia = (await findUserByEmail(server.ctx.database.db, org.id, "nia@example.com"))!;
      expect((await aliceClient.post(`/api/users/${nia.id}/invite`)).status).toBe(403);
      const before = server.ctx.mailer.sent.length;
      const res = await admin.post(`/api/users/${nia.id}/invite`);
      expect(res.status).toBe(200);
      expect(res.body.email).toBe("nia@example.com");
      expect(res.body.invite_link).toBeUndefined();
      expect(server.ctx.mailer.sent.slice(before).map((m) => m.to)).toEqual(["nia@example.com"]);
      expect((await admin.post(`/api/users/999999/invite`)).status).toBe(404);
    });

    it("sends reset links for enabled users only", async () => {
      const db = server.ctx.database.db;
      const erin = await addUser(server, org, "erin@example.com");
      expect((await aliceClient.post(`/api/users/${erin.id}/reset_password`)).status).toBe(403);
      let before = server.ctx.mailer.sent.length;
      const res = await admin.post(`/api/users/${erin.id}/reset_password`);
      expect(res.status).toBe(200);
      expect(res.body.reset_link).toMatch(new RegExp(`^${server.url}/reset/`));
      expect(server.ctx.mailer.sent.slice(before).map((m) => m.to)).toEqual(["erin@example.com"]);

      await updateUser(db, erin.id, { disabled_at: new Date().toISOString() });
      before = server.ctx.mailer.sent.length;
      const disabled = await admin.post(`/api/users/${erin.id}/reset_password`);
      expect(disabled.status).toBe(404);
      expect(server.ctx.mailer.sent.length).toBe(before);
    });

    it("regenerates API keys for oneself or, as admin, for others", async () => {
      const db = server.ctx.database.db;
      const before = (await findUserById(db, org.id, adminUser.id))!.api_key;
      const denied = await aliceClient.post(`/api/users/${adminUser.id}/regenerate_api_key`);
      expect(denied.status).toBe(403);
      expect((await findUserById(db, org.id, adminUser.id))!.api_key).toBe(before);

      const own = await aliceClient.post(`/api/users/${alice.id}/regenerate_api_key`);
      expect(own.status).toBe(200);
      expect(own.body.api_key).toMatch(/^[A-Za-z0-9]{40}$/);
      expect(own.body.api_key).not.toBe(alice.api_key);

      // An admin can revoke someone's key but never sees the new one.
      const byAdmin = await admin.post(`/api/users/${alice.id}/regenerate_api_key`);
      expect(byAdmin.status).toBe(200);
      expect(byAdmin.body.api_key).toBeUndefined();
      const replaced = (await findUserById(db, org.id, alice.id))!.api_key;
      expect(replaced).not.toBe(own.body.api_key);
      expect(byAdmin.text).not.toContain(replaced);
      const self = await admin.post(`/api/users/${adminUser.id}/regenerate_api_key`);
      expect(self.status).toBe(200);
      expect(self.body.api_key).not.toBe(before);
      adminUser = (await findUserById(db, org.id, adminUser.id))!;
      alice = (await findUserById(db, org.id, alice.id))!;
    });
  });

  it("records the users' events", async () => {
    const rows = await server.ctx.database.db
      .selectFrom("events")
      .select(["action", "object_type", "object_id", "additional_properties"])
      .where("org_id", "=", org.id)
      .where("object_type", "=", "user")
      .execute();
    const actions = new Set(rows.map((r) => r.action));
    for (const action of ["list", "search", "create", "view", "edit", "regnerate_api_key"]) {
      expect(actions).toContain(action);
    }
    const edit = rows.find(
      (r) => r.action === "edit" && r.additional_properties.includes("password"),
    );
    expect(JSON.parse(edit!.additional_properties).updated_fields).toEqual([
      "password",
      "old_password",
    ]);
    expect(rows.map((r) => r.additional_properties).join()).not.toContain("new password");
  });

  it("never sends password hashes, session tokens or other users' API keys", async () => {
    const db = server.ctx.database.db;
    const users = await db.selectFrom("users").selectAll().execute();
    for (const client of clients) {
      const text = client.bodies.join("\n");
      expect(text).not.toContain("password_hash");
      expect(text).not.toContain("session_token");
      for (const u of users) {
        if (u.password_hash) expect(text).not.toContain(u.password_hash);
        expect(text).not.toContain(u.session_token);
      }
    }
    const aliceText = aliceClient.bodies.join("\n");
    for (const u of users) if (u.id !== alice.id) expect(aliceText).not.toContain(u.api_key);
  });

  it("limits user creation to 50 an hour", async () => {
    let limited: Response<any> | null = null;
    for (let i = 0; i < 60 && !limited; i++) {
      const res = await aliceClient.post("/api/users", {
        name: "Spam",
        email: `s${i}@example.com`,
      });
      if (res.status === 429) limited = res;
    }
    expect(limited?.status).toBe(429);
    expect(limited?.body.message).toContain("Rate limit");
  });
});

describe.each(DATABASES)("inviting without mail on %s", (dbKind) => {
  let server: TestServer;
  let admin: TestClient;
  beforeAll(async () => {
    server = await startTestServer(dbKind);
    admin = await setUpAndLogin(server.url);
  });
  afterAll(async () => {
    await server?.close();
  });

  it("answers the invite link, and email changes keep the address verified", async () => {
    const res = await admin.post("/api/users", { name: "Fay", email: "fay@example.com" });
    expect(res.status).toBe(200);
    expect(res.body.invite_link).toMatch(new RegExp(`^${server.url}/invite/`));
    const again = await admin.post(`/api/users/${res.body.id}/invite`);
    expect(again.body.invite_link).toMatch(new RegExp(`^${server.url}/invite/`));
    const edited = await admin.post(`/api/users/${res.body.id}`, { email: "fay2@example.com" });
    expect(edited.status).toBe(200);
    expect(edited.body.is_email_verified).toBe(true);
  });
});
