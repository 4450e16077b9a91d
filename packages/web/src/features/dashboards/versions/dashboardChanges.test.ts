import { describe, expect, it } from "vitest";
import type { DashboardWidget } from "../../../api/dashboards";
import { summaryLine, summarySentence } from "../../versionHistory/changeWords";
import { dashboardChanges, widgetLabel, type DashboardVersionFields } from "./dashboardChanges";
import { layoutBoxes } from "./layoutBoxes";

function chart(id: number, position: Record<string, number>, extra: Record<string, unknown> = {}) {
  return {
    id,
    text: "",
    options: { position, ...extra },
    visualization: {
      id: id * 10,
      type: "CHART",
      name: "Sales",
      options: {},
      query: { name: "Orders" },
    },
  } as unknown as DashboardWidget;
}

function textBox(id: number, text: string, position: Record<string, number>) {
  return { id, text, options: { position } } as unknown as DashboardWidget;
}

const board = (widgets: DashboardWidget[], more: Partial<DashboardVersionFields> = {}) =>
  ({
    name: "Sales",
    tags: [],
    dashboard_filters_enabled: false,
    options: {},
    widgets,
    ...more,
  }) as DashboardVersionFields;

const details = (a: DashboardVersionFields | null, b: DashboardVersionFields) =>
  dashboardChanges(a, b).map((c) => c.detail);

describe("dashboard version changes", () => {
  const a = chart(1, { col: 0, row: 0, sizeX: 3, sizeY: 8 });
  const b = chart(2, { col: 3, row: 0, sizeX: 3, sizeY: 8 });
  const t = textBox(3, "## Weekly numbers\nFrom the warehouse", {
    col: 0,
    row: 8,
    sizeX: 6,
    sizeY: 2,
  });

  it("names widgets by their query and visualization, text boxes by their first words", () => {
    expect(widgetLabel(a)).toBe('"Orders: Sales"');
    expect(widgetLabel(t)).toBe('Text box "Weekly numbers From the wareh…"');
    expect(widgetLabel(textBox(4, "", {}))).toBe("Text box");
    const table = chart(5, {});
    table.visualization!.name = "Table";
    expect(widgetLabel(table)).toBe('"Orders"');
  });

  it("says a first version created the dashboard", () => {
    expect(summarySentence(dashboardChanges(null, board([a])))).toBe("Dashboard created");
  });

  it("tells widgets moved and resized, with the distance and sizes", () => {
    const moved = chart(1, { col: 3, row: 8, sizeX: 3, sizeY: 8 });
    const resized = chart(2, { col: 3, row: 0, sizeX: 2, sizeY: 4 });
    const changes = dashboardChanges(board([a, b]), board([moved, resized]));
    expect(changes.map((c) => c.detail)).toEqual([
      '"Orders: Sales" moved right 3 columns and down 8 rows',
      '"Orders: Sales" resized from 3×8 to 2×4',
    ]);
    expect(summaryLine(changes)).toBe("1 widget moved, 1 widget resized");
  });

  it("tells widgets and text boxes added, removed and edited", () => {
    const edited = { ...t, text: "## Monthly numbers" };
    const added = textBox(9, "New note", { col: 0, row: 10, sizeX: 3, sizeY: 2 });
    const changes = dashboardChanges(board([a, b, t]), board([a, edited, added]));
    expect(changes.map((c) => c.detail)).toEqual([
      'Text box "Weekly numbers From the wareh…" edited',
      'Text box "New note" added',
      '"Orders: Sales" removed',
    ]);
    expect(summaryLine(changes)).toBe("1 text box edited, 1 text box added, 1 widget removed");
    const two = dashboardChanges(board([]), board([t, added]));
    expect(summaryLine(two)).toBe("2 text boxes added");
    expect(details(board([], { is_draft: true }), board([], { is_draft: false }))).toEqual([
      "Published",
    ]);
  });

  it("tells title, tags, filters, parameter order, widget parameters and settings", () => {
    const mapped = chart(
      1,
      { col: 0, row: 0, sizeX: 3, sizeY: 8 },
      {
        parameterMappings: { region: { name: "region", type: "dashboard-level", mapTo: "region" } },
      },
    );
    const before = board([a], { options: { globalParamOrder: ["a", "b"] } });
    const after = board([mapped], {
      name: "Sales (EU)",
      tags: ["eu"],
      dashboard_filters_enabled: true,
      options: { globalParamOrder: ["b", "a"], crossFilter: { enabled: true } },
    });
    const changes = dashboardChanges(before, after);
    expect(changes.map((c) => c.detail)).toEqual([
      'Title changed from "Sales" to "Sales (EU)"',
      'Tags: added "eu"',
      "Dashboard level filters turned on",
      "Dashboard parameters reordered",
      "Dashboard settings changed",
      'Parameters of "Orders: Sales" changed',
    ]);
    expect(summaryLine(changes)).toBe(
      "title changed, tags changed, dashboard filters turned on, parameters reordered, settings changed, widget parameters changed",
    );
  });

  it("takes a missing position as the default one, so nothing moved", () => {
    const stored = textBox(3, "x", { col: 0, row: 0, sizeX: 3, sizeY: 3 });
    const bare = { ...stored, options: {} } as DashboardWidget;
    expect(details(board([bare]), board([stored]))).toEqual([]);
  });
});

describe("layout preview boxes", () => {
  it("places widgets in percent of the grid and marks what changed", () => {
    const a = chart(1, { col: 0, row: 0, sizeX: 3, sizeY: 5 });
    const b = chart(2, { col: 3, row: 0, sizeX: 3, sizeY: 10 });
    const moved = chart(1, { col: 0, row: 5, sizeX: 3, sizeY: 5 });
    const bigger = chart(2, { col: 3, row: 0, sizeX: 3, sizeY: 5 });
    const added = textBox(3, "note", { col: 0, row: 0, sizeX: 3, sizeY: 5 });
    const preview = layoutBoxes([moved, bigger, added], [a, b]);
    expect(preview.rows).toBe(10);
    expect(preview.boxes.map((x) => [x.id, x.left, x.top, x.width, x.height, x.mark])).toEqual([
      [1, 0, 50, 50, 50, "moved"],
      [2, 50, 0, 50, 50, "resized"],
      [3, 0, 0, 50, 50, "added"],
    ]);
    expect(preview.boxes[2]!.text).toBe(true);
    expect(layoutBoxes([a]).boxes[0]!.mark).toBeNull();
    expect(preview.boxes[2]!.label).toBe("note");
    expect(preview.boxes[0]!.label).toBe("Orders: Sales");
  });

  it("leaves hidden widgets out and keeps an empty layout one row high", () => {
    const hidden = chart(1, { col: 0, row: 0, sizeX: 3, sizeY: 5 }, { isHidden: true });
    expect(layoutBoxes([hidden])).toEqual({ boxes: [], rows: 1 });
  });
});
