// Cross-filtering settings (issue 19) are extra keys in the stored dashboard and widget
// `options`: Redash-shaped saves keep and round-trip them, and the public page reads them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metadataDatabases } from "../testing/services";
import { startTestServer, type TestServer } from "../testing/testServer";
import { setUpAndLogin, TestClient } from "../testing/httpClient";

const DATABASES = await metadataDatabases();

const dashboardCrossFilter = {
  enabled: true,
  mappings: { country: { "12": "land" } },
  parameters: { year: { "13": "p_year" } },
};

describe.each(DATABASES)("cross-filter options through the dashboards API on %s", (db) => {
  let server: TestServer;
  let admin: TestClient;

  beforeAll(async () => {
    server = await startTestServer(db);
    admin = await setUpAndLogin(server.url);
  });
  afterAll(async () => {
    await server?.close();
  });

  it("a dashboard keeps options.crossFilter through Redash-shaped saves", async () => {
    const created = await admin.post<{ id: number; version: number }>("/api/dashboards", {
      name: "Filtered",
    });
    expect(created.status, created.text).toBe(200);
    const id = created.body.id;
    // Redash's client saves the whole options object it read, with its own keys changed.
    const options = { globalParamOrder: ["year"], crossFilter: dashboardCrossFilter };
    const saved = await admin.post(`/api/dashboards/${id}`, {
      id,
      options,
      version: created.body.version,
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.options).toEqual(options);

    // A rename (name and tags only, as Redash's header sends it) leaves the options alone.
    const renamed = await admin.post(`/api/dashboards/${id}`, { id, name: "Renamed", tags: [] });
    expect(renamed.status, renamed.text).toBe(200);
    const read = await admin.get<{ options: unknown; version: number }>(`/api/dashboards/${id}`);
    expect(read.body.options).toEqual(options);

    // Read, change a Redash key, save back: the extra key round-trips.
    const back = { ...(read.body.options as object), globalParamOrder: [] };
    const resaved = await admin.post(`/api/dashboards/${id}`, {
      id,
      options: back,
      version: read.body.version,
    });
    expect(resaved.status, resaved.text).toBe(200);
    expect((await admin.get(`/api/dashboards/${id}`)).body.options).toEqual({
      globalParamOrder: [],
      crossFilter: dashboardCrossFilter,
    });
  });

  it("a widget keeps options.crossFilter through Redash-shaped saves; the public page reads both", async () => {
    const board = await admin.post<{ id: number; version: number }>("/api/dashboards", {
      name: "Shared filters",
    });
    const boardId = board.body.id;
    await admin.post(`/api/dashboards/${boardId}`, {
      id: boardId,
      options: { crossFilter: dashboardCrossFilter },
      version: board.body.version,
    });
    const position = { col: 0, row: 0, sizeX: 3, sizeY: 4 };
    const created = await admin.post<{ id: number }>("/api/widgets", {
      dashboard_id: boardId,
      visualization_id: null,
      text: "Notes",
      width: 1,
      options: { isHidden: false, position, crossFilter: { enabled: false } },
    });
    expect(created.status, created.text).toBe(200);
    const widgetId = created.body.id;

    // Redash's layout save: the widget's options as read, with a new position.
    const read = await admin.get<{ widgets: { id: number; options: Record<string, unknown> }[] }>(
      `/api/dashboards/${boardId}`,
    );
    const stored = read.body.widgets.find((w) => w.id === widgetId)!.options;
    expect(stored.crossFilter).toEqual({ enabled: false });
    const moved = { ...stored, position: { ...position, row: 4 } };
    const saved = await admin.post(`/api/widgets/${widgetId}`, { text: "Notes", options: moved });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.options).toEqual(moved);

    const share = await admin.post<{ api_key: string }>(`/api/dashboards/${boardId}/share`);
    expect(share.status, share.text).toBe(200);
    const visitor = new TestClient(server.url);
    const page = await visitor.get<{
      options: Record<string, unknown>;
      widgets: { id: number; options: Record<string, unknown> }[];
    }>(`/api/dashboards/public/${share.body.api_key}`);
    expect(page.status, page.text).toBe(200);
    expect(page.body.options.crossFilter).toEqual(dashboardCrossFilter);
    expect(page.body.widgets.find((w) => w.id === widgetId)?.options.crossFilter).toEqual({
      enabled: false,
    });
  });
});
