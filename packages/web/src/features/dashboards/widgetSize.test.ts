import { describe, expect, it } from "vitest";
import type { DashboardWidget } from "../../api/dashboards";
import { placeNewWidget, sizeRules, widgetPositions } from "./widgetSize";

const widget = (id: number, type: string | null, position?: object) =>
  ({
    id,
    visualization: type ? { type } : undefined,
    options: { position },
  }) as unknown as DashboardWidget;

describe("widget sizes by kind", () => {
  it("gives each visualization type its default size on the 6-column grid", () => {
    expect(sizeRules("CHART")).toMatchObject({ sizeX: 3, sizeY: 8, minSizeX: 1, minSizeY: 5 });
    expect(sizeRules("TABLE")).toMatchObject({ sizeX: 3, sizeY: 14, autoHeight: true });
    expect(sizeRules("COUNTER")).toMatchObject({ sizeX: 2, sizeY: 5, autoHeight: false });
    expect(sizeRules("DETAILS")).toMatchObject({ sizeX: 2, autoHeight: true });
    expect(sizeRules("PIVOT")).toMatchObject({ sizeX: 3, sizeY: 10, minSizeX: 2 });
    expect(sizeRules("COHORT")).toMatchObject({ sizeX: 3, sizeY: 8, autoHeight: true });
    // Text boxes and unknown types: the grid's default.
    expect(sizeRules(undefined)).toMatchObject({ sizeX: 3, sizeY: 3, autoHeight: false });
    expect(sizeRules("NOPE")).toMatchObject({ sizeX: 3, sizeY: 3 });
  });

  it("places a new widget with its type's size", () => {
    expect(placeNewWidget([], "CHART")).toMatchObject({ col: 0, row: 0, sizeX: 3, sizeY: 8 });
    expect(placeNewWidget([], "TABLE")).toMatchObject({ sizeY: 14, autoHeight: true });
    expect(placeNewWidget([])).toMatchObject({ sizeX: 3, sizeY: 3, autoHeight: false });
  });

  it("keeps Redash-created positions as stored, with the type's auto-height when unset", () => {
    const positions = widgetPositions([
      widget(1, "CHART", { col: 0, row: 0, sizeX: 6, sizeY: 4 }),
      widget(2, "TABLE", { col: 0, row: 4, sizeX: 2, sizeY: 9 }),
      widget(3, "TABLE", { col: 2, row: 4, sizeX: 4, sizeY: 9, autoHeight: false }),
      widget(4, null, { col: 0, row: 13, sizeX: 6, sizeY: -1 }),
    ]);
    expect(positions.get(1)).toMatchObject({ col: 0, row: 0, sizeX: 6, sizeY: 4 });
    expect(positions.get(2)).toMatchObject({ sizeX: 2, sizeY: 9, autoHeight: true });
    expect(positions.get(3)).toMatchObject({ sizeX: 4, sizeY: 9, autoHeight: false });
    // Height below one row: auto, starting at the tallest (9) or 20, plus 5.
    expect(positions.get(4)).toMatchObject({ sizeY: 25, autoHeight: true });
  });
});
