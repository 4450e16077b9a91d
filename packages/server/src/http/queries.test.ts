import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metadataDatabases, randomName } from "../testing/services";
import type { TestServer } from "../testing/testServer";
import { TestClient } from "../testing/httpClient";
import {
  createShopDataSource,
  startWithAdmin,
  linkGroup,
  newGroup,
  otherOrgObjects,
} from "../testing/apiServer";
import { insertAlert, insertSubscription } from "../store/alerts";
import { findOrgBySlug } from "../store/organizations";
import { insertWidget } from "../store/widgets";
import { insertTestDashboard } from "../testing/storeRows";
import { userClient } from "../testing/signedIn";

const DATABASES = await metadataDatabases();

describe.each(DATABASES)("queries API on %s", (db) => {
  let server: TestServer;
  let admin: TestClient;
  let member: TestClient;
  let memberId: number;
  let dsId: number;
  let other: Awaited<ReturnType<typeof otherOrgObjects>>;

  const create = async (client: TestClient, fields: Record<string, unknown> = {}) => {
    const res = await client.post("/api/queries", {
      name: "New Query",
      query: "SELECT id, name, value FROM people",
      data_source_id: dsId,
      ...fields,
    });
    expect(res.status).toBe(200);
    return res.body;
  };

  beforeAll(async () => {
    ({ server, admin } = await startWithAdmin(db));
    ({ client: member, id: memberId } = await userClient(server, "member@example.com"));
    dsId = await createShopDataSource(server, admin);
    other = await otherOrgObjects(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  it("creates a query with its Table visualization", async () => {
    const res = await member.post("/api/queries", {
      name: "Hourly",
      query: "SELECT 1",
      schedule: { interval: "3600" },
      data_source_id: dsId,
      is_draft: false,
      api_key: "x",
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: "Hourly",
      query: "SELECT 1",
      schedule: { interval: "3600" },
      data_source_id: dsId,
      is_draft: true,
      user: { id: memberId },
      version: 1,
      is_safe: true,
      tags: [],
    });
    expect(res.body.api_key).toMatch(/^[A-Za-z0-9]{40}$/);
    expect(res.body.query_hash).toMatch(/^[0-9a-f]{32}$/);
    expect(res.body.visualizations).toHaveLength(1);
    expect(res.body.visualizations[0]).toMatchObject({ type: "TABLE", name: "Table", options: {} });
    expect(res.body.is_favorite).toBe(false);
  });

  it("validates create input", async () => {
    expect((await admin.post("/api/queries", { name: "x", query: "SELECT 1" })).status).toBe(400);
    expect((await admin.post("/api/queries", { name: "x", data_source_id: dsId })).status).toBe(
      400,
    );
    expect((await admin.post("/api/queries", { query: "x", data_source_id: dsId })).status).toBe(
      400,
    );
    expect(
      (await admin.post("/api/queries", { name: "x", query: "x", data_source_id: "abc" })).status,
    ).toBe(400);
    expect(
      (await admin.post("/api/queries", { name: "x", query: "x", data_source_id: 99999 })).status,
    ).toBe(404);
    expect(
      (
        await admin.post("/api/queries", {
          name: "x",
          query: "x",
          data_source_id: other.dataSource.id,
        })
      ).status,
    ).toBe(404);
    expect(
      (await admin.post("/api/queries", { name: "x", query: "x", data_source_id: dsId, tags: "a" }))
        .status,
    ).toBe(400);
    expect(
      (
        await admin.post("/api/queries", {
          name: "x",
          query: "x",
          data_source_id: dsId,
          options: [],
        })
      ).status,
    ).toBe(400);
    expect((await admin.request("POST", "/api/queries", { raw: "[1]" })).status).toBe(400);
  });

  it("gets a query with can_edit and favorites; 404 for unknown and other-org ids", async () => {
    const q = await create(member);
    const own = await member.get(`/api/queries/${q.id}`);
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({
      can_edit: true,
      is_favorite: false,
      last_modified_by: { id: memberId },
    });
    expect((await admin.get(`/api/queries/${q.id}`)).body.can_edit).toBe(true);
    const { client: stranger } = await userClient(server, `s-${randomName("u")}@example.com`);
    expect((await stranger.get(`/api/queries/${q.id}`)).body.can_edit).toBe(false);
    expect((await admin.get(`/api/queries/${other.query.id}`)).status).toBe(404);
    expect((await admin.get("/api/queries/123456")).status).toBe(404);
    expect((await admin.get("/api/queries/nope")).status).toBe(404);

    expect((await member.post(`/api/queries/${q.id}/favorite`)).body).toBeNull();
    expect((await member.post(`/api/queries/${q.id}/favorite`)).status).toBe(200);
    expect((await member.get(`/api/queries/${q.id}`)).body.is_favorite).toBe(true);
    const favs = await member.get("/api/queries/favorites");
    expect(favs.body.results.map((r: { id: number }) => r.id)).toEqual([q.id]);
    expect(favs.body.results[0].is_favorite).toBe(true);
    expect(favs.body.results[0].starred_at).toBeTruthy();
    expect((await member.delete(`/api/queries/${q.id}/favorite`)).status).toBe(200);
    expect((await member.get(`/api/queries/${q.id}`)).body.is_favorite).toBe(false);
    expect((await member.post(`/api/queries/${other.query.id}/favorite`)).status).toBe(404);
  });

  it("works with the query's own API key", async () => {
    const q = await create(admin);
    const visitor = new TestClient(server.url);
    visitor.apiKey = q.api_key;
    const res = await visitor.get(`/api/queries/${q.id}`);
    expect(res.status).toBe(200);
    expect(res.body.is_favorite).toBeUndefined();
    expect((await visitor.post(`/api/queries/${q.id}`, { name: "hack" })).status).toBe(403);
  });

  it("saves with version checks, access checks and grants", async () => {
    const q = await create(member, { tags: ["a"] });
    const saved = await admin.post(`/api/queries/${q.id}`, {
      name: "Renamed",
      query: "SELECT 2",
      data_source_id: dsId,
      version: q.version,
      tags: ["x", "", null],
      user_id: 1,
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      name: "Renamed",
      query: "SELECT 2",
      data_source_id: dsId,
      tags: ["x"],
    });
    expect(saved.body.last_modified_by.id).not.toBe(memberId);
    expect(saved.body.user.id).toBe(memberId);
    expect(saved.body.query_hash).not.toBe(q.query_hash);
    expect(
      (await admin.post(`/api/queries/${q.id}`, { name: "Stale", version: q.version })).status,
    ).toBe(409);
    expect((await admin.post(`/api/queries/${q.id}`, { name: "No version" })).status).toBe(200);
    expect((await admin.post(`/api/queries/${q.id}`, { name: 5 })).status).toBe(400);
    expect((await admin.post(`/api/queries/${q.id}`, { version: "x" })).status).toBe(400);
    expect((await admin.post(`/api/queries/${other.query.id}`, { name: "x" })).status).toBe(404);

    const { client: peer, id: peerId } = await userClient(
      server,
      `p-${randomName("u")}@example.com`,
    );
    expect((await peer.post(`/api/queries/${q.id}`, { name: "peer" })).status).toBe(403);
    const grant = await member.post(`/api/queries/${q.id}/acl`, {
      access_type: "modify",
      user_id: peerId,
    });
    expect(grant.status).toBe(200);
    expect(grant.body).toMatchObject({
      object_id: q.id,
      object_type: "queries",
      access_type: "modify",
      grantee: peerId,
    });
    const byPeer = await peer.post(`/api/queries/${q.id}`, { name: "peer" });
    expect(byPeer.status).toBe(200);
    expect(byPeer.body.last_modified_by.id).toBe(peerId);
    expect((await peer.get(`/api/queries/${q.id}`)).body.can_edit).toBe(true);

    // A data source where the caller is view-only.
    const vo = await newGroup(server, randomName("vo"));
    const viewOnlyDs = (
      await admin.post("/api/data_sources", {
        name: randomName("vods"),
        type: "sqlite",
        options: { dbpath: "shop.sqlite" },
      })
    ).body.id;
    await server.ctx.database.db
      .deleteFrom("data_source_groups")
      .where("data_source_id", "=", viewOnlyDs)
      .execute();
    await linkGroup(server, viewOnlyDs, vo.id, true);
    const { client: viewer } = await userClient(server, `v-${randomName("u")}@example.com`, [
      vo.id,
    ]);
    const own = await viewer.post("/api/queries", {
      name: "v",
      query: "SELECT 1",
      data_source_id: viewOnlyDs,
    });
    expect(own.status).toBe(403);
    expect((await member.post(`/api/queries/${q.id}`, { data_source_id: viewOnlyDs })).status).toBe(
      403,
    );
  });

  it("archives: schedule cleared, widgets and alerts removed, owner or admin only", async () => {
    const q = await create(member, { schedule: { interval: 60 } });
    const { client: peer } = await userClient(server, `a-${randomName("u")}@example.com`);
    const denied = await peer.delete(`/api/queries/${q.id}`);
    expect(denied.status).toBe(403);
    expect(denied.body.message).toBe("You don't have permission to edit this resource.");
    const dbx = server.ctx.database.db;
    const org = (await findOrgBySlug(dbx, "default"))!;
    const dash = await insertTestDashboard(dbx, org.id, { name: "d", userId: memberId });
    await insertWidget(dbx, {
      dashboard_id: dash.id,
      visualization_id: q.visualizations[0].id,
      text: null,
      width: 1,
      options: {},
    });
    const alert = await insertAlert(dbx, {
      orgId: org.id,
      userId: memberId,
      name: "a",
      queryId: q.id,
      options: {},
      rearm: null,
    });
    await insertSubscription(dbx, { alertId: alert.id, userId: memberId, destinationId: null });

    const res = await member.delete(`/api/queries/${q.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toBeNull();
    const after = (await member.get(`/api/queries/${q.id}`)).body;
    expect(after).toMatchObject({ is_archived: true, schedule: null });
    expect(after.visualizations).toHaveLength(1);
    expect(
      await dbx.selectFrom("widgets").selectAll().where("dashboard_id", "=", dash.id).execute(),
    ).toEqual([]);
    expect(await dbx.selectFrom("alerts").selectAll().where("id", "=", alert.id).execute()).toEqual(
      [],
    );
    expect(
      await dbx
        .selectFrom("alert_subscriptions")
        .selectAll()
        .where("alert_id", "=", alert.id)
        .execute(),
    ).toEqual([]);
    expect((await admin.delete(`/api/queries/${other.query.id}`)).status).toBe(404);
  });

  it("forks with visualizations and no extra table", async () => {
    const q = await create(member, { tags: ["t"], schedule: { interval: 60 }, description: "d" });
    await member.post("/api/visualizations", {
      query_id: q.id,
      type: "CHART",
      name: "Chart",
      options: { a: 1 },
    });
    const fork = await admin.post(`/api/queries/${q.id}/fork`);
    expect(fork.status).toBe(200);
    expect(fork.body).toMatchObject({
      name: `Copy of (#${q.id}) New Query`,
      description: "d",
      tags: ["t"],
      schedule: null,
      is_draft: true,
      query_hash: q.query_hash,
    });
    expect(fork.body.api_key).not.toBe(q.api_key);
    expect(fork.body.visualizations.map((v: { type: string }) => v.type)).toEqual([
      "TABLE",
      "CHART",
    ]);
    expect((await admin.post(`/api/queries/${other.query.id}/fork`)).status).toBe(404);
  });

  it("regenerates the API key for owner or admin only", async () => {
    const q = await create(member);
    const { client: peer } = await userClient(server, `r-${randomName("u")}@example.com`);
    expect((await peer.post(`/api/queries/${q.id}/regenerate_api_key`)).status).toBe(403);
    expect((await member.get(`/api/queries/${q.id}`)).body.api_key).toBe(q.api_key);
    const res = await member.post(`/api/queries/${q.id}/regenerate_api_key`);
    expect(res.status).toBe(200);
    expect(res.body.api_key).not.toBe(q.api_key);
    expect(res.body.visualizations).toBeUndefined();
    const byAdmin = await admin.post(`/api/queries/${q.id}/regenerate_api_key`);
    expect(byAdmin.body.api_key).not.toBe(res.body.api_key);
  });

  it("formats SQL", async () => {
    const res = await member.post("/api/queries/format", {
      query: "select a,b,c FROM foobar Where x=1 and y=2;",
    });
    expect(res.body.query).toBe(
      "SELECT a,\n       b,\n       c\nFROM foobar\nWHERE x=1\n  AND y=2;",
    );
    expect((await member.post("/api/queries/format", {})).body).toEqual({ query: "" });
    expect((await member.post("/api/queries/format", { query: 5 })).status).toBe(400);
  });

  it("checks dropdown associations", async () => {
    const source = await create(admin);
    const params = (id: number) => ({
      parameters: [
        { name: "a", type: "query", queryId: id },
        { name: "b", type: "query", queryId: id },
      ],
    });
    expect(
      (
        await member.post("/api/queries", {
          name: "d",
          query: "x",
          data_source_id: dsId,
          options: params(source.id),
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await member.post("/api/queries", {
          name: "d",
          query: "x",
          data_source_id: dsId,
          options: params(100000),
        })
      ).body.message,
    ).toContain("does not have a matching group");
    const hidden = await newGroup(server, randomName("hid"));
    const hiddenDs = (
      await admin.post("/api/data_sources", {
        name: randomName("hds"),
        type: "sqlite",
        options: { dbpath: "shop.sqlite" },
      })
    ).body.id;
    await server.ctx.database.db
      .deleteFrom("data_source_groups")
      .where("data_source_id", "=", hiddenDs)
      .execute();
    await linkGroup(server, hiddenDs, hidden.id, false);
    const hiddenQuery = await create(admin, { data_source_id: hiddenDs });
    expect(
      (
        await member.post("/api/queries", {
          name: "d",
          query: "x",
          data_source_id: dsId,
          options: params(hiddenQuery.id),
        })
      ).status,
    ).toBe(403);
  });
});

describe.each(DATABASES)("query lists on %s", (db) => {
  let server: TestServer;
  let admin: TestClient;
  let member: TestClient;
  let dsId: number;

  beforeAll(async () => {
    ({ server, admin } = await startWithAdmin(db));
    member = (await userClient(server, "member@example.com")).client;
    dsId = await createShopDataSource(server, admin);
    for (const [name, tags] of [
      ["Harder", ["tag1"]],
      ["Better", ["tag1", "tag2"]],
      ["Faster", ["tag1", "tag2", "tag3"]],
      ["Stronger", []],
      ["Sales", []],
      ["Q1 sales-report", []],
      ["Ops", []],
    ] as const) {
      await admin.post("/api/queries", {
        name,
        query: `SELECT '${name}'`,
        data_source_id: dsId,
        tags,
      });
    }
    await member.post("/api/queries", {
      name: "Mine",
      query: "SELECT 1",
      data_source_id: dsId,
      tags: ["test"],
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  const names = (body: { results: { name: string }[] }) => body.results.map((r) => r.name);

  it("lists with paging, ordering and tags", async () => {
    const all = await member.get("/api/queries");
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ count: 8, page: 1, page_size: 25 });
    expect(all.body.results[0].name).toBe("Mine");
    expect(all.body.results[0]).toHaveProperty("retrieved_at", null);
    expect(all.body.results[0].user.email).toBe("member@example.com");
    // A page lists the queries in full, though only a few fields were read to order them.
    expect(all.body.results[0]).toMatchObject({ query: "SELECT 1", tags: ["test"], version: 1 });
    expect(names((await member.get("/api/queries?tags=test")).body)).toEqual(["Mine"]);
    expect(names((await member.get("/api/queries?tags=tag1&tags=tag2")).body).sort()).toEqual([
      "Better",
      "Faster",
    ]);
    expect(names((await member.get("/api/queries?order=name&page_size=2")).body)).toEqual([
      "Better",
      "Faster",
    ]);
    expect(names((await member.get("/api/queries?order=name&page_size=2&page=2")).body)).toEqual([
      "Harder",
      "Mine",
    ]);
    expect((await member.get("/api/queries?page=-1")).status).toBe(400);
    expect((await member.get("/api/queries?page=6&page_size=2")).body.message).toBe(
      "Page is out of range.",
    );
    expect((await member.get("/api/queries?page_size=251")).body.message).toBe(
      "Page size is out of range (1-250).",
    );
    expect((await member.get("/api/queries?page_size=-1")).status).toBe(400);
    expect((await member.get("/api/queries?page=abc&drafts=true")).body.page).toBe(1);
  });

  it("searches names, with or, prefixes and hyphenated words", async () => {
    expect(names((await member.get("/api/queries?q=better")).body)).toEqual(["Better"]);
    expect(names((await member.get("/api/queries?q=better%20or%20faster")).body).sort()).toEqual([
      "Better",
      "Faster",
    ]);
    expect(names((await member.get("/api/queries?q=sales")).body).sort()).toEqual([
      "Q1 sales-report",
      "Sales",
    ]);
    expect(names((await member.get("/api/queries?q=repo")).body)).toEqual(["Q1 sales-report"]);
    expect(names((await member.get("/api/queries?q=sales%20-report")).body)).toEqual(["Sales"]);
    // Words of the query text count too ("select" is in no name).
    expect((await member.get("/api/queries?q=select")).body.count).toBe(8);
    const legacy = await member.get("/api/queries/search?q=stronger");
    expect(legacy.status).toBe(301);
    const location = legacy.headers.get("location")!;
    expect(location).toContain("/api/queries?q=stronger");
    expect(names((await member.get(location)).body)).toEqual(["Stronger"]);
    expect((await member.get("/api/queries/search")).body).toEqual([]);
  });

  it("serves my, recent, tags and archive", async () => {
    expect(names((await member.get("/api/queries/my")).body)).toEqual(["Mine"]);
    const recent = await member.get("/api/queries/recent");
    expect(recent.body.map((q: { name: string }) => q.name)).toEqual(["Mine"]);
    expect(recent.body[0].user_id).toBeDefined();
    const tags = await member.get("/api/queries/tags");
    expect(tags.body.tags).toEqual([
      { name: "tag1", count: 3 },
      { name: "tag2", count: 2 },
      { name: "tag3", count: 1 },
      { name: "test", count: 1 },
    ]);
    const all = (await admin.get("/api/queries?q=sales")).body.results;
    for (const q of all) await admin.delete(`/api/queries/${q.id}`);
    const live = await admin.post("/api/queries", {
      name: "Q2 sales",
      query: "SELECT 2",
      data_source_id: dsId,
    });
    expect(live.status).toBe(200);
    const archive = await admin.get("/api/queries/archive?q=sales");
    expect(names(archive.body).sort()).toEqual(["Q1 sales-report", "Sales"]);
    expect((await admin.get("/api/queries/archive")).body.count).toBe(2);
    expect(names((await admin.get("/api/queries?q=sales")).body)).toEqual(["Q2 sales"]);
  });
});
