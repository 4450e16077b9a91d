import { describe, expect, it } from "vitest";
import { preselectedVisualization } from "./AddWidgetDialog";

describe("Add Widget's preselected visualization", () => {
  it("is the query's first chart, not the table every query starts with", () => {
    expect(
      preselectedVisualization([
        { id: 1, type: "TABLE" },
        { id: 2, type: "CHART" },
        { id: 3, type: "COUNTER" },
      ]),
    ).toBe(2);
  });

  it("is the table when the query has nothing else, and none without visualizations", () => {
    expect(preselectedVisualization([{ id: 1, type: "TABLE" }])).toBe(1);
    expect(preselectedVisualization([])).toBeNull();
  });
});
