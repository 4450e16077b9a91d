import { describe, expect, it } from "vitest";
import {
  fitBarLabel,
  layoutCategoryLabels,
  MIN_LABEL_FONT_SIZE,
  textWidth,
  truncateText,
} from "./axisLabels";
import { buildChartOption } from "./echartsOption";
import { getChartOptions } from "./options";
import type { QueryResultData } from "../types";

const data = (rows: Record<string, unknown>[]): QueryResultData => ({
  columns: Object.keys(rows[0] ?? {}).map((name) => ({ name, type: null })),
  rows,
});

type Obj = Record<string, unknown>;

describe("category axis labels", () => {
  const fits = { vertical: false, maxExtent: 150 };
  it("estimates label widths generously", () => {
    expect(textWidth("")).toBe(0);
    expect(textWidth("iii")).toBeLessThan(textWidth("mmm"));
    // "Wireless Headphones 12" is about 140 px in a 12 px sans-serif.
    expect(textWidth("Wireless Headphones 12")).toBeGreaterThanOrEqual(140);
    expect(truncateText("Short", 100)).toBe("Short");
    const cut = truncateText("A very long product name indeed", 80);
    expect(cut.endsWith("…")).toBe(true);
    expect(textWidth(cut)).toBeLessThanOrEqual(80 + 12);
  });

  it("draws labels that fit side by side level", () => {
    const layout = layoutCategoryLabels(["Books", "Toys", "Garden"], 600, fits);
    expect(layout).toMatchObject({ interval: 0, rotate: 0, overhang: 0 });
  });

  it("rotates every label 30° when they do not fit, 90° when 30° would overprint", () => {
    const names = Array.from({ length: 12 }, (_, i) => `Product name ${i + 1}`);
    const tilted = layoutCategoryLabels(names, 600, fits);
    expect(tilted.interval).toBe(0);
    expect(tilted.rotate).toBe(30);
    // The first label leans back past the axis start: room is asked for before it.
    expect(tilted.overhang).toBeGreaterThan(0);
    expect(tilted.extent).toBeGreaterThan(textWidth(names[0]!) / 2);

    const many = Array.from({ length: 40 }, (_, i) => `Wireless Headphones ${i + 1}`);
    const upright = layoutCategoryLabels(many, 1000, fits);
    expect(upright).toMatchObject({ interval: 0, rotate: 90, overhang: 0 });
    expect(upright.extent).toBe(Math.min(150, Math.max(...many.map(textWidth))));
  });

  it("cuts labels longer than the room allowed across the axis", () => {
    const long = ["x".repeat(80), "y".repeat(80), "z".repeat(80)];
    const layout = layoutCategoryLabels(long, 60, { vertical: false, maxExtent: 100 });
    expect(layout.rotate).toBe(90);
    expect(layout.maxWidth).toBe(100);
    expect(layout.extent).toBe(100);
  });

  it("skips labels only when even upright ones would overprint (under 14 px a category)", () => {
    const labels = Array.from({ length: 200 }, (_, i) => String(i));
    const layout = layoutCategoryLabels(labels, 1000, fits);
    expect(layout.interval).toBe(2); // every third label: 15 px apart
    expect(layoutCategoryLabels(labels.slice(0, 70), 1000, fits).interval).toBe(0);
  });

  it("keeps y-axis (horizontal bar) labels level, every one while a line fits", () => {
    const labels = Array.from({ length: 30 }, (_, i) => `Category ${i}`);
    const layout = layoutCategoryLabels(labels, 600, { vertical: true, maxExtent: 200 });
    expect(layout).toMatchObject({ interval: 0, rotate: 0 });
    expect(layout.extent).toBe(Math.max(...labels.map(textWidth)));
  });
});

