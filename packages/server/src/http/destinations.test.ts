import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metadataDatabases } from "../testing/services";
import type { TestServer } from "../testing/testServer";
import { RecordingClient, TestClient } from "../testing/httpClient";
import { startWithAdminAndMember } from "../testing/signedIn";
import { insertOrg, type Organization } from "../store/organizations";
import { insertUser, type User } from "../store/users";
import { findDestination, insertDestination } from "../store/destinations";
import { readDestinationOptions, writeDestinationOptions } from "../destinations/options";
import { now } from "../store/values";
import { insertAlert } from "../store/alerts";
import { insertTestQuery } from "../testing/storeRows";

const DATABASES = await metadataDatabases();
const MASK = "--------";
const SLACK_URL = "https://hooks.slack.com/services/T000/B000/slack-secret-token";
const HOOK_URL = "https://example.com/hook?token=webhook-secret-token";
const HOOK_PASSWORD = "webhook-basic-password";
const SECRETS = [SLACK_URL, HOOK_URL, HOOK_PASSWORD, "slack-secret-token", "webhook-secret"];

describe.each(DATABASES)("destinations API on %s", (dbKind) => {
  let server: TestServer;
  let org: Organization;
  let otherOrg: Organization;
  let adminUser: User;
  let admin: RecordingClient;
  let plain: RecordingClient;
  let foreignId: number;
  const clients: RecordingClient[] = [];

  async function events(action: string) {
    return server.ctx.database.db
      .selectFrom("events")
      .selectAll()
      .where("object_type", "=", "destination")
      .where("action", "=", action)
      .execute();
  }

  async function create(body: Record<string, unknown>) {
    const res = await admin.post("/api/destinations", body);
    expect(res.status, res.text).toBe(200);
    return res.body as { id: number; name: string; type: string; icon: string; options: any };
  }

  beforeAll(async () => {
    ({
      server,
      org,
      admin,
      adminUser,
      member: plain,
    } = await startWithAdminAndMember(
      dbKind,
      { member: { name: "Pat Plain", email: "plain@example.com" } },
      RecordingClient,
    ));
    clients.push(admin, plain);
    const db = server.ctx.database.db;

    // Another organisation with a destination of its own.
    otherOrg = await insertOrg(db, "Other", `other-${Date.now()}`);
    const foreigner = await insertUser(db, {
      orgId: otherOrg.id,
      name: "Foreign Admin",
      email: "foreign@example.com",
      passwordHash: null,
      groupIds: [],
      invitationPending: false,
    });
    const foreign = await insertDestination(db, {
      orgId: otherOrg.id,
      userId: foreigner.id,
      name: "Foreign hook",
      type: "webhook",
      encryptedOptions: writeDestinationOptions(server.ctx, { url: HOOK_URL }),
    });
    foreignId = foreign.id;
  });

  afterAll(async () => {
    await server?.close();
  });

  it("lists every registered type with its schema to admins only", async () => {
    const res = await admin.get("/api/destinations/types");
    expect(res.status).toBe(200);
    const types = res.body as any[];
    expect(types.map((t) => t.type).sort()).toEqual(
      [
        "chatwork",
        "discord",
        "email",
        "hangouts_chat",
        "hipchat",
        "mattermost",
        "microsoft_teams_webhook",
        "pagerduty",
        "slack",
        "webhook",
      ].sort(),
    );
    const byType = Object.fromEntries(types.map((t) => [t.type, t]));
    expect(byType.slack).toMatchObject({
      name: "Slack",
      icon: "fa-slack",
      configuration_schema: { type: "object", secret: ["url"] },
    });
    expect(byType.webhook.configuration_schema.required).toEqual(["url"]);
    expect(byType.webhook.configuration_schema.secret).toEqual(["password", "url"]);
    expect(byType.email.configuration_schema.properties.subject_template.default).toBe(
      "Alert: {alert_name} changed status to {state}",
    );
    expect(byType.chatwork.configuration_schema.required).toEqual([
      "message_template",
      "api_token",
      "room_id",
    ]);
    expect(byType.hangouts_chat.name).toBe("Google Hangouts Chat");
    expect(byType.pagerduty.icon).toBe("creative-commons-pd-alt");
    expect(byType.hipchat.deprecated).toBe(true);
    expect(byType.slack.deprecated).toBeUndefined();

    expect((await plain.get("/api/destinations/types")).status).toBe(403);
    expect((await new TestClient(server.url).get("/api/destinations/types")).status).toBe(404);
  });

  it("creates as admin (secrets masked and encrypted at rest), refuses non-admins", async () => {
    const created = await create({
      name: "Team Slack",
      type: "slack",
      options: { url: SLACK_URL },
    });
    expect(created).toMatchObject({
      name: "Team Slack",
      type: "slack",
      icon: "fa-slack",
      options: { url: MASK },
    });
    const row = (await findDestination(server.ctx.database.db, org.id, created.id))!;
    expect(row.user_id).toBe(adminUser.id);
    expect(row.encrypted_options).not.toContain("slack-secret-token");
    expect(readDestinationOptions(server.ctx, row)).toEqual({ url: SLACK_URL });

    const denied = await plain.post("/api/destinations", {
      name: "Mine",
      type: "slack",
      options: { url: SLACK_URL },
    });
    expect(denied.status).toBe(403);
    const anonymous = new TestClient(server.url);
    await anonymous.get("/ping");
    expect(
      (await anonymous.post("/api/destinations", { name: "x", type: "slack", options: {} })).status,
    ).toBe(404);
  });

  it("refuses a duplicate name with Redash's message", async () => {
    await create({ name: "Dup", type: "email", options: { addresses: "a@example.com" } });
    const res = await admin.post("/api/destinations", {
      name: "Dup",
      type: "slack",
      options: { url: SLACK_URL },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("Alert Destination with the name Dup already exists.");
    // The same name in another organisation is no clash.
    const other = await admin.post("/api/destinations", {
      name: "Foreign hook",
      type: "webhook",
      options: { url: HOOK_URL },
    });
    expect(other.status).toBe(200);
  });

  it("answers 400 for bad bodies and changes nothing", async () => {
    const before = (await admin.get("/api/destinations")).body.length;
    const bad: [unknown, RegExp][] = [
      [{}, /name is required/],
      [{ type: "slack", options: {} }, /name is required/],
      [{ name: "  ", type: "slack", options: {} }, /name is required/],
      [{ name: 5, type: "slack", options: {} }, /name is required/],
      [{ name: "x".repeat(256), type: "slack", options: {} }, /too long/],
      [{ name: "A", options: {} }, /type is required/],
      [{ name: "A", type: "slack" }, /options is required/],
      [{ name: "A", type: "slack", options: [] }, /options is required/],
      [{ name: "A", type: "slack", options: "x" }, /options is required/],
      [{ name: "A", type: "carrier-pigeon", options: {} }, /Unknown alert destination type/],
      [{ name: "A", type: "webhook", options: {} }, /url is required/],
      [{ name: "A", type: "webhook", options: { url: "" } }, /url is required/],
      [{ name: "A", type: "webhook", options: { url: MASK } }, /url is required/],
      [{ name: "A", type: "webhook", options: { url: 42 } }, /must be a string/],
      [{ name: "A", type: "email", options: { addresses: ["a@example.com"] } }, /string/],
      [{ name: "A", type: "chatwork", options: { api_token: "t", room_id: "1" } }, /required/],
    ];
    for (const [body, message] of bad) {
      const res = await admin.post("/api/destinations", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toMatch(message);
    }
    const invalidJson = await admin.request("POST", "/api/destinations", { raw: "{not json" });
    expect(invalidJson.status).toBe(400);
    const array = await admin.request("POST", "/api/destinations", { raw: "[1]" });
    expect(array.status).toBe(400);
    expect((await admin.get("/api/destinations")).body.length).toBe(before);
  });

  it("lists the organisation's destinations only, id ascending, to any signed-in user", async () => {
    const res = await plain.get("/api/destinations");
    expect(res.status).toBe(200);
    const list = res.body as any[];
    expect(list.length).toBeGreaterThanOrEqual(2);
    expect(list.map((d) => d.id)).toEqual([...list.map((d) => d.id)].sort((a, b) => a - b));
    expect(list.some((d) => d.id === foreignId)).toBe(false);
    for (const d of list) expect(Object.keys(d).sort()).toEqual(["icon", "id", "name", "type"]);
    expect((await new TestClient(server.url).get("/api/destinations")).status).toBe(404);
    const listed = await events("list");
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.at(-1)!.object_id).toBe("admin/destinations");
  });

  it("shows one destination to admins with secrets masked; 404 for unknown and foreign ids", async () => {
    const created = await create({
      name: "Ops hook",
      type: "webhook",
      options: { url: HOOK_URL, username: "ops", password: HOOK_PASSWORD },
    });
    const res = await admin.get(`/api/destinations/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: created.id,
      name: "Ops hook",
      type: "webhook",
      icon: "fa-bolt",
      options: { url: MASK, username: "ops", password: MASK },
      last_failure: null,
      last_failure_at: null,
    });
    const viewed = await events("view");
    expect(viewed.at(-1)!.object_id).toBe(String(created.id));

    expect((await plain.get(`/api/destinations/${created.id}`)).status).toBe(403);
    expect((await admin.get(`/api/destinations/${foreignId}`)).status).toBe(404);
    expect((await admin.get("/api/destinations/999999")).status).toBe(404);
    expect((await admin.get("/api/destinations/abc")).status).toBe(404);
    expect((await admin.get("/api/destinations/-1")).status).toBe(404);
  });

  it("updates name and options; a masked secret keeps its stored value", async () => {
    const created = await create({
      name: "Release hook",
      type: "webhook",
      options: { url: HOOK_URL, username: "rel", password: HOOK_PASSWORD },
    });
    const db = server.ctx.database.db;

    // The form sends back what it was given: masks for the secrets.
    const renamed = await admin.post(`/api/destinations/${created.id}`, {
      name: "Release webhook",
      type: "webhook",
      options: { url: MASK, username: "release", password: MASK },
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toMatchObject({
      name: "Release webhook",
      options: { url: MASK, username: "release", password: MASK },
    });
    let row = (await findDestination(db, org.id, created.id))!;
    expect(row.name).toBe("Release webhook");
    expect(readDestinationOptions(server.ctx, row)).toEqual({
      url: HOOK_URL,
      username: "release",
      password: HOOK_PASSWORD,
    });

    // A new url is stored; an omitted optional secret is removed.
    const newUrl = "https://example.org/other-hook";
    const changed = await admin.post(`/api/destinations/${created.id}`, {
      name: "Release webhook",
      type: "webhook",
      options: { url: newUrl, username: null },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.options).toEqual({ url: MASK });
    row = (await findDestination(db, org.id, created.id))!;
    expect(readDestinationOptions(server.ctx, row)).toEqual({ url: newUrl });

    // Changing the type: masks have nothing to stand for any more.
    const retyped = await admin.post(`/api/destinations/${created.id}`, {
      name: "Release webhook",
      type: "slack",
      options: { url: MASK },
    });
    expect(retyped.status).toBe(200);
    row = (await findDestination(db, org.id, created.id))!;
    expect(row.type).toBe("slack");
    expect(readDestinationOptions(server.ctx, row)).toEqual({});

    // Create and update record no events (api-platform.md §10).
    expect(await events("create")).toHaveLength(0);
    expect(await events("edit")).toHaveLength(0);
  });

  it("refuses bad updates: duplicate name, missing fields, non-admins, unknown ids", async () => {
    const a = await create({ name: "First", type: "email", options: { addresses: "a@x.io" } });
    await create({ name: "Second", type: "email", options: { addresses: "b@x.io" } });
    const dup = await admin.post(`/api/destinations/${a.id}`, {
      name: "Second",
      type: "email",
      options: { addresses: "a@x.io" },
    });
    expect(dup.status).toBe(400);
    expect(dup.body.message).toBe("Alert Destination with the name Second already exists.");
    // Keeping its own name is fine.
    const same = await admin.post(`/api/destinations/${a.id}`, {
      name: "First",
      type: "email",
      options: { addresses: "c@x.io", subject_template: "[{state}] {alert_name}" },
    });
    expect(same.status).toBe(200);
    expect(same.body.options).toEqual({
      addresses: "c@x.io",
      subject_template: "[{state}] {alert_name}",
    });

    expect((await admin.post(`/api/destinations/${a.id}`, { name: "First" })).status).toBe(400);
    expect(
      (await admin.post(`/api/destinations/${a.id}`, { name: "First", type: "nope", options: {} }))
        .status,
    ).toBe(400);
    expect(
      (await plain.post(`/api/destinations/${a.id}`, { name: "x", type: "email", options: {} }))
        .status,
    ).toBe(403);
    const body = { name: "Z", type: "email", options: { addresses: "z@x.io" } };
    expect((await admin.post(`/api/destinations/${foreignId}`, body)).status).toBe(404);
    expect((await admin.post("/api/destinations/424242", body)).status).toBe(404);
    const row = (await findDestination(server.ctx.database.db, otherOrg.id, foreignId))!;
    expect(row.name).toBe("Foreign hook");
  });

  it("deletes with 204 and an empty body, with the destination's subscriptions", async () => {
    const db = server.ctx.database.db;
    const created = await create({ name: "Doomed", type: "slack", options: { url: SLACK_URL } });

    // An alert subscribed to the destination.
    const ts = now();
    const query = await insertTestQuery(db, org.id, {
      dataSourceId: null,
      userId: adminUser.id,
      name: "Q",
      text: "select 1",
      hash: "h",
    });
    const alert = await insertAlert(db, {
      orgId: org.id,
      userId: adminUser.id,
      name: "A",
      queryId: query.id,
      options: {},
      rearm: null,
    });
    await db
      .insertInto("alert_subscriptions")
      .values({
        user_id: adminUser.id,
        destination_id: created.id,
        alert_id: alert.id,
        created_at: ts,
        updated_at: ts,
      })
      .execute();

    expect((await plain.delete(`/api/destinations/${created.id}`)).status).toBe(403);
    expect((await admin.delete(`/api/destinations/${foreignId}`)).status).toBe(404);
    expect((await admin.delete("/api/destinations/777777")).status).toBe(404);

    const res = await admin.delete(`/api/destinations/${created.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect((await admin.get(`/api/destinations/${created.id}`)).status).toBe(404);
    const list = (await admin.get("/api/destinations")).body as { id: number }[];
    expect(list.some((d) => d.id === created.id)).toBe(false);
    const subs = await db
      .selectFrom("alert_subscriptions")
      .select("id")
      .where("alert_id", "=", alert.id)
      .execute();
    expect(subs).toHaveLength(0);
    expect((await events("delete")).at(-1)!.object_id).toBe(String(created.id));
    expect((await admin.delete(`/api/destinations/${created.id}`)).status).toBe(404);
    expect(await findDestination(db, otherOrg.id, foreignId)).not.toBeNull();
  });

  it("never sends a secret in any response", () => {
    const all = clients.flatMap((c) => c.bodies);
    expect(all.length).toBeGreaterThan(20);
    for (const body of all) {
      for (const secret of SECRETS) expect(body).not.toContain(secret);
    }
  });
});
