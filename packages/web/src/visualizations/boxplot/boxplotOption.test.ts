import { describe, expect, it } from "vitest";
import { boxplotOption } from "./boxplotOption";

const data = {
  columns: [
    { name: "books", type: "integer" },
    { name: "toys", type: "integer" },
  ],
  rows: [
    { books: 10, toys: 20 },
    { books: 30, toys: 60 },
    { books: 45, toys: 40 },
  ],
};

// ECharts' defaults: tick labels 8 px below the axis, 12 px text (about 14 px a line); a
// "middle" axis name starts nameGap below the axis line.
const LABELS = 8 + 14;
const TITLE = 14;

type Grid = { containLabel: boolean; bottom: number };
type Axis = { name?: string; nameGap: number };

describe("boxplotOption", () => {
  it("keeps room below the tick labels for the x axis title (containLabel leaves it out)", () => {
    const option = boxplotOption({ xAxisLabel: "Category" }, data);
    const grid = option.grid as Grid;
    const xAxis = option.xAxis as Axis;
    expect(xAxis.name).toBe("Category");
    expect(grid.containLabel).toBe(true);
    const titleBelowLabels = xAxis.nameGap + TITLE - LABELS;
    expect(grid.bottom - titleBelowLabels).toBeGreaterThanOrEqual(8);
  });
  it("keeps the tight margin without a title", () => {
    const option = boxplotOption({}, data);
    expect((option.xAxis as Axis).name).toBeUndefined();
    expect((option.grid as Grid).bottom).toBe(16);
  });
});