describe("bar data labels", () => {
  it("keep their size in a segment they fit, and always avoid overprinting", () => {
    expect(
      fitBarLabel({ rect: { width: 40, height: 30 }, labelRect: { width: 30, height: 14 } }),
    ).toEqual({ hideOverlap: true });
  });
  it("shrink in a segment too small for them, down to 8 px", () => {
    const half = fitBarLabel({
      rect: { width: 40, height: 7 },
      labelRect: { width: 30, height: 14 },
    });
    // The segment is shorter than the smallest font: the box is 0.4 px under the font's size.
    expect(half).toEqual({ hideOverlap: true, fontSize: 8, height: 7.6 });
    const narrow = fitBarLabel({
      rect: { width: 27, height: 100 },
      labelRect: { width: 30, height: 14 },
    });
    expect(narrow).toEqual({ hideOverlap: true, fontSize: 10, height: 12 });
    const tiny = fitBarLabel({
      rect: { width: 40, height: -1 },
      labelRect: { width: 30, height: 14 },
    });
    expect(tiny.fontSize).toBe(MIN_LABEL_FONT_SIZE);
  });
  it("never reach past a segment they fit in, so two stacked neighbours both keep theirs", () => {
    const labelRect = { width: 30, height: 14 };
    // 10.48 px tall: an 8 px font (a 10 px line) fits.
    expect(fitBarLabel({ rect: { width: 40, height: 10.48 }, labelRect })).toEqual({
      hideOverlap: true,
      fontSize: 8,
      height: 10,
    });
    // 9.94 px tall: the 10 px line would reach 0.06 px into the next segment; the box is cut to it.
    expect(fitBarLabel({ rect: { width: 40, height: 9.94 }, labelRect })).toEqual({
      hideOverlap: true,
      fontSize: 8,
      height: 9.94,
    });
    // A box a hair under the line height keeps the full size rather than rounding down a size.
    expect(
      fitBarLabel({ rect: { width: 40, height: 14 }, labelRect: { width: 30, height: 13.97 } }),
    ).toEqual({ hideOverlap: true });
  });
});

