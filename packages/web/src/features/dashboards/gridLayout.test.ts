import { describe, expect, it } from "vitest";
import { changedPositions, fullPosition, newWidgetPosition, readingOrder } from "./gridLayout";

describe("dashboard grid", () => {
  it("fills a partial or out-of-range position with the spec's defaults and limits", () => {
    expect(fullPosition(undefined)).toMatchObject({ col: 0, row: 0, sizeX: 3, sizeY: 3 });
    expect(fullPosition({ col: 5, sizeX: 4, sizeY: 5000 })).toMatchObject({
      col: 2,
      sizeX: 4,
      sizeY: 1000,
      minSizeX: 1,
      maxSizeX: 6,
    });
    expect(fullPosition({ sizeX: 0, sizeY: -2 })).toMatchObject({ sizeX: 1, sizeY: 1 });
  });

  it("puts a new widget at the highest free spot that fits, leftmost on a tie", () => {
    expect(newWidgetPosition([])).toMatchObject({ col: 0, row: 0, sizeX: 3, sizeY: 3 });
    const left = fullPosition({ col: 0, row: 0, sizeX: 3, sizeY: 4 });
    expect(newWidgetPosition([left])).toMatchObject({ col: 3, row: 0 });
    const right = fullPosition({ col: 3, row: 0, sizeX: 3, sizeY: 2 });
    expect(newWidgetPosition([left, right])).toMatchObject({ col: 3, row: 2 });
    // A full-width widget goes under everything.
    expect(newWidgetPosition([left, right], 6)).toMatchObject({ col: 0, row: 4, sizeX: 6 });
  });

  it("reports only the widgets whose position changed, and ends auto-height on a new height", () => {
    const current = new Map([
      [1, fullPosition({ col: 0, row: 0, sizeX: 3, sizeY: 3, autoHeight: true })],
      [2, fullPosition({ col: 3, row: 0, sizeX: 3, sizeY: 3, autoHeight: true })],
      [3, fullPosition({ col: 0, row: 3 })],
    ]);
    const changed = changedPositions(current, [
      { i: "1", x: 0, y: 0, w: 3, h: 3 },
      { i: "2", x: 3, y: 0, w: 2, h: 3 },
      { i: "3", x: 0, y: 3, w: 3, h: 6 },
    ]);
    expect([...changed.keys()]).toEqual([2, 3]);
    expect(changed.get(2)).toMatchObject({ sizeX: 2, autoHeight: true });
    expect(changed.get(3)).toMatchObject({ sizeY: 6, autoHeight: false });
  });

  it("orders widgets for one column by row, then column", () => {
    const items = [
      { id: 1, position: fullPosition({ col: 3, row: 0 }) },
      { id: 2, position: fullPosition({ col: 0, row: 3 }) },
      { id: 3, position: fullPosition({ col: 0, row: 0 }) },
    ];
    expect(readingOrder(items).map((i) => i.id)).toEqual([3, 1, 2]);
  });
});
