import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metadataDatabases } from "../testing/services";
import type { TestServer } from "../testing/testServer";
import { ADMIN, RecordingClient, TestClient } from "../testing/httpClient";
import { startWithAdminAndMember } from "../testing/signedIn";
import { insertDataSourceRow } from "../testing/storeRows";
import { insertOrg, type Organization } from "../store/organizations";
import { findUserById, insertGroup, insertUser, type Group, type User } from "../store/users";
import { findGroup } from "../store/groups";
import { adminGroupId, defaultGroupId } from "../services/organizationSetup";

const DATABASES = await metadataDatabases();
const SECRET_OPTIONS = "encrypted-options-that-never-leave";

describe.each(DATABASES)("groups API on %s", (dbKind) => {
  let server: TestServer;
  let org: Organization;
  let admin: RecordingClient;
  let member: RecordingClient;
  let memberUser: User;
  let adminGroup: number;
  let defaultGroup: number;
  let otherOrg: Organization;
  let foreignGroup: Group;
  let foreignUser: User;
  let dataSourceId: number;
  let foreignDataSourceId: number;

  /** A data source in no group yet, with options that must never appear in an answer. */
  const addDataSource = (orgId: number, name: string, type: string) =>
    insertDataSourceRow(server.ctx.database.db, orgId, {
      name,
      type,
      encryptedOptions: SECRET_OPTIONS,
      groupIds: [],
    });

  beforeAll(async () => {
    ({ server, org, admin, member, memberUser } = await startWithAdminAndMember(
      dbKind,
      {},
      RecordingClient,
    ));
    const db = server.ctx.database.db;
    adminGroup = await adminGroupId(db, org.id);
    defaultGroup = await defaultGroupId(db, org.id);
    otherOrg = await insertOrg(db, "Other", "other");
    foreignGroup = await insertGroup(db, otherOrg.id, "theirs", "regular", []);
    foreignUser = await insertUser(db, {
      orgId: otherOrg.id,
      name: "Foreign",
      email: "foreign@example.com",
      passwordHash: null,
      groupIds: [foreignGroup.id],
      invitationPending: false,
    });
    dataSourceId = await addDataSource(org.id, "Warehouse", "pg");
    foreignDataSourceId = await addDataSource(otherOrg.id, "Theirs", "mysql");
  });
  afterAll(async () => {
    await server?.close();
  });

  it("lists all groups of the organisation for admins, and one's own groups for others", async () => {
    const all = await admin.get("/api/groups");
    expect(all.status).toBe(200);
    expect(all.body.map((g: Group) => g.name)).toEqual(["admin", "default"]);
    expect(all.body[0]).toEqual({
      id: adminGroup,
      name: "admin",
      type: "builtin",
      permissions: ["admin", "super_admin"],
      created_at: expect.any(String),
    });
    const own = await member.get("/api/groups");
    expect(own.status).toBe(200);
    expect(own.body).toEqual([
      {
        id: defaultGroup,
        name: "default",
        type: "builtin",
        permissions: expect.arrayContaining(["create_query", "list_users"]),
        created_at: expect.any(String),
      },
    ]);
    expect((await new TestClient(server.url).get("/api/groups")).status).toBe(404);
  });

  it("shows a group to its members and admins only", async () => {
    expect((await member.get(`/api/groups/${defaultGroup}`)).status).toBe(200);
    expect((await member.get(`/api/groups/${adminGroup}`)).status).toBe(403);
    expect((await admin.get(`/api/groups/${adminGroup}`)).body.name).toBe("admin");
    expect((await admin.get(`/api/groups/${foreignGroup.id}`)).status).toBe(404);
    expect((await admin.get(`/api/groups/999999`)).status).toBe(404);
    expect((await admin.get(`/api/groups/abc`)).status).toBe(404);
  });

  it("creates regular groups with the default permissions (admins only)", async () => {
    expect((await member.post("/api/groups", { name: "Nope" })).status).toBe(403);
    const res = await admin.post("/api/groups", { name: "Analysts" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: "Analysts", type: "regular" });
    expect(res.body.permissions).toContain("create_query");
    expect(res.body.permissions).not.toContain("admin");
    for (const body of [{}, { name: "" }, { name: 12 }, { name: "x".repeat(101) }, [1]]) {
      expect((await admin.post("/api/groups", body)).status).toBe(400);
    }
    expect((await admin.request("POST", "/api/groups", { raw: "{name" })).status).toBe(400);
  });

  it("renames regular groups only", async () => {
    const db = server.ctx.database.db;
    const created = (await admin.post("/api/groups", { name: "Temp" })).body;
    expect((await member.post(`/api/groups/${created.id}`, { name: "Mine" })).status).toBe(403);
    const renamed = await admin.post(`/api/groups/${created.id}`, { name: "Renamed" });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe("Renamed");
    expect((await findGroup(db, org.id, created.id))!.name).toBe("Renamed");
    const builtin = await admin.post(`/api/groups/${defaultGroup}`, { name: "everyone" });
    expect(builtin.status).toBe(400);
    expect(builtin.body.message).toBe("Can't modify built-in groups.");
    expect((await findGroup(db, org.id, defaultGroup))!.name).toBe("default");
    expect((await admin.post(`/api/groups/${foreignGroup.id}`, { name: "x" })).status).toBe(404);
    expect((await admin.post(`/api/groups/${created.id}`, { name: null })).status).toBe(400);
  });

  it("manages members", async () => {
    const db = server.ctx.database.db;
    const group = (await admin.post("/api/groups", { name: "Team" })).body;
    const url = `/api/groups/${group.id}/members`;
    expect((await member.post(url, { user_id: memberUser.id })).status).toBe(403);
    const added = await admin.post(url, { user_id: memberUser.id });
    expect(added.status).toBe(200);
    expect(added.body.id).toBe(memberUser.id);
    expect(added.body.groups).toEqual([defaultGroup, group.id]);
    expect(added.body.api_key).toBeUndefined();
    // Adding twice keeps one membership.
    expect((await admin.post(url, { user_id: String(memberUser.id) })).body.groups).toEqual([
      defaultGroup,
      group.id,
    ]);

    const members = await member.get(url);
    expect(members.status).toBe(200);
    expect(members.body.map((u: User) => u.email)).toEqual(["mel@example.com"]);
    expect(members.text).not.toContain("api_key");
    expect((await member.get(`/api/groups/${adminGroup}/members`)).status).toBe(403);
    expect((await admin.get(`/api/groups/${foreignGroup.id}/members`)).status).toBe(404);

    expect((await admin.post(url, { user_id: foreignUser.id })).status).toBe(404);
    expect((await admin.post(url, { user_id: 999999 })).status).toBe(404);
    expect((await admin.post(url, {})).status).toBe(400);
    expect((await admin.post(url, { user_id: "me" })).status).toBe(400);
    expect(
      (await admin.post(`/api/groups/${foreignGroup.id}/members`, { user_id: memberUser.id }))
        .status,
    ).toBe(404);

    expect((await member.delete(`${url}/${memberUser.id}`)).status).toBe(403);
    const removed = await admin.delete(`${url}/${memberUser.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toBeNull();
    expect((await findUserById(db, org.id, memberUser.id))!.group_ids).toEqual([defaultGroup]);
    // Removing again is harmless; unknown users are 404.
    expect((await admin.delete(`${url}/${memberUser.id}`)).status).toBe(200);
    expect((await admin.delete(`${url}/${foreignUser.id}`)).status).toBe(404);
    expect((await admin.delete(`${url}/abc`)).status).toBe(404);
  });

  it("links data sources to groups without revealing their options", async () => {
    const group = (await admin.post("/api/groups", { name: "Readers" })).body;
    const url = `/api/groups/${group.id}/data_sources`;
    expect((await admin.get(url)).body).toEqual([]);
    expect((await member.post(url, { data_source_id: dataSourceId })).status).toBe(403);
    const added = await admin.post(url, { data_source_id: dataSourceId });
    expect(added.status).toBe(200);
    expect(added.body).toEqual({
      id: dataSourceId,
      name: "Warehouse",
      type: "pg",
      syntax: "sql",
      paused: 0,
      pause_reason: null,
      supports_auto_limit: true,
      view_only: false,
    });
    const list = await admin.get(url);
    expect(list.body).toEqual([added.body]);
    expect((await member.get(url)).status).toBe(403);

    const viewOnly = await admin.post(`${url}/${dataSourceId}`, { view_only: true });
    expect(viewOnly.status).toBe(200);
    expect(viewOnly.body.view_only).toBe(true);
    expect((await admin.get(url)).body[0].view_only).toBe(true);
    expect((await admin.post(`${url}/${dataSourceId}`, { view_only: "yes" })).status).toBe(400);
    expect((await admin.post(`${url}/${dataSourceId}`, {})).status).toBe(400);

    expect((await admin.post(url, { data_source_id: foreignDataSourceId })).status).toBe(404);
    expect((await admin.post(url, { data_source_id: 999999 })).status).toBe(404);
    expect((await admin.post(url, { data_source_id: [1] })).status).toBe(400);
    expect((await admin.post(`${url}/${foreignDataSourceId}`, { view_only: true })).status).toBe(
      404,
    );
    expect((await admin.get(`/api/groups/${foreignGroup.id}/data_sources`)).status).toBe(404);

    expect((await member.delete(`${url}/${dataSourceId}`)).status).toBe(403);
    const removed = await admin.delete(`${url}/${dataSourceId}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toBeNull();
    expect((await admin.get(url)).body).toEqual([]);
    // Setting the flag of a data source that is not in the group changes nothing.
    expect((await admin.post(`${url}/${dataSourceId}`, { view_only: false })).status).toBe(404);
  });

  it("deletes regular groups with their links; built-in groups stay", async () => {
    const db = server.ctx.database.db;
    const group = (await admin.post("/api/groups", { name: "Doomed" })).body;
    await admin.post(`/api/groups/${group.id}/data_sources`, { data_source_id: dataSourceId });
    await admin.post(`/api/groups/${group.id}/members`, { user_id: memberUser.id });
    expect((await member.delete(`/api/groups/${group.id}`)).status).toBe(403);
    const res = await admin.delete(`/api/groups/${group.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toBeNull();
    expect(await findGroup(db, org.id, group.id)).toBeNull();
    expect((await findUserById(db, org.id, memberUser.id))!.group_ids).toEqual([defaultGroup]);
    const ds = await db
      .selectFrom("data_sources")
      .select("id")
      .where("id", "=", dataSourceId)
      .executeTakeFirst();
    expect(ds?.id).toBe(dataSourceId);
    for (const id of [defaultGroup, adminGroup]) {
      const builtin = await admin.delete(`/api/groups/${id}`);
      expect(builtin.status).toBe(400);
      expect(builtin.body.message).toBe("Can't delete built-in groups.");
    }
    expect((await admin.delete(`/api/groups/${foreignGroup.id}`)).status).toBe(404);
    expect(await findGroup(db, otherOrg.id, foreignGroup.id)).not.toBeNull();
  });

  it("refuses state changes without the CSRF token", async () => {
    const client = new TestClient(server.url);
    await client.login(ADMIN.email, ADMIN.password);
    client.sendCsrf = false;
    const res = await client.post("/api/groups", { name: "No CSRF" });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain("CSRF");
    expect((await admin.get("/api/groups")).body.map((g: Group) => g.name)).not.toContain(
      "No CSRF",
    );
  });

  it("records the groups' events", async () => {
    const rows = await server.ctx.database.db
      .selectFrom("events")
      .select(["action", "object_id", "additional_properties"])
      .where("object_type", "=", "group")
      .execute();
    const actions = new Set(rows.map((r) => r.action));
    for (const action of [
      "list",
      "create",
      "view",
      "edit",
      "add_member",
      "remove_member",
      "add_data_source",
      "remove_data_source",
      "change_data_source_permission",
    ]) {
      expect(actions).toContain(action);
    }
    expect(rows.find((r) => r.action === "list" && r.object_id === "groups")).toBeDefined();
    const change = rows.find((r) => r.action === "change_data_source_permission")!;
    expect(JSON.parse(change.additional_properties)).toMatchObject({
      member_id: dataSourceId,
      view_only: true,
    });
  });

  it("never sends data source options, password hashes or other users' API keys", async () => {
    const users = await server.ctx.database.db.selectFrom("users").selectAll().execute();
    for (const client of [admin, member]) {
      const text = client.bodies.join("\n");
      expect(text).not.toContain(SECRET_OPTIONS);
      expect(text).not.toContain("encrypted_options");
      expect(text).not.toContain("password_hash");
      for (const u of users) {
        if (u.password_hash) expect(text).not.toContain(u.password_hash);
        expect(text).not.toContain(u.session_token);
      }
    }
    const memberText = member.bodies.join("\n");
    for (const u of users) if (u.id !== memberUser.id) expect(memberText).not.toContain(u.api_key);
  });
});
