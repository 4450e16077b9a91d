// What a chart made here starts with (issue 25): categories in the result's order (a query's
// ORDER BY) until the user sorts them, no legend for a single series; stored Redash charts that
// lack these keys keep Redash's meaning.
import { describe, expect, it } from "vitest";
import type { QueryResultData } from "../types";
import { buildChartOption } from "./echartsOption";
import { getChartOptions, newChartOptions } from "./options";
import { prepareChart } from "./prepare";

type Obj = Record<string, unknown>;

// As a query "ORDER BY revenue DESC" returns them.
const byRevenue: QueryResultData = {
  columns: [
    { name: "country", type: "string" },
    { name: "revenue", type: "float" },
    { name: "orders", type: "integer" },
  ],
  rows: [
    { country: "Italy", revenue: 900, orders: 9 },
    { country: "France", revenue: 500, orders: 5 },
    { country: "Germany", revenue: 300, orders: 3 },
  ],
};

const ctx = { width: 800, height: 400, seps: {} };

/** A chart as a user makes it here: the new chart's options, columns chosen, saved and reloaded. */
function madeHere(changes: Obj) {
  return getChartOptions(JSON.parse(JSON.stringify({ ...newChartOptions(), ...changes })) as Obj);
}

const categories = (option: Obj) => (option.xAxis as Obj).data;

describe("a new chart", () => {
  const mapping = { columnMapping: { country: "x", revenue: "y" } };

  it("keeps the result's order of categories", () => {
    expect(newChartOptions().sortX).toBe(false);
    const option = buildChartOption(byRevenue, madeHere(mapping), ctx).option;
    expect(categories(option)).toEqual(["Italy", "France", "Germany"]);
  });

  it("sorts them when the user turns Sort Values on, and reverses them too", () => {
    const sorted = madeHere({ ...mapping, sortX: true });
    expect(categories(buildChartOption(byRevenue, sorted, ctx).option)).toEqual([
      "France",
      "Germany",
      "Italy",
    ]);
    const reversed = buildChartOption(byRevenue, { ...sorted, reverseX: true }, ctx).option;
    expect((reversed.xAxis as Obj).inverse).toBe(true);
  });

  it("keeps the result's order across series, grouped or not", () => {
    const two = madeHere({ columnMapping: { country: "x", revenue: "y", orders: "y" } });
    expect(categories(buildChartOption(byRevenue, two, ctx).option)).toEqual([
      "Italy",
      "France",
      "Germany",
    ]);
    const grouped: QueryResultData = {
      columns: [
        { name: "month", type: "string" },
        { name: "status", type: "string" },
        { name: "n", type: "integer" },
      ],
      rows: [
        { month: "Mar", status: "paid", n: 1 },
        { month: "Jan", status: "paid", n: 2 },
        { month: "Feb", status: "open", n: 3 },
        { month: "Jan", status: "open", n: 4 },
      ],
    };
    const stacked = madeHere({
      columnMapping: { month: "x", status: "series", n: "y" },
      series: { stacking: "stack" },
    });
    const { series } = prepareChart(grouped, stacked);
    // Stacked series share their x values, in the order the rows first have them.
    expect(series.map((s) => s.points.map((p) => [p.x, p.y]))).toEqual([
      [
        ["Mar", 1],
        ["Jan", 2],
        ["Feb", 0],
      ],
      [
        ["Mar", 0],
        ["Jan", 4],
        ["Feb", 3],
      ],
    ]);
  });

  it("draws a line over dates in date order even when the rows are not", () => {
    const days: QueryResultData = {
      columns: [
        { name: "day", type: "date" },
        { name: "n", type: "integer" },
      ],
      rows: [
        { day: "2024-03-02", n: 2 },
        { day: "2024-03-01", n: 1 },
        { day: "2024-03-03", n: 3 },
      ],
    };
    const o = madeHere({ globalSeriesType: "line", columnMapping: { day: "x", n: "y" } });
    const { series, xKind } = prepareChart(days, o);
    expect(xKind).toBe("time");
    expect(series[0]!.points.map((p) => p.y)).toEqual([1, 2, 3]);
  });

  it("draws no legend for one series, a legend for two, and one for a single series when asked", () => {
    const legend = (o: ReturnType<typeof getChartOptions>) =>
      (buildChartOption(byRevenue, o, ctx).option.legend as Obj).show;
    expect(legend(madeHere(mapping))).toBe(false);
    expect(legend(madeHere({ columnMapping: { country: "x", revenue: "y", orders: "y" } }))).toBe(
      true,
    );
    const shown = madeHere(mapping);
    shown.legend = { ...shown.legend, hideWhenOneSeries: false };
    expect(legend(shown)).toBe(true);
    const hidden = madeHere({ columnMapping: { country: "x", revenue: "y", orders: "y" } });
    hidden.legend = { ...hidden.legend, enabled: false };
    expect(legend(hidden)).toBe(false);
  });
});

describe("a stored chart without these keys (Redash's)", () => {
  const stored = { globalSeriesType: "column", columnMapping: { country: "x", revenue: "y" } };

  it("sorts its categories, as Redash's default sortX is true", () => {
    expect(getChartOptions(stored).sortX).toBe(true);
    expect(categories(buildChartOption(byRevenue, getChartOptions(stored), ctx).option)).toEqual([
      "France",
      "Germany",
      "Italy",
    ]);
  });

  it("keeps the result's order when it stores sortX false", () => {
    const o = getChartOptions({ ...stored, sortX: false });
    expect(categories(buildChartOption(byRevenue, o, ctx).option)).toEqual([
      "Italy",
      "France",
      "Germany",
    ]);
  });

  it("keeps its legend for one series, and hides it when it stores legend.enabled false", () => {
    const legend = (o: Obj) =>
      (buildChartOption(byRevenue, getChartOptions(o), ctx).option.legend as Obj).show;
    expect(legend(stored)).toBe(true);
    expect(legend({ ...stored, legend: { enabled: true } })).toBe(true);
    expect(legend({ ...stored, legend: { enabled: false } })).toBe(false);
  });
});