describe("buildChartOption category axes", () => {
  const ctx = { width: 1000, height: 500, seps: {} };
  const products = Array.from({ length: 40 }, (_, i) => ({
    name: `Wireless Headphones ${i + 1}`,
    price: i + 1,
  }));

  it("draws every category label of a crowded x axis, rotated, with the title beyond them", () => {
    const o = getChartOptions({
      columnMapping: { name: "x", price: "y" },
      xAxis: { type: "category", labels: { enabled: true }, title: { text: "Product" } },
    });
    const option = buildChartOption(data(products), o, ctx).option;
    const x = option.xAxis as Obj;
    const label = x.axisLabel as Obj & { formatter: (v: string) => string };
    expect(label).toMatchObject({ show: true, interval: 0, rotate: 90, hideOverlap: false });
    expect(label.formatter("Wireless Headphones 7")).toBe("Wireless Headphones 7");
    expect(x.nameGap as number).toBeGreaterThan(textWidth("Wireless Headphones 40"));
  });

  it("leaves room before the axis for 30° labels", () => {
    const rows = [
      { name: "An extremely long first category name", v: 1 },
      ...Array.from({ length: 9 }, (_, i) => ({ name: `Category ${i}`, v: i })),
    ];
    const o = getChartOptions({ columnMapping: { name: "x", v: "y" } });
    const option = buildChartOption(data(rows), o, ctx).option;
    expect((option.xAxis as { axisLabel: Obj }).axisLabel.rotate).toBe(30);
    expect((option.grid as { left: number }).left).toBeGreaterThan(100);
  });

  it("keeps short category labels level, and time and value axes as they were", () => {
    const few = buildChartOption(
      data([
        { s: "a", n: 1 },
        { s: "b", n: 2 },
      ]),
      getChartOptions({ columnMapping: { s: "x", n: "y" } }),
      ctx,
    ).option;
    expect((few.xAxis as { axisLabel: Obj }).axisLabel).toMatchObject({ interval: 0, rotate: 0 });
    expect((few.xAxis as Obj).nameGap).toBe(30);
    expect((few.grid as Obj).left).toBe(16);

    const dates = buildChartOption(
      data([
        { d: "2024-01-01", n: 1 },
        { d: "2024-02-01", n: 2 },
      ]),
      getChartOptions({ columnMapping: { d: "x", n: "y" } }),
      ctx,
    ).option;
    const timeAxis = dates.xAxis as { type: string; axisLabel: Obj };
    expect(timeAxis.type).toBe("time");
    expect(timeAxis.axisLabel.hideOverlap).toBe(true);
    expect(timeAxis.axisLabel.interval).toBeUndefined();
    expect(timeAxis.axisLabel.rotate).toBeUndefined();

    const numbers = buildChartOption(
      data([
        { x: 1, n: 1 },
        { x: 2, n: 2 },
      ]),
      getChartOptions({ columnMapping: { x: "x", n: "y" }, xAxis: { type: "logarithmic" } }),
      ctx,
    ).option;
    const logAxis = numbers.xAxis as { type: string; axisLabel: Obj };
    expect(logAxis.type).toBe("log");
    expect(logAxis.axisLabel.hideOverlap).toBe(true);
    expect(logAxis.axisLabel.interval).toBeUndefined();
  });

  it("puts every label on the y axis of a horizontal bar chart, level, title beyond them", () => {
    const o = getChartOptions({
      columnMapping: { name: "x", price: "y" },
      swappedAxes: true,
      xAxis: { type: "category", title: { text: "Product" } },
    });
    const option = buildChartOption(data(products.slice(0, 25)), o, ctx).option;
    const y = option.yAxis as Obj & { axisLabel: Obj };
    expect(y.type).toBe("category");
    expect(y.axisLabel).toMatchObject({ interval: 0, rotate: 0, hideOverlap: false });
    expect(y.nameGap as number).toBeGreaterThan(textWidth("Wireless Headphones 25") + 8);
    // The value axis along the bottom keeps its automatic labels.
    const x = (option.xAxis as (Obj & { axisLabel: Obj })[])[0]!;
    expect(x.type).toBe("value");
    expect(x.axisLabel.interval).toBeUndefined();
  });

  it("draws every heatmap column label", () => {
    const rows = products.map((p) => ({ ...p, day: "Mon" }));
    const o = getChartOptions({
      globalSeriesType: "heatmap",
      columnMapping: { name: "x", day: "y", price: "zVal" },
    });
    const option = buildChartOption(data(rows), o, ctx).option;
    expect((option.xAxis as { axisLabel: Obj }).axisLabel).toMatchObject({
      interval: 0,
      rotate: 90,
    });
    expect((option.yAxis as { axisLabel: Obj }).axisLabel).toMatchObject({ interval: 0 });
  });
});

describe("buildChartOption data labels", () => {
  const ctx = { width: 800, height: 400, seps: {} };
  const rows = [
    { x: "a", s: "one", y: 100 },
    { x: "a", s: "two", y: 1 },
  ];
  it("fit bar labels to their segments and hide the ones that would overprint", () => {
    const o = getChartOptions({
      columnMapping: { x: "x", s: "series", y: "y" },
      series: { stacking: "stack" },
      showDataLabels: true,
    });
    const series = buildChartOption(data(rows), o, ctx).option.series as Obj[];
    expect(series.every((s) => s.labelLayout === fitBarLabel)).toBe(true);
    expect(series[0]!.label).toMatchObject({ show: true, fontSize: 12, lineHeight: 14 });
  });
  it("hide overprinting line labels, and set no label layout when labels are off", () => {
    const lines = buildChartOption(
      data(rows),
      getChartOptions({
        globalSeriesType: "line",
        columnMapping: { x: "x", s: "series", y: "y" },
        showDataLabels: true,
      }),
      ctx,
    ).option.series as Obj[];
    expect(lines[0]!.labelLayout).toEqual({ hideOverlap: true });
    const off = buildChartOption(
      data(rows),
      getChartOptions({ columnMapping: { x: "x", s: "series", y: "y" } }),
      ctx,
    ).option.series as Obj[];
    expect(off[0]!.labelLayout).toBeUndefined();
  });
});
