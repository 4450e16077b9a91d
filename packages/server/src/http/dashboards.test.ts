import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metadataDatabases } from "../testing/services";
import { startTestServer, type TestServer } from "../testing/testServer";
import { ownApiKey, setUpAndLogin, TestClient } from "../testing/httpClient";
import {
  createShopAndSecret,
  createShopDataSource,
  publishQuery,
  startWithAdmin,
  linkGroup,
  newGroup,
  otherOrgObjects,
} from "../testing/apiServer";
import { flushEvents } from "../services/events";
import { insertWidget } from "../store/widgets";
import { insertTestDashboard } from "../testing/storeRows";
import { userClient } from "../testing/signedIn";

const DATABASES = await metadataDatabases();

/** A dashboard as Redash exports it: widgets with positions and parameter mappings. */
const redashExport = (vizId: number) => ({
  name: "Sales (exported)",
  tags: ["sales", "exported"],
  dashboard_filters_enabled: true,
  options: { globalParamOrder: ["region", "period"] },
  layout: [],
  widgets: [
    {
      visualization_id: vizId,
      text: "",
      width: 1,
      options: {
        isHidden: false,
        position: {
          autoHeight: false,
          sizeX: 3,
          sizeY: 8,
          minSizeX: 1,
          maxSizeX: 6,
          minSizeY: 5,
          maxSizeY: 1000,
          col: 0,
          row: 0,
        },
        parameterMappings: {
          region: {
            name: "region",
            type: "dashboard-level",
            mapTo: "region",
            value: null,
            title: "",
          },
          limit: { name: "limit", type: "static-value", mapTo: "limit", value: 10, title: "Top" },
        },
        paramOrder: ["region", "limit"],
      },
    },
    {
      visualization_id: null,
      text: "## Notes\n\n* **bold** _text_ with a [link](https://example.com) ünïcode ✓",
      width: 1,
      options: {
        isHidden: false,
        position: { autoHeight: true, sizeX: 3, sizeY: 3, col: 3, row: 0, minSizeY: 1 },
        parameterMappings: {},
      },
    },
  ],
});

