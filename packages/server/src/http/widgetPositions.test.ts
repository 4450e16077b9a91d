import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metadataDatabases } from "../testing/services";
import type { TestServer } from "../testing/testServer";
import { startWithAdmin } from "../testing/apiServer";
import type { TestClient } from "../testing/httpClient";
import { refusal } from "../testing/refusal";
import { checkPosition } from "./widgetPosition";

const DATABASES = await metadataDatabases();

/** Positions as Redash stores them and its clients (web app, redash-toolbelt) send them. */
const REDASH_POSITIONS = [
  {
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
  { autoHeight: true, sizeX: 3, sizeY: 3, col: 3, row: 0, minSizeY: 1 },
  // An auto-height widget of older Redash versions, and a position with a key of its own.
  { sizeX: 6, sizeY: -1, col: 0, row: 12, somethingElse: "kept" },
  { col: 0, row: 0 },
  {},
];

describe("widget position check", () => {
  it("accepts Redash's positions, whole numbers written as floats and nulls", () => {
    for (const position of [...REDASH_POSITIONS, null, undefined]) {
      expect(() => checkPosition(position)).not.toThrow();
    }
    expect(() => checkPosition(JSON.parse('{"col": 2.0, "sizeX": 3.0}'))).not.toThrow();
    expect(() => checkPosition({ col: null, autoHeight: null })).not.toThrow();
  });

  it("refuses what is no place on the grid, naming the field", () => {
    const cases: [unknown, string][] = [
      [{ col: -1 }, "options.position.col must be a whole number from 0 to 5."],
      [{ col: 6 }, "options.position.col must be a whole number from 0 to 5."],
      [{ row: "3" }, "options.position.row must be a whole number from 0 to 1000000."],
      [{ row: 1e308 }, "options.position.row must be a whole number from 0 to 1000000."],
      [{ row: 1.5 }, "options.position.row must be a whole number from 0 to 1000000."],
      [{ sizeX: 0 }, "options.position.sizeX must be a whole number from 1 to 6."],
      [{ sizeX: 7 }, "options.position.sizeX must be a whole number from 1 to 6."],
      [{ sizeY: -2 }, "options.position.sizeY must be a whole number from -1 to 1000."],
      [{ sizeY: 1001 }, "options.position.sizeY must be a whole number from -1 to 1000."],
      [{ maxSizeY: 1e9 }, "options.position.maxSizeY must be a whole number from 0 to 1000."],
      [{ minSizeX: [] }, "options.position.minSizeX must be a whole number from 0 to 6."],
      [{ autoHeight: "yes" }, "options.position.autoHeight must be true or false."],
      ["top", "options.position must be an object."],
      [[0, 0], "options.position must be an object."],
    ];
    for (const [position, message] of cases) {
      expect(refusal(() => checkPosition(position))).toBe(message);
    }
  });
});

describe.each(DATABASES)("widget positions through the API on %s", (dbKind) => {
  let server: TestServer;
  let admin: TestClient;
  let dashboardId: number;

  beforeAll(async () => {
    ({ server, admin } = await startWithAdmin(dbKind));
    dashboardId = (await admin.post("/api/dashboards", { name: "Grid" })).body.id;
  });
  afterAll(async () => {
    await server?.close();
  });

  const textWidget = (position: unknown) =>
    admin.post("/api/widgets", {
      dashboard_id: dashboardId,
      visualization_id: null,
      text: "x",
      width: 1,
      options: { isHidden: false, position },
    });

  it("stores Redash's positions as sent", async () => {
    for (const position of REDASH_POSITIONS) {
      const res = await textWidget(position);
      expect(res.status).toBe(200);
      expect(res.body.options.position).toEqual(position);
    }
  });

  it("refuses a bad position on create and on save with a 400, storing nothing", async () => {
    const widgetsBefore = (await admin.get(`/api/dashboards/${dashboardId}`)).body.widgets.length;
    for (const position of [{ col: -3 }, { row: "2" }, { sizeY: 1e308 }, { sizeX: 0 }]) {
      const res = await textWidget(position);
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/^options\.position\.\w+ must be a whole number/);
    }
    const after = (await admin.get(`/api/dashboards/${dashboardId}`)).body.widgets;
    expect(after.length).toBe(widgetsBefore);

    const widget = (await textWidget({ col: 0, row: 0, sizeX: 3, sizeY: 3 })).body;
    const moved = await admin.post(`/api/widgets/${widget.id}`, {
      text: "x",
      options: { position: { col: 1, row: -1, sizeX: 3, sizeY: 3 } },
    });
    expect(moved.status).toBe(400);
    expect(moved.body.message).toBe(
      "options.position.row must be a whole number from 0 to 1000000.",
    );
    const stored = (await admin.get(`/api/dashboards/${dashboardId}`)).body.widgets.find(
      (w: { id: number }) => w.id === widget.id,
    );
    expect(stored.options.position).toEqual({ col: 0, row: 0, sizeX: 3, sizeY: 3 });
  });
});
