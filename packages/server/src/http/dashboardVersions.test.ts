// Version history of dashboards (issue 29) through the real HTTP layer, on both metadata stores:
// saves and widget changes make versions, one version with its widgets, restore of the layout,
// text boxes and widgets, rights, conflicts, and the operator's cap on versions kept.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metadataDatabases } from "../testing/services";
import type { TestClient } from "../testing/httpClient";
import { startWithAdminAndMember, type AdminAndMember } from "../testing/signedIn";

const DATABASES = await metadataDatabases();

interface Version {
  version: number;
  user: { id: number; name: string } | null;
  changes: string[];
}
interface Widget {
  id: number;
  text: string;
  width: number;
  options: { position?: Record<string, number> } & Record<string, unknown>;
  visualization?: { id: number };
}
interface DashboardAnswer {
  id: number;
  version: number;
  name: string;
  tags: string[];
  dashboard_filters_enabled: boolean;
  widgets: Widget[] | null;
}

const position = (col: number, row: number) => ({ col, row, sizeX: 3, sizeY: 8 });

describe.each(DATABASES)("dashboard versions on %s", (dbKind) => {
  let ctx: AdminAndMember<TestClient>;
  let admin: TestClient;
  let member: TestClient;
  let visualizationId: number;

  beforeAll(async () => {
    ctx = await startWithAdminAndMember(dbKind, { env: { SIGHTLINE_VERSIONS_PER_OBJECT: "5" } });
    ({ admin, member } = ctx);
    const sources = (await admin.get<{ id: number; name: string }[]>("/api/data_sources")).body;
    const demo = sources.find((s) => s.name === "Demo")!;
    const q = await admin.post<{ id: number }>("/api/queries", {
      name: "Widget source",
      query: "SELECT 1 AS n",
      data_source_id: demo.id,
    });
    const detail = await admin.get<{ visualizations: { id: number }[] }>(
      `/api/queries/${q.body.id}`,
    );
    visualizationId = detail.body.visualizations[0]!.id;
  });
  afterAll(async () => {
    await ctx?.server.close();
  });

  const versions = (client: TestClient, id: number, qs = "") =>
    client.get<{ count: number; page: number; page_size: number; results: Version[] }>(
      `/api/dashboards/${id}/versions${qs}`,
    );
  const get = async (id: number) =>
    (await admin.get<DashboardAnswer>(`/api/dashboards/${id}`)).body;

  async function newDashboard(name = "Versioned board") {
    const res = await admin.post<DashboardAnswer>("/api/dashboards", { name });
    expect(res.status, res.text).toBe(200);
    return res.body;
  }

  it("records saves and widget changes, each with a version of its own", async () => {
    const d = await newDashboard();
    const text = await admin.post<Widget>("/api/widgets", {
      dashboard_id: d.id,
      visualization_id: null,
      text: "Hello",
      width: 1,
      options: { position: position(0, 0) },
    });
    expect(text.status, text.text).toBe(200);
    const chart = await admin.post<Widget>("/api/widgets", {
      dashboard_id: d.id,
      visualization_id: visualizationId,
      width: 1,
      options: { position: position(3, 0), parameterMappings: {} },
    });
    expect(chart.status, chart.text).toBe(200);
    // The page saves its title with the version it loaded: widget changes do not conflict.
    const renamed = await admin.post<DashboardAnswer>(`/api/dashboards/${d.id}`, {
      name: "Renamed board",
      dashboard_filters_enabled: true,
      version: d.version,
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.version).toBe(d.version + 3);
    const list = await versions(admin, d.id);
    expect(list.status, list.text).toBe(200);
    expect(list.body.count).toBe(4);
    expect(list.body.results.map((v) => v.version)).toEqual([
      d.version + 3,
      d.version + 2,
      d.version + 1,
      d.version,
    ]);
    expect(list.body.results[0]!.changes.sort()).toEqual(["dashboard_filters_enabled", "name"]);
    expect(list.body.results[1]!.changes).toEqual(["widgets"]);
    expect(list.body.results[0]!.user).toMatchObject({
      id: ctx.adminUser.id,
      name: ctx.adminUser.name,
    });
    // Another user's title save meanwhile is a conflict.
    const stale = await admin.post(`/api/dashboards/${d.id}`, { name: "X", version: d.version });
    expect(stale.status).toBe(409);
    // A widget saved unchanged is still a widget save; a dashboard saved unchanged is a save
    // (a conflict for older versions, as in Redash).
    const current = (await get(d.id)).version;
    const same = await admin.post(`/api/widgets/${text.body.id}`, {
      text: "Hello",
      options: { position: position(0, 0) },
    });
    expect(same.status, same.text).toBe(200);
    const afterWidget = await admin.post<DashboardAnswer>(`/api/dashboards/${d.id}`, {
      tags: ["a"],
      version: current,
    });
    expect(afterWidget.status, afterWidget.text).toBe(200);
    const unchanged = await admin.post(`/api/dashboards/${d.id}`, { tags: ["a"] });
    expect(unchanged.status).toBe(200);
    const afterSave = await admin.post(`/api/dashboards/${d.id}`, {
      tags: ["b"],
      version: afterWidget.body.version,
    });
    expect(afterSave.status).toBe(409);
  });

  it("restores the layout, text boxes and widgets as a new version", async () => {
    const d = await newDashboard();
    const text = (
      await admin.post<Widget>("/api/widgets", {
        dashboard_id: d.id,
        visualization_id: null,
        text: "Old text",
        width: 1,
        options: { position: position(0, 0) },
      })
    ).body;
    const chart = (
      await admin.post<Widget>("/api/widgets", {
        dashboard_id: d.id,
        visualization_id: visualizationId,
        width: 1,
        options: { position: position(3, 0) },
      })
    ).body;
    const arranged = await get(d.id);
    // Rearranged: the text box moved and edited, the chart removed, a new text box added.
    await admin.post(`/api/widgets/${text.id}`, {
      text: "New text",
      options: { position: position(0, 10) },
    });
    expect((await admin.delete(`/api/widgets/${chart.id}`)).status).toBe(200);
    const added = (
      await admin.post<Widget>("/api/widgets", {
        dashboard_id: d.id,
        visualization_id: null,
        text: "Added later",
        width: 1,
        options: { position: position(3, 20) },
      })
    ).body;
    const renamed = await admin.post<DashboardAnswer>(`/api/dashboards/${d.id}`, {
      name: "Rearranged",
    });

    const old = await admin.get<DashboardAnswer>(
      `/api/dashboards/${d.id}/versions/${arranged.version}`,
    );
    expect(old.status, old.text).toBe(200);
    expect(old.body).toMatchObject({ id: d.id, version: arranged.version, name: d.name });
    expect(old.body.widgets!.map((w) => w.id).sort()).toEqual([text.id, chart.id].sort());

    const restored = await admin.post<DashboardAnswer>(
      `/api/dashboards/${d.id}/versions/${arranged.version}/restore`,
      { version: renamed.body.version },
    );
    expect(restored.status, restored.text).toBe(200);
    expect(restored.body.version).toBe(renamed.body.version + 1);
    expect(restored.body.name).toBe(d.name);
    const widgets = restored.body.widgets!;
    expect(widgets).toHaveLength(2);
    const box = widgets.find((w) => w.id === text.id)!;
    expect(box).toMatchObject({ text: "Old text", options: { position: position(0, 0) } });
    const again = widgets.find((w) => w.visualization?.id === visualizationId)!;
    expect(again.options.position).toEqual(position(3, 0));
    expect(widgets.some((w) => w.id === added.id)).toBe(false);
    const list = await versions(admin, d.id);
    expect(list.body.results[0]).toMatchObject({ version: restored.body.version });
    expect(list.body.results[0]!.changes).toEqual(expect.arrayContaining(["name", "widgets"]));
  });

  it("shows versions to viewers, lets only editors restore, and refuses bad input", async () => {
    const d = await newDashboard();
    await admin.post(`/api/dashboards/${d.id}`, { name: "Second" });
    const list = await versions(member, d.id);
    expect(list.status, list.text).toBe(200);
    expect(list.body.count).toBe(2);
    const refused = await member.post(`/api/dashboards/${d.id}/versions/${d.version}/restore`);
    expect(refused.status).toBe(403);
    expect(refused.body).toHaveProperty("message");
    expect((await get(d.id)).name).toBe("Second");
    const current = (await get(d.id)).version;
    const stale = await admin.post<{ message: string; version: number }>(
      `/api/dashboards/${d.id}/versions/${d.version}/restore`,
      { version: d.version },
    );
    expect(stale.status).toBe(409);
    expect(stale.body.version).toBe(current);
    expect((await admin.get(`/api/dashboards/${d.id}/versions/77`)).status).toBe(404);
    expect((await admin.post(`/api/dashboards/${d.id}/versions/77/restore`, {})).status).toBe(404);
    expect((await admin.get(`/api/dashboards/999999/versions`)).status).toBe(404);
    expect((await versions(admin, d.id, "?page=-1")).status).toBe(400);
    expect((await versions(admin, d.id, "?page_size=1000")).status).toBe(400);
    expect((await get(d.id)).version).toBe(current);
  });

  it("records a version of dashboards whose widgets go with a deleted visualization or archived query", async () => {
    const sources = (await admin.get<{ id: number; name: string }[]>("/api/data_sources")).body;
    const q = await admin.post<{ id: number; version: number }>("/api/queries", {
      name: "Soon gone",
      query: "SELECT 2 AS n",
      data_source_id: sources.find((s) => s.name === "Demo")!.id,
    });
    const chart = await admin.post<{ id: number }>("/api/visualizations", {
      query_id: q.body.id,
      type: "CHART",
      name: "Chart",
      options: {},
    });
    const table = (
      await admin.get<{ visualizations: { id: number }[] }>(`/api/queries/${q.body.id}`)
    ).body.visualizations[0]!;
    const d = await newDashboard();
    for (const id of [chart.body.id, table.id]) {
      await admin.post("/api/widgets", { dashboard_id: d.id, visualization_id: id, width: 1 });
    }
    const before = await get(d.id);
    expect((await admin.delete(`/api/visualizations/${chart.body.id}`)).status).toBe(200);
    const afterDelete = await get(d.id);
    expect(afterDelete.version).toBe(before.version + 1);
    expect((await versions(admin, d.id)).body.results[0]).toMatchObject({
      version: afterDelete.version,
      changes: ["widgets"],
    });
    const queryList = await admin.get<{ results: Version[] }>(`/api/queries/${q.body.id}/versions`);
    expect(queryList.body.results[0]!.changes).toEqual(["visualizations"]);
    expect((await admin.delete(`/api/queries/${q.body.id}`)).status).toBe(200);
    const afterArchive = await get(d.id);
    expect(afterArchive.widgets).toHaveLength(0);
    expect((await versions(admin, d.id)).body.results[0]).toMatchObject({
      version: afterArchive.version,
      changes: ["widgets"],
    });
  });

  it("keeps an archived dashboard's history", async () => {
    const d = await newDashboard();
    const archived = await admin.delete<DashboardAnswer>(`/api/dashboards/${d.id}`);
    expect(archived.status, archived.text).toBe(200);
    const list = await versions(admin, d.id);
    expect(list.body.count).toBe(2);
    expect(list.body.results[0]!.changes).toEqual(["is_archived"]);
  });

  it("keeps the operator's number of versions, the current one always among them", async () => {
    const d = await newDashboard();
    let version = d.version;
    for (let i = 1; i <= 8; i += 1) {
      const saved = await admin.post<DashboardAnswer>(`/api/dashboards/${d.id}`, {
        name: `Save ${i}`,
        version,
      });
      expect(saved.status, saved.text).toBe(200);
      version = saved.body.version;
    }
    const list = await versions(admin, d.id);
    expect(list.body.count).toBe(5);
    expect(list.body.results[0]!.version).toBe(version);
    expect(list.body.results.map((v) => v.version)).toEqual([
      version,
      version - 1,
      version - 2,
      version - 3,
      version - 4,
    ]);
    expect((await admin.get(`/api/dashboards/${d.id}/versions/${d.version}`)).status).toBe(404);
  });
});
