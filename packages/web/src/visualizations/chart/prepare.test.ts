import { describe, expect, it } from "vitest";
import { buildChartOption } from "./echartsOption";
import { alignZero, tickLabelWidth } from "./valueAxis";
import { getChartOptions } from "./options";
import { prepareChart, preparePies, prepareHeatmap } from "./prepare";
import { clickUrl, pointText } from "./text";
import type { QueryResultData } from "../types";

const data = (rows: Record<string, unknown>[]): QueryResultData => ({
  columns: Object.keys(rows[0] ?? {}).map((name) => ({ name, type: null })),
  rows,
});

describe("getChartOptions", () => {
  it("fills defaults and keeps unknown keys", () => {
    const o = getChartOptions({ foo: 1, yAxis: [{ type: "logarithmic" }] });
    expect(o.globalSeriesType).toBe("column");
    expect(o.foo).toBe(1);
    expect(o.yAxis[1]).toEqual({ type: "linear", opposite: true });
    expect(o.showDataLabels).toBe(false);
    expect(getChartOptions({ globalSeriesType: "pie" }).showDataLabels).toBe(true);
  });
  it("rewrites legacy stacking", () => {
    const o = getChartOptions({ series: { stacking: "percent" } });
    expect(o.series.stacking).toBe("stack");
    expect(o.series.percentValues).toBe(true);
    expect(
      getChartOptions({ series: { stacking: "normal" } }).series.percentValues,
    ).toBeUndefined();
  });
});

describe("prepareChart", () => {
  const rows = [
    { x: "b", y1: 1, y2: 10, g: "one" },
    { x: "a", y1: 2, y2: 20, g: "two" },
    { x: "b", y1: 3, y2: null, g: "one" },
  ];
  it("makes one series per y column, sums repeated x, sorts x", () => {
    const o = getChartOptions({ columnMapping: { x: "x", y1: "y", y2: "y" } });
    const { series, xKind } = prepareChart(data(rows), o);
    expect(xKind).toBe("category");
    expect(series.map((s) => s.name)).toEqual(["y1", "y2"]);
    expect(series[0].points.map((p) => [p.x, p.y])).toEqual([
      ["a", 2],
      ["b", 4],
    ]);
    expect(series[1].points.map((p) => [p.x, p.y])).toEqual([
      ["a", 20],
      ["b", 10],
    ]);
  });
  it("groups by the series column and unifies x with zeros or gaps", () => {
    const o = getChartOptions({
      columnMapping: { x: "x", y1: "y", g: "series" },
      xAxis: { type: "category" },
    });
    const { series } = prepareChart(data(rows), o);
    expect(series.map((s) => s.key)).toEqual(["one", "two"]);
    expect(series[0].points.map((p) => p.y)).toEqual([0, 4]);
    const gaps = prepareChart(data(rows), { ...o, missingValuesAsZero: false });
    expect(gaps.series[0].points.map((p) => p.y)).toEqual([null, 4]);
  });
  it("gives stacked bars the same x values, so each stacks on its own x", () => {
    const o = getChartOptions({
      globalSeriesType: "column",
      columnMapping: { month: "x", revenue: "y", category: "series" },
      series: { stacking: "stack" },
    });
    const { series, xKind } = prepareChart(
      {
        columns: [
          { name: "month", type: "date" },
          { name: "category", type: "string" },
          { name: "revenue", type: "float" },
        ],
        rows: [
          { month: "2024-01-01", category: "Books", revenue: 1 },
          { month: "2024-01-01", category: "Toys", revenue: 2 },
          { month: "2024-02-01", category: "Toys", revenue: 3 },
          { month: "2024-03-01", category: "Books", revenue: 4 },
          { month: "2024-03-01", category: "Toys", revenue: 5 },
        ],
      },
      o,
    );
    expect(xKind).toBe("time");
    expect(series.map((s) => s.points.map((p) => [p.x, p.y]))).toEqual([
      [
        ["2024-01-01", 1],
        ["2024-02-01", 0],
        ["2024-03-01", 4],
      ],
      [
        ["2024-01-01", 2],
        ["2024-02-01", 3],
        ["2024-03-01", 5],
      ],
    ]);
  });
  it("normalises to percentages per x", () => {
    const o = getChartOptions({
      columnMapping: { x: "x", y1: "y", y2: "y" },
      series: { stacking: "stack", percentValues: true },
    });
    const { series } = prepareChart(
      data([
        { x: 1, y1: 1, y2: 3 },
        { x: 2, y1: -2, y2: 2 },
      ]),
      o,
    );
    expect(series[0].points.map((p) => p.y)).toEqual([25, -50]);
    expect(series[1].points.map((p) => p.yPercent)).toEqual([75, 50]);
  });
  it("orders series by zIndex and applies names, colours and the right axis", () => {
    const o = getChartOptions({
      columnMapping: { x: "x", y1: "y", y2: "y" },
      seriesOptions: {
        y1: { zIndex: 2, yAxis: 1 },
        y2: { zIndex: 1, name: "Second", color: "#123456" },
      },
    });
    const { series } = prepareChart(data(rows), o);
    expect(series.map((s) => s.name)).toEqual(["Second", "y1"]);
    expect(series[0].color).toBe("#123456");
    expect(series[1].yAxis).toBe(1);
  });
  it("detects date axes and reports missing columns", () => {
    const o = getChartOptions({ columnMapping: { d: "x", v: "y", nope: "y" } });
    const out = prepareChart(
      {
        columns: [
          { name: "d", type: "datetime" },
          { name: "v", type: "integer" },
        ],
        rows: [{ d: new Date(Date.UTC(2024, 0, 1)), v: 1 }],
      },
      o,
    );
    expect(out.xKind).toBe("time");
    expect(out.series[0].points[0].x).toBe("2024-01-01 00:00:00");
    expect(out.notices[0]).toContain("nope");
  });
  it("keeps every scatter row and accepts category y", () => {
    const o = getChartOptions({ globalSeriesType: "scatter", columnMapping: { x: "x", y1: "y" } });
    const { series } = prepareChart(
      data([
        { x: 1, y1: "a" },
        { x: 1, y1: "b" },
      ]),
      o,
    );
    expect(series[0].points.map((p) => p.y)).toEqual(["a", "b"]);
  });
});

