import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metadataDatabases } from "../testing/services";
import { startTestServer, type TestServer } from "../testing/testServer";
import { setUpAndLogin, type TestClient } from "../testing/httpClient";

// First-run setup gives a newcomer a working dashboard on the Demo data: a text box about it, the
// demo charts and counter, and a date-range parameter, with results in when it is first opened.

const DATABASES = await metadataDatabases();

interface Position {
  col: number;
  row: number;
  sizeX: number;
  sizeY: number;
}

interface DashboardWidget {
  id: number;
  text?: string;
  options: { position: Position; parameterMappings?: Record<string, unknown> };
  visualization?: {
    type: string;
    query: {
      id: number;
      name: string;
      latest_query_data_id: number | null;
      options: { parameters: { name: string; type: string; value: unknown }[] };
    };
  };
}

interface ListedDashboard {
  id: number;
  name: string;
  is_draft: boolean;
  is_favorite: boolean;
  tags: string[];
}

describe.each(DATABASES)("the Demo dashboard after setup on %s", (db) => {
  let server: TestServer;
  let admin: TestClient;

  beforeAll(async () => {
    server = await startTestServer(db);
    admin = await setUpAndLogin(server.url);
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  const demoDashboard = async () => {
    const list = (await admin.get<{ results: ListedDashboard[] }>("/api/dashboards")).body.results;
    return list.find((d) => d.name === "Demo: Online shop");
  };
  const widgetsOf = async (id: number) =>
    (await admin.get<{ widgets: DashboardWidget[] }>(`/api/dashboards/${id}`)).body.widgets;

  it("is listed, published, tagged demo and a favorite on the admin's home page", async () => {
    const dashboard = await demoDashboard();
    expect(dashboard).toMatchObject({ is_draft: false, is_favorite: true, tags: ["demo"] });
    const favorites = (await admin.get<{ results: ListedDashboard[] }>("/api/dashboards/favorites"))
      .body.results;
    expect(favorites.map((d) => d.id)).toEqual([dashboard!.id]);
  });

  it("has a text box on top, the counter and the charts laid out on the 6-column grid", async () => {
    const widgets = await widgetsOf((await demoDashboard())!.id);
    const text = widgets.find((w) => !w.visualization)!;
    expect(text.text).toContain("online shop");
    // It says that charts can be clicked, what a click does and where the filters show.
    expect(text.text).toContain("Charts and tables can be clicked.");
    expect(text.text).toMatch(/each widget says which filters it follows/);
    expect(text.text).toContain("a city opens that city's orders");
    expect(text.options.position).toMatchObject({ col: 0, row: 0, sizeX: 6 });

    const placed = widgets
      .filter((w) => w.visualization)
      .map((w) => ({
        name: w.visualization!.query.name,
        type: w.visualization!.type,
        ...w.options.position,
      }));
    expect(placed).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: "Demo: Customers", type: "COUNTER", sizeX: 2 }),
        expect.objectContaining({ name: "Demo: Orders per day", type: "CHART", sizeX: 3 }),
        expect.objectContaining({ name: "Demo: Orders by country", type: "CHART", row: 5 }),
        expect.objectContaining({ name: "Demo: Orders by status", type: "CHART", row: 5 }),
        expect.objectContaining({ name: "Demo: Latest orders", type: "TABLE", sizeX: 4 }),
        expect.objectContaining({ name: "Demo: Orders per month", type: "CHART", sizeX: 3 }),
      ]),
    );
    // The drill-down's target is a query of its own, not a widget.
    expect(placed).toHaveLength(6);
    // Nothing overlaps and nothing leaves the grid.
    const cells = new Set<string>();
    for (const w of widgets) {
      const p = w.options.position;
      expect(p.col + p.sizeX).toBeLessThanOrEqual(6);
      for (let c = p.col; c < p.col + p.sizeX; c += 1)
        for (let r = p.row; r < p.row + p.sizeY; r += 1) {
          expect(cells.has(`${c},${r}`)).toBe(false);
          cells.add(`${c},${r}`);
        }
    }
  });

  it("maps the daily chart's date range to a dashboard-level parameter", async () => {
    const widgets = await widgetsOf((await demoDashboard())!.id);
    const daily = widgets.find((w) => w.visualization?.query.name === "Demo: Orders per day")!;
    expect(daily.options.parameterMappings).toEqual({
      period: { name: "period", type: "dashboard-level", mapTo: "period", value: null, title: "" },
    });
    const [period] = daily.visualization!.query.options.parameters;
    expect(period).toMatchObject({
      name: "period",
      type: "date-range",
      value: { start: expect.any(String), end: expect.any(String) },
    });
  });

  it("opens with every widget's result already in, the daily one for its default period", async () => {
    const id = (await demoDashboard())!.id;
    await expect
      .poll(
        async () =>
          (await widgetsOf(id))
            .filter((w) => w.visualization)
            .every((w) => w.visualization!.query.latest_query_data_id !== null),
        { timeout: 90_000, interval: 500 },
      )
      .toBe(true);

    // What the dashboard asks for on opening: any cached result for the parameter's value. It is
    // answered at once from the run at setup (a job would mean the query runs again).
    const daily = (await widgetsOf(id)).find(
      (w) => w.visualization?.query.name === "Demo: Orders per day",
    )!;
    const query = daily.visualization!.query;
    const res = await admin.post<{
      query_result?: { id: number; data: { rows: { day: string; orders: number }[] } };
    }>(`/api/queries/${query.id}/results`, {
      parameters: { period: query.options.parameters[0].value },
      max_age: -1,
    });
    expect(res.status).toBe(200);
    expect(res.body.query_result?.id).toBe(query.latest_query_data_id);
    const rows = res.body.query_result!.data.rows;
    expect(rows.length).toBeGreaterThanOrEqual(28);
    for (const row of rows) expect(row.orders).toBeGreaterThan(0);
    // Generating the data may take a while on a loaded machine.
  }, 120_000);
});
