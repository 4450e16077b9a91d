import { describe, expect, it } from "vitest";
import {
  DEFAULT_RULES,
  changedPositions,
  fullPosition,
  initialAutoHeightRows,
  newWidgetPosition,
  pixelsToRows,
  readingOrder,
  rowsToPixels,
  shownPositions,
  singleColumnItems,
  toGridItem,
} from "./gridLayout";

const tableRules = { ...DEFAULT_RULES, sizeY: 14, minSizeX: 2, autoHeight: true };

describe("dashboard grid", () => {
  it("fills a partial position with the defaults and forces it into the grid", () => {
    expect(fullPosition(undefined)).toMatchObject({ col: 0, row: 0, sizeX: 3, sizeY: 3 });
    expect(fullPosition({ col: 5, sizeX: 4, sizeY: 5000 })).toMatchObject({
      col: 2,
      sizeX: 4,
      sizeY: 1000,
      minSizeX: 1,
      maxSizeX: 6,
    });
    expect(fullPosition({ sizeX: 0, sizeY: 2 })).toMatchObject({ sizeX: 1, sizeY: 2 });
    // Missing sizes come from the widget's kind.
    expect(fullPosition({ col: 0, row: 4 }, tableRules)).toMatchObject({
      sizeY: 14,
      autoHeight: true,
    });
  });

  it("keeps a stored size exactly, even outside its kind's limits, and widens the limits", () => {
    const p = fullPosition({ col: 0, row: 0, sizeX: 1, sizeY: 3 }, tableRules);
    expect(p).toMatchObject({ sizeX: 1, sizeY: 3, minSizeX: 1 });
    expect(toGridItem(7, p)).toMatchObject({ i: "7", w: 1, h: 3, minW: 1 });
  });

  it("takes a stored auto-height choice over its kind's, and a height below one row as auto", () => {
    expect(fullPosition({ sizeY: 6, autoHeight: false }, tableRules).autoHeight).toBe(false);
    expect(fullPosition({ sizeY: 6 }, tableRules).autoHeight).toBe(true);
    expect(fullPosition({ sizeY: 6, autoHeight: true }).autoHeight).toBe(true);
    expect(fullPosition({ sizeY: -1 }, DEFAULT_RULES, 30)).toMatchObject({
      sizeY: 30,
      autoHeight: true,
    });
  });

  it("starts unmeasured auto-height widgets at the tallest widget, at least 20 rows, plus 5", () => {
    expect(initialAutoHeightRows([])).toBe(25);
    expect(initialAutoHeightRows([{ sizeY: 8 }, undefined, { sizeY: -1 }])).toBe(25);
    expect(initialAutoHeightRows([{ sizeY: 8 }, { sizeY: 40 }])).toBe(45);
  });

  it("converts between rows and pixels with 50 px per row, margin included", () => {
    expect(rowsToPixels(1)).toBe(38);
    expect(rowsToPixels(8)).toBe(388);
    expect(pixelsToRows(38)).toBe(1);
    expect(pixelsToRows(39)).toBe(2);
    expect(pixelsToRows(388)).toBe(8);
    expect(pixelsToRows(0)).toBe(1);
    expect(pixelsToRows(10_000_000)).toBe(1000);
  });

  it("puts a new widget at the highest free spot that fits, leftmost on a tie", () => {
    expect(newWidgetPosition([])).toMatchObject({ col: 0, row: 0, sizeX: 3, sizeY: 3 });
    const left = fullPosition({ col: 0, row: 0, sizeX: 3, sizeY: 4 });
    expect(newWidgetPosition([left])).toMatchObject({ col: 3, row: 0 });
    const right = fullPosition({ col: 3, row: 0, sizeX: 3, sizeY: 2 });
    expect(newWidgetPosition([left, right])).toMatchObject({ col: 3, row: 2 });
    // A full-width widget goes under everything.
    const wide = { ...DEFAULT_RULES, sizeX: 6 };
    expect(newWidgetPosition([left, right], wide)).toMatchObject({ col: 0, row: 4, sizeX: 6 });
    // The new widget carries its kind's size, limits and auto-height.
    expect(newWidgetPosition([left], tableRules)).toEqual({
      col: 3,
      row: 0,
      sizeX: 3,
      sizeY: 14,
      minSizeX: 2,
      maxSizeX: 6,
      minSizeY: 1,
      maxSizeY: 1000,
      autoHeight: true,
    });
  });

  it("shows auto-height widgets at their measured height, the others as stored", () => {
    const positions = new Map([
      [1, fullPosition({ sizeY: 14, autoHeight: true })],
      [2, fullPosition({ sizeY: 8 })],
    ]);
    const shown = shownPositions(
      positions,
      new Map([
        [1, 9],
        [2, 3],
      ]),
    );
    expect(shown.get(1)?.sizeY).toBe(9);
    expect(shown.get(2)).toBe(positions.get(2));
  });

  it("reports only the widgets whose position changed, and ends auto-height on a new height", () => {
    const current = new Map([
      [1, fullPosition({ col: 0, row: 0, sizeX: 3, sizeY: 3, autoHeight: true })],
      [2, fullPosition({ col: 3, row: 0, sizeX: 3, sizeY: 3, autoHeight: true })],
      [3, fullPosition({ col: 0, row: 3 })],
      [4, fullPosition({ col: 3, row: 3, autoHeight: true })],
    ]);
    const changed = changedPositions(current, [
      { i: "1", x: 0, y: 0, w: 3, h: 3 },
      { i: "2", x: 3, y: 0, w: 2, h: 3 },
      { i: "3", x: 0, y: 3, w: 3, h: 6 },
      { i: "4", x: 3, y: 3, w: 3, h: 5 },
    ]);
    expect([...changed.keys()]).toEqual([2, 3, 4]);
    expect(changed.get(2)).toMatchObject({ sizeX: 2, autoHeight: true });
    expect(changed.get(3)).toMatchObject({ sizeY: 6, autoHeight: false });
    expect(changed.get(4)).toMatchObject({ sizeY: 5, autoHeight: false });
  });

  it("orders widgets for one column by row, then column", () => {
    const items = [
      { id: 1, position: fullPosition({ col: 3, row: 0 }) },
      { id: 2, position: fullPosition({ col: 0, row: 3 }) },
      { id: 3, position: fullPosition({ col: 0, row: 0 }) },
    ];
    expect(readingOrder(items).map((i) => i.id)).toEqual([3, 1, 2]);
  });

  it("stacks the widgets in reading order in one column for phones", () => {
    const at = (col: number, row: number, sizeY: number) =>
      fullPosition({ col, row, sizeX: 3, sizeY });
    const widgets = [
      { id: 1, position: at(3, 0, 2) },
      { id: 2, position: at(0, 4, 5) },
      { id: 3, position: at(0, 0, 4) },
    ];
    expect(singleColumnItems(widgets)).toEqual([
      { i: "3", x: 0, y: 0, w: 1, h: 4, minW: 1, maxW: 1, minH: 4, maxH: 4 },
      { i: "1", x: 0, y: 4, w: 1, h: 2, minW: 1, maxW: 1, minH: 2, maxH: 2 },
      { i: "2", x: 0, y: 6, w: 1, h: 5, minW: 1, maxW: 1, minH: 5, maxH: 5 },
    ]);
  });
});