describe("pies and heatmaps", () => {
  it("sums slices, computes shares of the absolute total and sorts by size", () => {
    const o = getChartOptions({ globalSeriesType: "pie", columnMapping: { x: "x", y1: "y" } });
    const { pies } = preparePies(
      data([
        { x: "a", y1: 1 },
        { x: "b", y1: 2 },
        { x: "a", y1: 1 },
        { x: "c", y1: 4 },
      ]),
      o,
    );
    expect(pies[0].slices.map((s) => [s.label, s.value, s.percent])).toEqual([
      ["c", 4, 50],
      ["a", 2, 25],
      ["b", 2, 25],
    ]);
  });
  it("fills missing heatmap cells with 0", () => {
    const o = getChartOptions({
      globalSeriesType: "heatmap",
      columnMapping: { x: "x", y: "y", z: "zVal" },
      sortX: true,
      sortY: true,
    });
    const h = prepareHeatmap(
      data([
        { x: "b", y: 1, z: 5 },
        { x: "a", y: 2, z: 3 },
      ]),
      o,
    );
    expect(h.xs).toEqual(["a", "b"]);
    expect(h.cells).toContainEqual([0, 0, 0]);
    expect(h.max).toBe(5);
  });
  it("labels each heatmap cell in the text colour that reads on that cell's colour", () => {
    const o = getChartOptions({
      globalSeriesType: "heatmap",
      columnMapping: { x: "x", y: "y", z: "zVal" },
      colorScheme: "YlOrRd",
      showDataLabels: true,
    });
    const rows = [
      { x: "a", y: 1, z: 0 },
      { x: "b", y: 1, z: 100 },
    ];
    const ctx = { width: 800, height: 400, seps: {} };
    const series = (buildChartOption(data(rows), o, ctx).option.series as { data: unknown[] }[])[0];
    const colorOf = (z: number) =>
      (series.data as { value: number[]; label: { color: string } }[]).find(
        (c) => c.value[2] === z,
      )!.label.color;
    // This scale runs from dark red (the minimum) to pale yellow (the maximum).
    expect(colorOf(0)).toBe("#ffffff");
    expect(colorOf(100)).toBe("#333333");
  });
});