describe.each(DATABASES)("dashboards and widgets API on %s", (db) => {
  let server: TestServer;
  let admin: TestClient;
  let member: TestClient;
  let memberId: number;
  let colleague: TestClient;
  let colleagueId: number;
  /** In a group with no data source at all. */
  let outsider: TestClient;
  /** In a group linked view-only to the Shop data source. */
  let viewer: TestClient;
  /** In a group without dashboard permissions. */
  let reader: TestClient;
  let shopQuery: { id: number; query: string; vizId: number };
  let secretQuery: { id: number; query: string; vizId: number };
  let other: Awaited<ReturnType<typeof otherOrgObjects>>;

  const count = async (table: "dashboards" | "widgets") =>
    Number(
      (
        await server.ctx.database.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  const newDashboard = async (client: TestClient, name: string) => {
    const res = await client.post("/api/dashboards", { name });
    expect(res.status).toBe(200);
    return res.body;
  };

  const addWidget = async (client: TestClient, body: Record<string, unknown>) => {
    const res = await client.post("/api/widgets", { width: 1, text: "", options: {}, ...body });
    expect(res.status).toBe(200);
    return res.body;
  };

  const newQuery = async (dataSourceId: number, text: string) => {
    const saved = await publishQuery(
      admin,
      dataSourceId,
      `Query of ${text.length} characters`,
      text,
    );
    return { id: saved.id, query: text, vizId: saved.visualizations[0]!.id };
  };

  /** Expects a 4xx `{message}` answer. */
  const refused = (res: { status: number; body: any }, status: number) => {
    expect(res.status).toBe(status);
    expect(typeof res.body.message).toBe("string");
  };

  beforeAll(async () => {
    ({ server, admin } = await startWithAdmin(db));
    ({ client: member, id: memberId } = await userClient(server, "member@example.com"));
    ({ client: colleague, id: colleagueId } = await userClient(server, "colleague@example.com"));
    const { shop, secret } = await createShopAndSecret(server, admin);
    const nobody = await newGroup(server, "nobody");
    ({ client: outsider } = await userClient(server, "outsider@example.com", [nobody.id]));
    const viewers = await newGroup(server, "viewers");
    await linkGroup(server, shop, viewers.id, true);
    ({ client: viewer } = await userClient(server, "viewer@example.com", [viewers.id]));
    const readers = await newGroup(server, "readers", ["view_query", "list_dashboards"]);
    await linkGroup(server, shop, readers.id, false);
    ({ client: reader } = await userClient(server, "reader@example.com", [readers.id]));
    shopQuery = await newQuery(shop, "SELECT id, name FROM people -- shop");
    secretQuery = await newQuery(secret, "SELECT 'top secret formula' AS s");
    other = await otherOrgObjects(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  it("creates a draft dashboard, and refuses bad input", async () => {
    const created = await newDashboard(member, "Q1 Sales!");
    expect(created).toMatchObject({
      name: "Q1 Sales!",
      slug: "q1-sales-",
      user_id: memberId,
      user: { id: memberId, name: "member", email: "member@example.com" },
      layout: [],
      widgets: null,
      options: {},
      is_archived: false,
      is_draft: true,
      dashboard_filters_enabled: false,
      tags: [],
      version: 1,
      is_favorite: false,
    });
    expect(created.user.profile_image_url).toMatch(/^https:\/\//);

    const before = await count("dashboards");
    refused(await member.post("/api/dashboards", {}), 400);
    refused(await member.post("/api/dashboards", { name: "  " }), 400);
    refused(await member.post("/api/dashboards", { name: 5 }), 400);
    refused(await member.post("/api/dashboards", { name: "x".repeat(101) }), 400);
    refused(await member.post("/api/dashboards", ["name"]), 400);
    refused(await member.request("POST", "/api/dashboards", { raw: '{"name": ' }), 400);
    refused(await reader.post("/api/dashboards", { name: "No permission" }), 403);
    expect(await count("dashboards")).toBe(before);
    expect((await member.post("/api/dashboards", { name: "x".repeat(100) })).status).toBe(200);
  });

  it("gets a dashboard by id and by the slug stored at creation (legacy)", async () => {
    const first = await newDashboard(member, "Slug Board");
    const second = await newDashboard(member, "Slug Board");
    await member.post(`/api/dashboards/${second.id}`, { name: "Renamed Board" });
    const byId = await member.get(`/api/dashboards/${second.id}`);
    expect(byId.status).toBe(200);
    expect(byId.body).toMatchObject({
      id: second.id,
      slug: "renamed-board",
      widgets: [],
      can_edit: true,
      is_favorite: false,
    });
    expect(byId.body).not.toHaveProperty("public_url");
    expect((await member.get("/api/dashboards/slug-board?legacy")).body.id).toBe(first.id);
    expect((await member.get("/api/dashboards/slug-board_1?legacy")).body.id).toBe(second.id);
    refused(await member.get("/api/dashboards/renamed-board?legacy"), 404);
    // As Redash V10 (redash-toolbelt's dashboard(slug)): a slug without the flag.
    expect((await member.get("/api/dashboards/slug-board")).body.id).toBe(first.id);
    refused(await member.get("/api/dashboards/no-such-board"), 404);
    const nul = await member.get("/api/dashboards/slug%00board?legacy");
    expect([400, 404]).toContain(nul.status);
    expect(typeof nul.body.message).toBe("string");
    refused(await member.get("/api/dashboards/%C3%A9t%C3%A9?legacy"), 404);
    refused(await member.get("/api/dashboards/-1"), 404);
    refused(await member.get("/api/dashboards/999999"), 404);
    // No visibility check beyond the organisation, as Redash (widgets may come back restricted).
    expect((await outsider.get(`/api/dashboards/${first.id}`)).status).toBe(200);
    refused(await outsider.get(`/api/dashboards/${other.query.id + 100000}`), 404);
  });

  it("adds visualization and text widgets, with the caller's access and the owner's consent", async () => {
    const board = await newDashboard(member, "Widgets");
    const viz = await addWidget(member, {
      dashboard_id: board.id,
      visualization_id: shopQuery.vizId,
      options: { position: { col: 0, row: 0, sizeX: 3, sizeY: 8 }, isHidden: false },
    });
    expect(viz).toMatchObject({
      dashboard_id: board.id,
      width: 1,
      text: "",
      options: { position: { col: 0, row: 0, sizeX: 3, sizeY: 8 }, isHidden: false },
      visualization: {
        id: shopQuery.vizId,
        type: "TABLE",
        query: { id: shopQuery.id, query: shopQuery.query, user: { id: expect.any(Number) } },
      },
    });
    const text = await addWidget(member, {
      dashboard_id: board.id,
      visualization_id: null,
      text: "# Hello",
    });
    expect(text).toMatchObject({ text: "# Hello", dashboard_id: board.id });
    expect(text).not.toHaveProperty("visualization");
    // Each widget change is a version of the dashboard (issue 29), so its version moves by one.
    const after = (await member.get(`/api/dashboards/${board.id}`)).body;
    expect(after.version).toBe(3);
    expect(after.widgets.map((w: { id: number }) => w.id)).toEqual([viz.id, text.id]);

    const before = await count("widgets");
    const base = { dashboard_id: board.id, visualization_id: null, text: "", options: {} };
    refused(
      await member.post("/api/widgets", { ...base, visualization_id: secretQuery.vizId }),
      403,
    );
    refused(await colleague.post("/api/widgets", base), 403);
    refused(await reader.post("/api/widgets", base), 403);
    refused(await member.post("/api/widgets", { ...base, dashboard_id: 999999 }), 404);
    refused(await member.post("/api/widgets", { ...base, visualization_id: 999999 }), 404);
    refused(
      await member.post("/api/widgets", { ...base, visualization_id: other.visualization.id }),
      404,
    );
    const { visualization_id: _omitted, ...noVisualization } = base;
    refused(await member.post("/api/widgets", noVisualization), 400);
    refused(await member.post("/api/widgets", { ...base, dashboard_id: "abc" }), 400);
    refused(await member.post("/api/widgets", { ...base, options: [] }), 400);
    refused(await member.post("/api/widgets", { ...base, text: 5 }), 400);
    refused(await member.post("/api/widgets", { ...base, width: "wide" }), 400);
    refused(await member.post("/api/widgets", { ...base, text: "x".repeat(1_000_001) }), 400);
    refused(await member.request("POST", "/api/widgets", { raw: "[1," }), 400);
    expect(await count("widgets")).toBe(before);

    // A modify grant lets a colleague add widgets.
    await member.post(`/api/dashboards/${board.id}/acl`, {
      access_type: "modify",
      user_id: colleagueId,
    });
    expect((await colleague.post("/api/widgets", base)).status).toBe(200);
  });

  it("saves and deletes widgets: text and options only, by those who may edit the dashboard", async () => {
    const board = await newDashboard(member, "Widget edits");
    const widget = await addWidget(member, {
      dashboard_id: board.id,
      visualization_id: shopQuery.vizId,
      options: { position: { col: 0, row: 0, sizeX: 3, sizeY: 8 } },
    });
    const options = { position: { col: 3, row: 2, sizeX: 2, sizeY: 4 }, isHidden: true };
    const saved = await member.post(`/api/widgets/${widget.id}`, {
      id: widget.id,
      text: "",
      options,
      width: 7,
      dashboard_id: 999,
      visualization_id: null,
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ id: widget.id, options, width: 1, dashboard_id: board.id });
    expect(saved.body.visualization.id).toBe(shopQuery.vizId);

    refused(await member.post(`/api/widgets/${widget.id}`, { options }), 400);
    refused(await member.post(`/api/widgets/${widget.id}`, { text: "" }), 400);
    refused(await member.post(`/api/widgets/${widget.id}`, { text: "", options: "x" }), 400);
    refused(await colleague.post(`/api/widgets/${widget.id}`, { text: "", options: {} }), 403);
    refused(await colleague.delete(`/api/widgets/${widget.id}`), 403);
    refused(await member.post("/api/widgets/999999", { text: "", options: {} }), 404);
    refused(await member.delete("/api/widgets/abc"), 404);
    expect((await member.get(`/api/dashboards/${board.id}`)).body.widgets[0].options).toEqual(
      options,
    );

    const removed = await member.delete(`/api/widgets/${widget.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toBeNull();
    expect((await member.get(`/api/dashboards/${board.id}`)).body.widgets).toEqual([]);
    refused(await member.delete(`/api/widgets/${widget.id}`), 404);
  });

  it("shows a widget whose data source the caller cannot see as restricted, leaking nothing", async () => {
    const board = await newDashboard(admin, "Mixed access");
    await admin.post(`/api/dashboards/${board.id}`, { is_draft: false });
    const open = await addWidget(admin, {
      dashboard_id: board.id,
      visualization_id: shopQuery.vizId,
    });
    const hidden = await addWidget(admin, {
      dashboard_id: board.id,
      visualization_id: secretQuery.vizId,
      text: "secret note",
      options: { position: { col: 3, row: 0, sizeX: 3, sizeY: 8 } },
    });
    const asAdmin = (await admin.get(`/api/dashboards/${board.id}`)).body;
    expect(asAdmin.widgets.some((w: { restricted?: boolean }) => w.restricted)).toBe(false);

    for (const client of [member, viewer]) {
      const res = await client.get(`/api/dashboards/${board.id}`);
      expect(res.status).toBe(200);
      const [shown, restricted] = res.body.widgets;
      expect(shown.id).toBe(open.id);
      expect(shown).not.toHaveProperty("restricted");
      expect(shown.visualization.query.query).toBe(shopQuery.query);
      expect(restricted).toEqual({
        id: hidden.id,
        width: 1,
        dashboard_id: board.id,
        options: { position: { col: 3, row: 0, sizeX: 3, sizeY: 8 } },
        created_at: hidden.created_at,
        updated_at: hidden.updated_at,
        restricted: true,
      });
      expect(res.text).not.toContain("top secret formula");
      expect(res.text).not.toContain("secret note");
      expect(res.body.can_edit).toBe(false);
    }
    // View access is enough to show a visualization on one's own dashboard.
    const viewersBoard = await newDashboard(viewer, "Viewer's own");
    await addWidget(viewer, { dashboard_id: viewersBoard.id, visualization_id: shopQuery.vizId });
    refused(
      await outsider.post("/api/widgets", {
        dashboard_id: (await newDashboard(outsider, "Outsider's own")).id,
        visualization_id: shopQuery.vizId,
      }),
      403,
    );
    const outside = (await outsider.get(`/api/dashboards/${board.id}`)).body;
    expect(outside.widgets.every((w: { restricted?: boolean }) => w.restricted)).toBe(true);
  });

  it("saves with optimistic locking, publishes and unpublishes, for owner, admin and grantees", async () => {
    const board = await newDashboard(member, "Locked");
    const saved = await member.post(`/api/dashboards/${board.id}`, {
      name: "Locked v2",
      version: 1,
      tags: ["a", "b"],
      is_draft: false,
      dashboard_filters_enabled: true,
      options: { globalParamOrder: ["x"] },
      layout: [[1, 2]],
      user_id: 999,
      slug: "ignored",
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      name: "Locked v2",
      slug: "locked-v2",
      version: 2,
      tags: ["a", "b"],
      is_draft: false,
      dashboard_filters_enabled: true,
      options: { globalParamOrder: ["x"] },
      layout: [[1, 2]],
      user_id: memberId,
      widgets: [],
      is_favorite: false,
    });
    expect(saved.body).not.toHaveProperty("can_edit");
    refused(await member.post(`/api/dashboards/${board.id}`, { name: "stale", version: 1 }), 409);
    // Two saves of the same version at once: one wins, the other is told.
    const race = await Promise.all(
      ["first", "second"].map((name) =>
        member.post(`/api/dashboards/${board.id}`, { tags: [name], version: 2 }),
      ),
    );
    expect(race.map((r) => r.status).sort()).toEqual([200, 409]);
    const winner = race.find((r) => r.status === 200)!.body;
    expect(
      (await member.post(`/api/dashboards/${board.id}`, { is_draft: true })).body,
    ).toMatchObject({ is_draft: true, version: 4, tags: winner.tags });
    await member.post(`/api/dashboards/${board.id}`, { tags: ["a", "b"] });

    refused(await colleague.post(`/api/dashboards/${board.id}`, { name: "Not mine" }), 403);
    refused(await viewer.post(`/api/dashboards/${board.id}`, { name: "Not mine" }), 403);
    refused(await member.post(`/api/dashboards/${board.id}`, { tags: "a" }), 400);
    refused(await member.post(`/api/dashboards/${board.id}`, { is_draft: "yes" }), 400);
    refused(await member.post(`/api/dashboards/${board.id}`, { options: [] }), 400);
    refused(await member.post(`/api/dashboards/${board.id}`, { name: "" }), 400);
    refused(await member.post(`/api/dashboards/${board.id}`, { version: "3" }), 400);
    refused(
      await member.post(`/api/dashboards/${board.id}`, { layout: "x".repeat(1_000_001) }),
      400,
    );
    refused(await member.post("/api/dashboards/999999", { name: "x" }), 404);
    refused(await member.post(`/api/dashboards/${other.query.id}x`, { name: "x" }), 404);
    const unchanged = (await member.get(`/api/dashboards/${board.id}`)).body;
    expect(unchanged).toMatchObject({ name: "Locked v2", version: 5, tags: ["a", "b"] });

    expect((await admin.post(`/api/dashboards/${board.id}`, { name: "By admin" })).status).toBe(
      200,
    );
    await member.post(`/api/dashboards/${board.id}/acl`, {
      access_type: "modify",
      user_id: colleagueId,
    });
    expect((await colleague.get(`/api/dashboards/${board.id}`)).body.can_edit).toBe(true);
    const byGrantee = await colleague.post(`/api/dashboards/${board.id}`, { name: "By grantee" });
    expect(byGrantee.status).toBe(200);
    expect(byGrantee.body.user_id).toBe(memberId);
  });

  it("lists only visible dashboards, with search, tags, ordering, paging and tag counts", async () => {
    // Published, with a widget on a data source the member's group sees.
    const shared = await newDashboard(admin, "Shared Revenue");
    await addWidget(admin, { dashboard_id: shared.id, visualization_id: shopQuery.vizId });
    await admin.post(`/api/dashboards/${shared.id}`, { is_draft: false, tags: ["sales", "team"] });
    // Not for the member: a draft, a text-only one, and one showing only the secret source.
    const draft = await newDashboard(admin, "Admin Draft Revenue");
    await addWidget(admin, { dashboard_id: draft.id, visualization_id: shopQuery.vizId });
    const textOnly = await newDashboard(admin, "Text Only Revenue");
    await addWidget(admin, { dashboard_id: textOnly.id, visualization_id: null, text: "hi" });
    await admin.post(`/api/dashboards/${textOnly.id}`, { is_draft: false });
    const secretOnly = await newDashboard(admin, "Secret Revenue");
    await addWidget(admin, { dashboard_id: secretOnly.id, visualization_id: secretQuery.vizId });
    await addWidget(admin, { dashboard_id: secretOnly.id, visualization_id: secretQuery.vizId });
    await admin.post(`/api/dashboards/${secretOnly.id}`, { is_draft: false });
    // Two widgets on the shared one: still listed once.
    await addWidget(admin, { dashboard_id: shared.id, visualization_id: shopQuery.vizId });
    const own = await newDashboard(member, "Member Revenue Draft");
    await member.post(`/api/dashboards/${own.id}`, { tags: ["sales"] });

    const list = await member.get("/api/dashboards?q=revenue");
    expect(list.status).toBe(200);
    const ids = list.body.results.map((d: { id: number }) => d.id);
    expect(ids).toContain(shared.id);
    expect(ids).toContain(own.id);
    expect(ids).not.toContain(draft.id);
    expect(ids).not.toContain(textOnly.id);
    expect(ids).not.toContain(secretOnly.id);
    expect(ids.filter((id: number) => id === shared.id)).toHaveLength(1);
    const item = list.body.results.find((d: { id: number }) => d.id === shared.id);
    expect(item).toMatchObject({ widgets: null, is_favorite: false, user: { name: "Ada Admin" } });
    expect(item).not.toHaveProperty("starred_at");
    expect(item).not.toHaveProperty("can_edit");

    // The admin lists by the same rule (no bypass) but sees their own.
    const adminIds = (await admin.get("/api/dashboards?q=revenue&page_size=100")).body.results.map(
      (d: { id: number }) => d.id,
    );
    expect(adminIds).toEqual(expect.arrayContaining([shared.id, draft.id, textOnly.id]));
    expect(adminIds).not.toContain(own.id);

    const tagged = await member.get("/api/dashboards?tags=sales&tags=team");
    expect(tagged.body.results.map((d: { id: number }) => d.id)).toEqual([shared.id]);
    const byName = await member.get("/api/dashboards?q=REVENUE&order=name");
    expect(byName.body.results.map((d: { name: string }) => d.name)).toEqual([
      "Member Revenue Draft",
      "Shared Revenue",
    ]);
    const desc = await member.get("/api/dashboards?q=revenue&order=-name");
    expect(desc.body.results[0].name).toBe("Shared Revenue");
    const paged = await member.get("/api/dashboards?q=revenue&page=2&page_size=1");
    expect(paged.body).toMatchObject({ count: 2, page: 2, page_size: 1 });
    expect(paged.body.results).toHaveLength(1);
    refused(await member.get("/api/dashboards?page=0"), 400);
    refused(await member.get("/api/dashboards?q=revenue&page=9"), 400);
    refused(await member.get("/api/dashboards?page_size=251"), 400);
    expect((await reader.get("/api/dashboards/my")).body.count).toBe(0);

    const mine = (await member.get("/api/dashboards/my?page_size=100")).body.results;
    expect(mine.every((d: { user_id: number }) => d.user_id === memberId)).toBe(true);
    expect(mine.map((d: { id: number }) => d.id)).toContain(own.id);

    const tags = (await member.get("/api/dashboards/tags")).body.tags;
    expect(tags).toEqual(
      expect.arrayContaining([
        { name: "sales", count: 2 },
        { name: "team", count: 1 },
      ]),
    );
    const names = tags.map((t: { name: string }) => t.name);
    expect(names).toEqual([...names].sort());

    expect((await outsider.get("/api/dashboards/tags")).body.tags).toEqual([]);
    const outsiderList = await outsider.get("/api/dashboards?q=revenue");
    expect(outsiderList.body.results).toEqual([]);
  });

  it("favorites: add, list with starred_at, remove; recent views", async () => {
    const board = await newDashboard(member, "Favorite Board");
    refused(await member.post("/api/dashboards/999999/favorite"), 404);
    refused(await member.post(`/api/dashboards/${board.id}x/favorite`), 404);
    const added = await member.post(`/api/dashboards/${board.id}/favorite`);
    expect(added.status).toBe(200);
    expect(added.body).toBeNull();
    expect((await member.post(`/api/dashboards/${board.id}/favorite`)).status).toBe(200);
    expect((await member.get(`/api/dashboards/${board.id}`)).body.is_favorite).toBe(true);

    const favorites = (await member.get("/api/dashboards/favorites")).body;
    expect(favorites.count).toBe(1);
    expect(favorites.results[0]).toMatchObject({ id: board.id, is_favorite: true });
    expect(favorites.results[0].starred_at).toEqual(expect.any(String));
    const inList = (await member.get("/api/dashboards?q=favorite")).body.results[0];
    expect(inList).toMatchObject({ id: board.id, is_favorite: true });
    expect((await colleague.get("/api/dashboards/favorites")).body.count).toBe(0);

    expect((await member.delete(`/api/dashboards/${board.id}/favorite`)).body).toBeNull();
    expect((await member.get("/api/dashboards/favorites")).body.count).toBe(0);

    const older = await newDashboard(member, "Viewed first");
    await member.get(`/api/dashboards/${older.id}`);
    await new Promise((r) => setTimeout(r, 5));
    await member.get(`/api/dashboards/${board.id}`);
    await flushEvents(server.ctx.database.db);
    // The view events are written a moment later: wait for them.
    let recentIds: number[] = [];
    for (let i = 0; i < 100; i += 1) {
      const recent = await member.get("/api/dashboards/recent");
      expect(recent.status).toBe(200);
      recentIds = recent.body.slice(0, 2).map((d: { id: number }) => d.id);
      if (recentIds[0] === board.id) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(recentIds).toEqual([board.id, older.id]);
  });

  it("archives (owner, admin or grantee only); archived dashboards leave the lists", async () => {
    const board = await newDashboard(member, "Archive me");
    refused(await colleague.delete(`/api/dashboards/${board.id}`), 403);
    refused(await member.delete("/api/dashboards/999999"), 404);
    const archived = await member.delete(`/api/dashboards/${board.id}`);
    expect(archived.status).toBe(200);
    expect(archived.body).toMatchObject({ id: board.id, is_archived: true, widgets: [] });
    const mine = (await member.get("/api/dashboards/my?q=archive")).body;
    expect(mine.count).toBe(0);
    expect((await member.get(`/api/dashboards/${board.id}`)).body.is_archived).toBe(true);
  });

  it("forks a dashboard with the widgets the caller may view, as a draft of the caller's", async () => {
    const board = await newDashboard(admin, "Original");
    await admin.post(`/api/dashboards/${board.id}`, {
      tags: ["t"],
      dashboard_filters_enabled: true,
      options: { globalParamOrder: ["a"] },
      is_draft: false,
    });
    const w1 = await addWidget(admin, {
      dashboard_id: board.id,
      visualization_id: shopQuery.vizId,
      options: { position: { col: 0, row: 0, sizeX: 3, sizeY: 8 } },
    });
    await addWidget(admin, { dashboard_id: board.id, visualization_id: secretQuery.vizId });
    await addWidget(admin, { dashboard_id: board.id, visualization_id: null, text: "note" });
    const fork = await member.post(`/api/dashboards/${board.id}/fork`, { id: board.id });
    expect(fork.status).toBe(200);
    expect(fork.body).toMatchObject({
      name: `Copy of (#${board.id}) Original`,
      user_id: memberId,
      is_draft: true,
      tags: ["t"],
      dashboard_filters_enabled: true,
      options: {},
      version: 1,
    });
    // The widget on the secret data source, which the member sees restricted, is left out: a
    // fork holds only what the forker may view (issue 24).
    expect(fork.body.widgets).toHaveLength(2);
    const [viz, text] = fork.body.widgets;
    expect(viz).toMatchObject({ options: w1.options, visualization: { id: shopQuery.vizId } });
    expect(viz.id).not.toBe(w1.id);
    expect(text.text).toBe("note");
    expect((await admin.get(`/api/dashboards/${fork.body.id}`)).body.widgets).toHaveLength(2);
    // A fork's stored slug is its id.
    expect((await member.get(`/api/dashboards/${fork.body.id}?legacy`)).body.id).toBe(fork.body.id);
    refused(await member.post("/api/dashboards/999999/fork"), 404);
    refused(await reader.post(`/api/dashboards/${board.id}/fork`), 403);
  });

  it("archiving a query removes its widgets", async () => {
    const query = await newQuery(
      (await admin.get(`/api/queries/${shopQuery.id}`)).body.data_source_id,
      "SELECT 2 AS doomed",
    );
    const board = await newDashboard(admin, "Loses a widget");
    await addWidget(admin, { dashboard_id: board.id, visualization_id: query.vizId });
    const kept = await addWidget(admin, {
      dashboard_id: board.id,
      visualization_id: null,
      text: "k",
    });
    expect((await admin.delete(`/api/queries/${query.id}`)).status).toBe(200);
    const widgets = (await admin.get(`/api/dashboards/${board.id}`)).body.widgets;
    expect(widgets.map((w: { id: number }) => w.id)).toEqual([kept.id]);
  });

  it("grants and revokes modify access through the dashboard ACL", async () => {
    const board = await newDashboard(member, "ACL");
    expect((await member.get(`/api/dashboards/${board.id}/acl`)).body).toEqual({});
    refused(
      await colleague.post(`/api/dashboards/${board.id}/acl`, {
        access_type: "modify",
        user_id: colleagueId,
      }),
      403,
    );
    refused(
      await member.post(`/api/dashboards/${board.id}/acl`, { access_type: "own", user_id: 1 }),
      400,
    );
    refused(
      await member.post(`/api/dashboards/${board.id}/acl`, {
        access_type: "modify",
        user_id: other.user.id,
      }),
      400,
    );
    const granted = await member.post(`/api/dashboards/${board.id}/acl`, {
      access_type: "modify",
      user_id: colleagueId,
    });
    expect(granted.body).toMatchObject({
      object_id: board.id,
      object_type: "dashboards",
      access_type: "modify",
      grantor: memberId,
      grantee: colleagueId,
    });
    const acl = (await member.get(`/api/dashboards/${board.id}/acl`)).body;
    expect(acl.modify.map((u: { id: number }) => u.id)).toEqual([colleagueId]);
    expect((await colleague.get(`/api/dashboards/${board.id}/acl/modify`)).body).toEqual({
      response: true,
    });
    expect((await colleague.post(`/api/dashboards/${board.id}`, { name: "Granted" })).status).toBe(
      200,
    );
    const revoked = await member.request("DELETE", `/api/dashboards/${board.id}/acl`, {
      json: { access_type: "modify", user_id: colleagueId },
    });
    expect(revoked.status).toBe(200);
    refused(await colleague.post(`/api/dashboards/${board.id}`, { name: "Revoked" }), 403);
    refused(await member.get("/api/dashboards/999999/acl"), 404);
  });

  it("treats another organisation's dashboards and widgets as unknown", async () => {
    const db = server.ctx.database.db;
    const foreign = await insertTestDashboard(db, other.org.id, {
      name: "Foreign",
      userId: other.user.id,
      slug: "foreign",
    });
    const foreignWidget = await insertWidget(db, {
      dashboard_id: foreign.id,
      visualization_id: null,
      text: "foreign",
      width: 1,
      options: {},
    });
    const before = [await count("dashboards"), await count("widgets")];
    for (const res of [
      await admin.get(`/api/dashboards/${foreign.id}`),
      await admin.get("/api/dashboards/foreign?legacy"),
      await admin.post(`/api/dashboards/${foreign.id}`, { name: "Mine now" }),
      await admin.delete(`/api/dashboards/${foreign.id}`),
      await admin.post(`/api/dashboards/${foreign.id}/fork`),
      await admin.post(`/api/dashboards/${foreign.id}/favorite`),
      await admin.get(`/api/dashboards/${foreign.id}/acl`),
      await admin.post("/api/widgets", {
        dashboard_id: foreign.id,
        visualization_id: null,
        text: "",
        options: {},
      }),
      await admin.post(`/api/widgets/${foreignWidget.id}`, { text: "x", options: {} }),
      await admin.delete(`/api/widgets/${foreignWidget.id}`),
    ]) {
      refused(res, 404);
    }
    expect([await count("dashboards"), await count("widgets")]).toEqual(before);
    const list = (await admin.get("/api/dashboards?q=foreign")).body;
    expect(list.count).toBe(0);
  });

  it("records Redash's dashboard and widget events", async () => {
    const board = await newDashboard(member, "Evented");
    await member.get("/api/dashboards");
    await member.get("/api/dashboards?q=evented");
    await member.get("/api/dashboards/favorites?q=x");
    await member.get(`/api/dashboards/${board.id}`);
    await member.post(`/api/dashboards/${board.id}`, { name: "Evented 2" });
    await member.post(`/api/dashboards/${board.id}/favorite`);
    await member.delete(`/api/dashboards/${board.id}/favorite`);
    await member.post(`/api/dashboards/${board.id}/fork`);
    const widget = await addWidget(member, { dashboard_id: board.id, visualization_id: null });
    await member.delete(`/api/widgets/${widget.id}`);
    await member.delete(`/api/dashboards/${board.id}`);
    await flushEvents(server.ctx.database.db);
    const readEvents = () =>
      server.ctx.database.db
        .selectFrom("events")
        .select(["action", "object_type", "object_id", "additional_properties"])
        .where("user_id", "=", memberId)
        .where("object_type", "in", ["dashboard", "widget"])
        .orderBy("id")
        .execute();
    const id = String(board.id);
    // Reads' events are written a moment later: wait for the view.
    let events = await readEvents();
    for (
      let i = 0;
      i < 100 && !events.some((e) => e.action === "view" && e.object_id === id);
      i++
    ) {
      await new Promise((r) => setTimeout(r, 50));
      events = await readEvents();
    }
    const seen = events.map((e) => `${e.action} ${e.object_type} ${e.object_id ?? ""}`.trim());
    expect(seen).toEqual(
      expect.arrayContaining([
        "list dashboard",
        "search dashboard evented",
        "load_favorites dashboard",
        `view dashboard ${id}`,
        `edit dashboard ${id}`,
        `favorite dashboard ${id}`,
        `unfavorite dashboard ${id}`,
        `fork dashboard ${id}`,
        `delete widget ${widget.id}`,
        `archive dashboard ${id}`,
      ]),
    );
    const search = events.find((e) => e.action === "search" && e.object_id === "evented");
    expect(JSON.parse(search!.additional_properties)).toMatchObject({ term: "evented" });
  });

  it("shares a dashboard through one share key, read publicly without query text", async () => {
    const board = await newDashboard(member, "Shared publicly");
    await addWidget(member, {
      dashboard_id: board.id,
      visualization_id: shopQuery.vizId,
      options: { position: { col: 0, row: 0, sizeX: 3, sizeY: 8 } },
    });
    await addWidget(member, {
      dashboard_id: board.id,
      visualization_id: null,
      text: "Public note",
    });
    refused(await colleague.post(`/api/dashboards/${board.id}/share`), 403);
    refused(await member.post("/api/dashboards/999999/share"), 404);
    expect(await count("dashboards")).toBeGreaterThan(0);

    const shared = await member.post(`/api/dashboards/${board.id}/share`);
    expect(shared.status).toBe(200);
    expect(shared.body.api_key).toMatch(/^[A-Za-z0-9]{40}$/);
    expect(shared.body.public_url).toBe(
      `${server.url}/public/dashboards/${shared.body.api_key}?org_slug=default`,
    );
    // Sharing again (or by an admin) gives the same link.
    expect((await member.post(`/api/dashboards/${board.id}/share`)).body).toEqual(shared.body);
    expect((await admin.post(`/api/dashboards/${board.id}/share`)).body).toEqual(shared.body);
    expect((await member.get(`/api/dashboards/${board.id}`)).body).toMatchObject(shared.body);
    expect((await admin.get(`/api/dashboards/${board.id}`)).body).toMatchObject(shared.body);
    // Others are not given the key: it would open widgets restricted to them.
    const asColleague = (await colleague.get(`/api/dashboards/${board.id}`)).body;
    expect(asColleague).not.toHaveProperty("public_url");
    expect(asColleague).not.toHaveProperty("api_key");

    const anonymous = new TestClient(server.url);
    const page = await anonymous.get(`/api/dashboards/public/${shared.body.api_key}`);
    expect(page.status).toBe(200);
    expect(page.headers.get("x-frame-options")).toBeNull();
    expect(Object.keys(page.body).sort()).toEqual([
      "created_at",
      "dashboard_filters_enabled",
      "layout",
      "name",
      "options",
      "updated_at",
      "widgets",
    ]);
    const [viz, text] = page.body.widgets;
    expect(viz.visualization).toMatchObject({ type: "TABLE", query: { id: shopQuery.id } });
    expect(viz.visualization).not.toHaveProperty("id");
    expect(Object.keys(viz.visualization.query).sort()).toEqual([
      "description",
      "id",
      "name",
      "options",
    ]);
    expect(text.text).toBe("Public note");
    expect(page.text).not.toContain(shopQuery.query);
    // A signed-in user reads it with the key too.
    expect((await outsider.get(`/api/dashboards/public/${shared.body.api_key}`)).status).toBe(200);

    refused(await anonymous.get("/api/dashboards/public/not-a-key"), 404);
    refused(await member.get("/api/dashboards/public/not-a-key"), 404);
    expect(
      (await admin.post("/api/settings/organization", { disable_public_urls: true })).status,
    ).toBe(200);
    const disabled = await anonymous.get(`/api/dashboards/public/${shared.body.api_key}`);
    expect(disabled.status).toBe(400);
    expect(disabled.body).toEqual({ message: "Public URLs are disabled." });
    await admin.post("/api/settings/organization", { disable_public_urls: false });

    refused(await colleague.delete(`/api/dashboards/${board.id}/share`), 403);
    expect((await member.delete(`/api/dashboards/${board.id}/share`)).body).toBeNull();
    expect((await member.delete(`/api/dashboards/${board.id}/share`)).status).toBe(200);
    refused(await anonymous.get(`/api/dashboards/public/${shared.body.api_key}`), 404);
    expect((await member.get(`/api/dashboards/${board.id}`)).body).not.toHaveProperty("public_url");
    // Sharing again makes a new key.
    const again = (await member.post(`/api/dashboards/${board.id}/share`)).body;
    expect(again.api_key).not.toBe(shared.body.api_key);
  });

  it("serves a Redash client script: user API key, bodies without a Content-Type", async () => {
    const apiKey = await ownApiKey(member);
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(server.url + path, {
        method,
        body: body === undefined ? undefined : JSON.stringify(body),
        headers: { authorization: `Key ${apiKey}` },
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    const created = await call("POST", "/api/dashboards", { name: "Scripted" });
    expect(created.status).toBe(200);
    const id = created.body.id;
    const widget = await call("POST", "/api/widgets", {
      dashboard_id: id,
      visualization_id: shopQuery.vizId,
      text: "",
      width: 1,
      options: { position: { col: 0, row: 0, sizeX: 3, sizeY: 8 } },
    });
    expect(widget.status).toBe(200);
    // The version the script read before adding the widget still saves: only widgets changed
    // since (the widget made version 2, issue 29).
    const published = await call("POST", `/api/dashboards/${id}`, { is_draft: false, version: 1 });
    expect(published.body).toMatchObject({ is_draft: false, version: 3 });
    const read = await call("GET", `/api/dashboards/${id}`);
    expect(read.body.widgets.map((w: { id: number }) => w.id)).toEqual([widget.body.id]);
    const listed = await call("GET", "/api/dashboards?q=scripted");
    expect(listed.body.results.map((d: { id: number }) => d.id)).toEqual([id]);
    expect((await call("DELETE", `/api/widgets/${widget.body.id}`)).body).toBeNull();
    expect((await call("DELETE", `/api/dashboards/${id}`)).body.is_archived).toBe(true);
  });

  it("asks for list_dashboards, create_dashboard and edit_dashboard where Redash does", async () => {
    const board = await newDashboard(member, "Permissions");
    const group = await newGroup(server, "query people", ["view_query", "execute_query"]);
    const { client: queryOnly } = await userClient(server, "queries@example.com", [group.id]);
    for (const path of [
      "/api/dashboards",
      "/api/dashboards/my",
      "/api/dashboards/recent",
      "/api/dashboards/tags",
      `/api/dashboards/${board.id}`,
    ]) {
      refused(await queryOnly.get(path), 403);
    }
    // Favorites need only a signed-in user.
    expect((await queryOnly.get("/api/dashboards/favorites")).status).toBe(200);
    refused(await queryOnly.post("/api/dashboards", { name: "No" }), 403);
    refused(await queryOnly.post(`/api/dashboards/${board.id}/fork`), 403);
    // The reader lists dashboards but may not edit, even their own.
    const readersOwn = await server.ctx.database.db
      .selectFrom("users")
      .select("id")
      .where("email", "=", "reader@example.com")
      .executeTakeFirstOrThrow();
    await member.post(`/api/dashboards/${board.id}/acl`, {
      access_type: "modify",
      user_id: readersOwn.id,
    });
    refused(
      await reader.post(`/api/dashboards/${board.id}`, { name: "Granted, no permission" }),
      403,
    );
    refused(await reader.delete(`/api/dashboards/${board.id}`), 403);
    expect((await member.get(`/api/dashboards/${board.id}`)).body.name).toBe("Permissions");
  });

  it("keeps a Redash-exported dashboard exactly as given", async () => {
    const exported = redashExport(shopQuery.vizId);
    const board = await newDashboard(admin, exported.name);
    const saved = await admin.post(`/api/dashboards/${board.id}`, {
      tags: exported.tags,
      dashboard_filters_enabled: exported.dashboard_filters_enabled,
      options: exported.options,
      layout: exported.layout,
      version: board.version,
    });
    expect(saved.status).toBe(200);
    const created = [];
    for (const w of exported.widgets)
      created.push(await addWidget(admin, { dashboard_id: board.id, ...w }));
    const read = (await admin.get(`/api/dashboards/${board.id}`)).body;
    expect(read).toMatchObject({
      name: exported.name,
      tags: exported.tags,
      dashboard_filters_enabled: true,
      options: exported.options,
      layout: [],
    });
    const back = read.widgets.map((w: Record<string, any>) => ({
      visualization_id: w.visualization?.id ?? null,
      text: w.text,
      width: w.width,
      options: w.options,
    }));
    expect(back).toEqual(exported.widgets);
    expect(JSON.stringify(read.widgets.map((w: { options: unknown }) => w.options))).toBe(
      JSON.stringify(exported.widgets.map((w) => w.options)),
    );
    expect(read.widgets.map((w: { id: number }) => w.id)).toEqual(created.map((w) => w.id));
  });
});

describe.each(DATABASES)("dashboard reads on %s", (db) => {
  let server: TestServer;
  let admin: TestClient;
  let statements = 0;
  let counting = false;

  beforeAll(async () => {
    server = await startTestServer(
      db,
      {},
      { afterSetup: async () => {} },
      {
        // Event inserts are left out: reads' events are written in batches, at any moment.
        onQuery: (text) => {
          if (counting && !/^insert into "events"/i.test(text)) statements += 1;
        },
      },
    );
    admin = await setUpAndLogin(server.url);
  });
  afterAll(async () => {
    await server?.close();
  });

  /**
   * Statements the server runs to answer GET /api/dashboards/<id>: the fewest of a few tries,
   * since the embedded scheduler's own statements may land in any one of them.
   */
  async function statementsFor(dashboardId: number): Promise<number> {
    const counts: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      statements = 0;
      counting = true;
      const res = await admin.get(`/api/dashboards/${dashboardId}`);
      counting = false;
      expect(res.status).toBe(200);
      counts.push(statements);
    }
    return Math.min(...counts);
  }

  it("answers a dashboard of 50 widgets with as many statements as one of 1", async () => {
    const dsId = await createShopDataSource(server, admin, "S");
    const vizIds: number[] = [];
    for (let i = 0; i < 10; i += 1) {
      const q = await admin.post("/api/queries", {
        name: `q${i}`,
        query: `SELECT ${i}`,
        data_source_id: dsId,
      });
      vizIds.push(q.body.visualizations[0].id);
    }
    const small = (await admin.post("/api/dashboards", { name: "One" })).body;
    await admin.post("/api/widgets", {
      dashboard_id: small.id,
      visualization_id: vizIds[0],
      options: {},
    });
    const big = (await admin.post("/api/dashboards", { name: "Fifty" })).body;
    for (let i = 0; i < 50; i += 1) {
      await admin.post("/api/widgets", {
        dashboard_id: big.id,
        visualization_id: i % 5 === 4 ? null : vizIds[i % vizIds.length],
        text: i % 5 === 4 ? "text" : "",
        options: { position: { col: 0, row: i, sizeX: 3, sizeY: 3 } },
      });
    }
    const one = await statementsFor(small.id);
    const fifty = await statementsFor(big.id);
    expect((await admin.get(`/api/dashboards/${big.id}`)).body.widgets).toHaveLength(50);
    expect(one).toBeGreaterThan(0);
    expect(fifty).toBe(one);
  });
});
