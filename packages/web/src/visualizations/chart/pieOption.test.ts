// Pie labels never overprint each other (issue 25): thin slices show none, and labels that would
// still overlap are hidden; their values stay in the tooltip.
import { describe, expect, it } from "vitest";
import type { QueryResultData } from "../types";
import { buildChartOption } from "./echartsOption";
import { getChartOptions } from "./options";
import { MIN_LABEL_ANGLE } from "./pieOption";

type Obj = Record<string, unknown>;

const statuses: QueryResultData = {
  columns: [
    { name: "status", type: "string" },
    { name: "orders", type: "integer" },
  ],
  rows: [
    { status: "delivered", orders: 900 },
    { status: "shipped", orders: 60 },
    { status: "processing", orders: 20 },
    { status: "cancelled", orders: 12 },
    { status: "returned", orders: 8 },
  ],
};

const ctx = { width: 600, height: 400, seps: {} };

describe("pie labels", () => {
  const pie = (stored: Obj = {}) =>
    buildChartOption(
      statuses,
      getChartOptions({
        globalSeriesType: "pie",
        columnMapping: { status: "x", orders: "y" },
        ...stored,
      }),
      ctx,
    ).option;

  it("leave out thin slices' labels and hide the ones that would overlap", () => {
    const series = (pie().series as Obj[])[0]!;
    expect((series.label as Obj).show).toBe(true);
    expect(series.minShowLabelAngle).toBe(MIN_LABEL_ANGLE);
    expect(series.labelLayout).toEqual({ hideOverlap: true });
  });

  it("keep the legend of the slices, and leave its room when it is hidden", () => {
    expect((pie().legend as Obj).show).toBe(true);
    const hidden = pie({ legend: { enabled: false } });
    expect((hidden.legend as Obj).show).toBe(false);
    const radius = (o: Obj) => ((o.series as Obj[])[0]!.radius as number[])[1]!;
    expect(radius(hidden)).toBeGreaterThanOrEqual(radius(pie()));
  });
});
