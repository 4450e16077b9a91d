// Drill-down settings (issue 19) are extra keys in widget options and table column options:
// stored and answered exactly as written, so Redash clients read and write them unchanged.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metadataDatabases } from "../testing/services";
import type { TestServer } from "../testing/testServer";
import { startWithAdmin, makeSqliteFile } from "../testing/apiServer";
import { TestClient } from "../testing/httpClient";

const DATABASES = await metadataDatabases();

const drillDown = {
  target: { type: "dashboard", id: 42, slug: "region-detail", name: "Région détail ✓" },
  parameters: {
    region: { column: "name", type: "text" },
    period: { column: "created_at", type: "date-range" },
  },
  newTab: true,
};

describe.each(DATABASES)("drill-down options on %s", (db) => {
  let server: TestServer;
  let admin: TestClient;
  let query: { id: number; vizId: number };

  beforeAll(async () => {
    ({ server, admin } = await startWithAdmin(db));
    const source = await admin.post("/api/data_sources", {
      name: "Shop",
      type: "sqlite",
      options: { dbpath: makeSqliteFile(server) },
    });
    const created = await admin.post("/api/queries", {
      name: "People",
      query: "SELECT id, name FROM people",
      data_source_id: source.body.id,
    });
    expect(created.status).toBe(200);
    query = { id: created.body.id, vizId: created.body.visualizations[0].id };
  });
  afterAll(async () => {
    await server?.close();
  });

  it("keeps a widget's options.drillDown beside Redash's keys, on create, save and fork", async () => {
    const board = (await admin.post("/api/dashboards", { name: "Sales overview" })).body;
    const options = {
      isHidden: false,
      position: { col: 0, row: 0, sizeX: 3, sizeY: 8 },
      parameterMappings: {},
      drillDown,
    };
    const widget = await admin.post("/api/widgets", {
      dashboard_id: board.id,
      visualization_id: query.vizId,
      text: "",
      width: 1,
      options,
    });
    expect(widget.status).toBe(200);
    expect(widget.body.options).toEqual(options);

    // A client that knows nothing of drill-down saves the options it read: the key stays.
    const read = (await admin.get(`/api/dashboards/${board.id}`)).body.widgets[0];
    const moved = { ...read.options, position: { ...read.options.position, row: 4 } };
    const saved = await admin.post(`/api/widgets/${widget.body.id}`, { text: "", options: moved });
    expect(saved.status).toBe(200);
    const again = (await admin.get(`/api/dashboards/${board.id}`)).body.widgets[0];
    expect(JSON.stringify(again.options)).toBe(JSON.stringify(moved));
    expect(again.options.drillDown).toEqual(drillDown);

    // Removing the link is saving the options without it.
    const { drillDown: _removed, ...without } = moved;
    void _removed;
    await admin.post(`/api/widgets/${widget.body.id}`, { text: "", options: without });
    const plain = (await admin.get(`/api/dashboards/${board.id}`)).body.widgets[0];
    expect(plain.options).toEqual(without);

    await admin.post(`/api/widgets/${widget.body.id}`, { text: "", options: moved });
    const fork = await admin.post(`/api/dashboards/${board.id}/fork`, { id: board.id });
    expect(fork.status).toBe(200);
    expect(fork.body.widgets[0].options.drillDown).toEqual(drillDown);
  });

  it("keeps a table column's drillDown next to its link templates", async () => {
    const options = {
      itemsPerPage: 25,
      columns: [
        {
          name: "name",
          displayAs: "link",
          linkUrlTemplate: "{{ @ }}",
          linkTextTemplate: "{{ @ }}",
          linkOpenInNewTab: true,
          drillDown: { ...drillDown, target: { type: "query", id: query.id, name: "People" } },
        },
      ],
    };
    const viz = await admin.post("/api/visualizations", {
      query_id: query.id,
      type: "TABLE",
      name: "Linked table",
      options,
    });
    expect(viz.status).toBe(200);
    const stored = (await admin.get(`/api/queries/${query.id}`)).body.visualizations.find(
      (v: { id: number }) => v.id === viz.body.id,
    );
    expect(JSON.stringify(stored.options)).toBe(JSON.stringify(options));
  });
});