describe("text and links", () => {
  const o = getChartOptions({
    numberFormat: "0,0.0",
    textFormat: "{{ @@name }}: {{ @@y }} ({{ extra }})",
  });
  it("renders label templates with @@ variables and row columns", () => {
    const text = pointText(
      { name: "S", type: "column" },
      { x: "a", y: 1234, row: { extra: "E" } },
      o,
      {},
    );
    expect(text).toBe("S: 1,234.0 (E)");
    const auto = pointText(
      { name: "S", type: "column" },
      { x: "a", y: 2, yError: 0.5, row: {} },
      getChartOptions({}),
      {},
    );
    // numeral "0,0[.]00000": whole numbers drop the decimals, others keep all five.
    expect(auto).toBe("2 ± 0.50000");
  });
  it("fills click URLs and removes unknown placeholders", () => {
    expect(
      clickUrl("/q?x={{ @@x1 }}&y={{ @@y }}&z={{ nope }}", [{ x: "a b", y: 3, row: {} }], o),
    ).toBe("/q?x=a b&y=3&z=");
  });
});

describe("buildChartOption", () => {
  const ctx = { width: 800, height: 400, seps: {} };
  it("maps series kinds, stacking and the second axis", () => {
    const o = getChartOptions({
      globalSeriesType: "column",
      columnMapping: { x: "x", a: "y", b: "y" },
      series: { stacking: "stack" },
      seriesOptions: { b: { type: "line", yAxis: 1 } },
    });
    const built = buildChartOption(data([{ x: "p", a: 1, b: 2 }]), o, ctx);
    const series = built.option.series as Record<string, unknown>[];
    expect(series.map((s) => s.type)).toEqual(["bar", "line"]);
    expect(series[0].stack).toBe("stack-0");
    expect((built.option.yAxis as unknown[]).length).toBe(2);
  });
  it("puts the y-axis title beside tick labels of any width", () => {
    const titled = (rows: Record<string, unknown>[]) =>
      buildChartOption(
        data(rows),
        getChartOptions({
          columnMapping: { x: "x", y: "y" },
          yAxis: [{ type: "linear", title: { text: "Revenue" } }],
        }),
        ctx,
      ).option.yAxis as { nameGap: number }[];
    const small = titled([{ x: 1, y: 7 }])[0].nameGap;
    const large = titled([{ x: 1, y: 33_080_000 }])[0].nameGap;
    // "60,000,000"-wide labels (about 7 px a character) fit between the title and the axis.
    expect(large).toBeGreaterThan("60,000,000".length * 7);
    expect(small).toBeLessThan(large);
    expect(tickLabelWidth(33_080_000, (v) => v.toLocaleString("en"))).toBe(77);
  });
  it("ends a 100% stacked chart's axis at 100", () => {
    const o = getChartOptions({
      globalSeriesType: "area",
      columnMapping: { x: "x", a: "y", b: "y" },
      series: { stacking: "stack", percentValues: true },
    });
    const built = buildChartOption(data([{ x: 1, a: 1, b: 3 }]), o, ctx);
    expect((built.option.yAxis as { max?: number }[])[0].max).toBe(100);
    const plain = buildChartOption(data([{ x: 1, a: 1, b: 3 }]), getChartOptions({}), ctx);
    expect((plain.option.yAxis as { max?: number }[])[0].max).toBeUndefined();
  });
  it("uses sampling and large mode for 100,000 points", () => {
    const rows = Array.from({ length: 100_000 }, (_, i) => ({ x: i, y: Math.sin(i / 100) }));
    const o = getChartOptions({ globalSeriesType: "line", columnMapping: { x: "x", y: "y" } });
    const built = buildChartOption(data(rows), o, ctx);
    const s = (built.option.series as Record<string, unknown>[])[0];
    expect(s.sampling).toBe("lttb");
    expect(s.large).toBe(true);
  });
  it("adds error bars as a custom series and swaps axes for horizontal charts", () => {
    const o = getChartOptions({
      columnMapping: { x: "x", y: "y", e: "yError" },
      swappedAxes: true,
    });
    const built = buildChartOption(data([{ x: "a", y: 2, e: 1 }]), o, ctx);
    const series = built.option.series as Record<string, unknown>[];
    expect(series[1].type).toBe("custom");
    expect((built.option.yAxis as Record<string, unknown>).type).toBe("category");
  });
});

describe("alignZero", () => {
  it("extends ranges so zero sits at the same height", () => {
    const [a, b] = alignZero([-10, 10], [0, 100]);
    expect(a).toEqual([-10, 10]);
    expect(b[0] / (b[1] - b[0])).toBeCloseTo(-0.5);
    expect(alignZero([0, 5], [0, 7])).toEqual([
      [0, 5],
      [0, 7],
    ]);
  });
});
