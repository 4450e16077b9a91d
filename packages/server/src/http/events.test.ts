import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metadataDatabases } from "../testing/services";
import type { TestServer } from "../testing/testServer";
import { ADMIN, TestClient } from "../testing/httpClient";
import { PASSWORD, startWithAdminAndMember } from "../testing/signedIn";
import { insertOrg, type Organization } from "../store/organizations";
import type { User } from "../store/users";
import { recordEvent } from "../services/events";

const DATABASES = await metadataDatabases();
const FIREFOX = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:126.0) Gecko/20100101 Firefox/126.0";

describe.each(DATABASES)("events API on %s", (dbKind) => {
  let server: TestServer;
  let org: Organization;
  let admin: TestClient;
  let adminUser: User;
  let member: TestClient;

  const eventCount = async () =>
    Number(
      (
        await server.ctx.database.db
          .selectFrom("events")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    ({ server, org, admin, adminUser, member } = await startWithAdminAndMember(dbKind));
  });
  afterAll(async () => {
    await server?.close();
  });

  it("stores a batch of events from the web app with the server's facts", async () => {
    const res = await member.request("POST", "/api/events", {
      json: [
        { action: "view", object_type: "page", page: "queries", screen_resolution: "1920x1080" },
        {
          action: "execute_query",
          object_type: "data_source",
          object_id: 7,
          query: "select 1",
          timestamp: 1700000000.5,
          user_id: 1,
          ip: "10.0.0.1",
        },
      ],
      headers: { "user-agent": FIREFOX },
    });
    expect(res.status).toBe(200);
    expect(res.body).toBeNull();
    const rows = await server.ctx.database.db
      .selectFrom("events")
      .selectAll()
      .where("action", "in", ["view", "execute_query"])
      .orderBy("id")
      .execute();
    const [view, run] = rows;
    expect(view).toMatchObject({ object_type: "page", object_id: null, org_id: org.id });
    expect(JSON.parse(view!.additional_properties)).toMatchObject({
      page: "queries",
      screen_resolution: "1920x1080",
      user_agent: FIREFOX,
      user_name: "Mel Member",
    });
    expect(run).toMatchObject({ object_id: "7", created_at: "2023-11-14T22:13:20.500Z" });
    // The client cannot speak for someone else or pretend another address.
    expect(run!.user_id).not.toBe(1);
    expect(JSON.parse(run!.additional_properties).ip).not.toBe("10.0.0.1");
  });

  it("refuses anything but an array of well-formed events, storing none of them", async () => {
    const noCsrf = new TestClient(server.url);
    await noCsrf.login("mel@example.com", PASSWORD);
    noCsrf.sendCsrf = false;
    const before = await eventCount();
    const cases: unknown[] = [
      { action: "view", object_type: "page" },
      "view",
      [{ action: "view", object_type: "page" }, { action: "view" }],
      [{ action: 5, object_type: "page" }],
      [{ action: "view", object_type: "page", object_id: { id: 1 } }],
      [{ action: "view", object_type: "page", timestamp: "yesterday" }],
      [null],
      Array.from({ length: 501 }, () => ({ action: "view", object_type: "page" })),
    ];
    for (const body of cases) {
      const res = await member.post("/api/events", body);
      expect(res.status).toBe(400);
      expect(typeof res.body.message).toBe("string");
    }
    expect((await member.request("POST", "/api/events", { raw: "[{" })).status).toBe(400);
    expect((await noCsrf.post("/api/events", [{ action: "a", object_type: "b" }])).status).toBe(
      400,
    );
    const visitor = new TestClient(server.url);
    await visitor.get("/ping");
    expect((await visitor.post("/api/events", [{ action: "a", object_type: "b" }])).status).toBe(
      404,
    );
    expect(await eventCount()).toBe(before);
  });

  it("records events of API-key callers under the key's name", async () => {
    const db = server.ctx.database.db;
    const ts = new Date().toISOString();
    // A share key opens only an existing dashboard (of an enabled owner, not archived).
    const board = (await admin.post("/api/dashboards", { name: "Shared" })).body.id as number;
    await db
      .insertInto("api_keys")
      .values({
        org_id: org.id,
        api_key: "k".repeat(40),
        active: true,
        object_type: "dashboards",
        object_id: board,
        created_by_id: adminUser.id,
        created_at: ts,
        updated_at: ts,
      })
      .execute();
    const client = new TestClient(server.url);
    client.apiKey = "k".repeat(40);
    const res = await client.post("/api/events", [{ action: "view", object_type: "dashboard" }]);
    expect(res.status).toBe(200);
    const list = await admin.get("/api/events?page_size=1");
    expect(list.body.results[0]).toMatchObject({
      user_id: null,
      user_name: `ApiKey: dashboards ${board}`,
      action: "view",
      object_type: "dashboard",
    });
    expect(list.text).not.toContain("k".repeat(40));
  });

  it("lists the organisation's events to admins, newest first, in pages", async () => {
    const db = server.ctx.database.db;
    const other = await insertOrg(db, "Other", "other");
    await recordEvent(db, { orgId: other.id, userId: null, action: "secret", objectType: "x" });
    await recordEvent(db, {
      orgId: org.id,
      userId: adminUser.id,
      action: "edit",
      objectType: "query",
      objectId: 12,
      timestamp: "2000-01-01T00:00:00.000Z",
    });
    expect((await member.get("/api/events")).status).toBe(403);

    const res = await admin.get("/api/events");
    expect(res.status).toBe(200);
    expect(res.body.page).toBe(1);
    expect(res.body.page_size).toBe(25);
    const results = res.body.results as Record<string, unknown>[];
    expect(results.map((e) => e.action)).not.toContain("secret");
    expect(res.body.count).toBe(results.length);
    const times = results.map((e) => e.created_at as string);
    expect([...times].sort().reverse()).toEqual(times);

    const view = results.find((e) => e.action === "view" && e.object_type === "page")!;
    expect(view).toEqual({
      org_id: org.id,
      user_id: expect.any(Number),
      action: "view",
      object_type: "page",
      object_id: null,
      created_at: expect.any(String),
      user_name: "Mel Member",
      browser: "PC / Windows / Firefox 126",
      location: "Unknown",
      details: { page: "queries" },
    });
    const run = results.find((e) => e.action === "execute_query")!;
    expect(run.details).toEqual({ query: "select 1", data_source: "7" });
    const oldest = results.at(-1)!;
    expect(oldest).toMatchObject({
      action: "edit",
      user_name: ADMIN.name,
      details: { object_id: "12", object_type: "query" },
    });

    const last = await admin.get(`/api/events?page=${results.length}&page_size=1`);
    expect(last.body.results).toHaveLength(1);
    expect(last.body.results[0].action).toBe("edit");
    expect((await admin.get(`/api/events?page=${results.length + 1}&page_size=1`)).status).toBe(
      400,
    );
    expect((await admin.get("/api/events?page=-2")).status).toBe(400);
    expect((await admin.get("/api/events?page=2&page_size=-5")).status).toBe(400);
    expect((await admin.get("/api/events?page_size=0")).status).toBe(400);
  });
});
