import { describe, expect, it } from "vitest";
import { DEFAULT_FORMATS, type DatumSelection, type QueryResultData } from "../types";
import { clickableOption } from "./clickable";
import { chartDatumClick, dimUnselected, DIMMED_OPACITY } from "./datumClick";
import { buildChartOption } from "./echartsOption";
import { getChartOptions } from "./options";

const data: QueryResultData = {
  columns: [
    { name: "country", type: "string" },
    { name: "sales", type: "integer" },
    { name: "channel", type: "string" },
  ],
  rows: [
    { country: "FR", sales: 10, channel: "web" },
    { country: "DE", sales: 20, channel: "web" },
    { country: "FR", sales: 5, channel: "shop" },
  ],
};

function build(type: string, mapping: Record<string, string>, result: QueryResultData = data) {
  const options = getChartOptions(
    { globalSeriesType: type, columnMapping: mapping, sortX: false },
    DEFAULT_FORMATS,
  );
  return buildChartOption(result, options, {
    width: 600,
    height: 400,
    seps: { thousandsSeparator: ",", decimalSeparator: "." },
  });
}

const onlyDE: DatumSelection = { columns: ["country"], has: (_c, v) => v === "DE" };

describe("chart clicks as values", () => {
  it("a bar is its x value, with the series' value; Ctrl or ⌘ adds", () => {
    const built = build("column", { country: "x", sales: "y", channel: "series" });
    const click = chartDatumClick(
      built,
      { seriesIndex: 0, dataIndex: 0, event: { event: { metaKey: true } } },
      { x: "country", series: "channel" },
    );
    expect(click).toEqual({
      column: "country",
      value: "FR",
      row: { country: "FR", channel: "web" },
      additive: true,
    });
  });

  it("a bar carries its y value: the series' y column, or the y column drawn as that series", () => {
    // Grouped by a series column: the web bar of FR is the sales of FR's web rows.
    const grouped = build("column", { country: "x", sales: "y", channel: "series" });
    const mapping = { x: "country", series: "channel", y: ["sales"] };
    expect(chartDatumClick(grouped, { seriesIndex: 0, dataIndex: 0 }, mapping)?.row).toEqual({
      country: "FR",
      channel: "web",
      sales: 10,
    });
    // Each y column its own series: a bar of the second is that column's sum for its x.
    const withCost: QueryResultData = {
      columns: [...data.columns, { name: "cost", type: "integer" }],
      rows: data.rows.map((r, i) => ({ ...r, cost: i + 1 })),
    };
    const two = build("column", { country: "x", sales: "y", cost: "y" }, withCost);
    const both = { x: "country", series: null, y: ["sales", "cost"] };
    expect(chartDatumClick(two, { seriesIndex: 0, dataIndex: 0 }, both)?.row).toEqual({
      country: "FR",
      sales: 15,
    });
    expect(chartDatumClick(two, { seriesIndex: 1, dataIndex: 1 }, both)?.row).toEqual({
      country: "DE",
      cost: 2,
    });
  });

  it("a point drawn from one row carries that row", () => {
    const built = build("scatter", { country: "x", sales: "y" });
    const click = chartDatumClick(
      built,
      { seriesIndex: 0, dataIndex: 2 },
      { x: "country", series: null, y: ["sales"] },
    );
    expect(click?.row).toEqual({ country: "FR", sales: 5, channel: "shop" });
  });

  it("a pie slice is its label's value; no x column or no point is no click", () => {
    const built = build("pie", { country: "x", sales: "y" });
    const click = chartDatumClick(
      built,
      { seriesIndex: 0, dataIndex: 0 },
      { x: "country", series: null },
    );
    expect(click?.column).toBe("country");
    expect(["FR", "DE"]).toContain(click?.value);
    expect(click?.additive).toBe(false);
    expect(
      chartDatumClick(built, { seriesIndex: 0, dataIndex: 0 }, { x: null, series: null }),
    ).toBeNull();
    expect(
      chartDatumClick(built, { seriesIndex: 5, dataIndex: 0 }, { x: "country", series: null }),
    ).toBeNull();
  });
});

describe("the chart's own selection", () => {
  it("dims the bars of other x values and keeps the selected ones", () => {
    const built = build("column", { country: "x", sales: "y" });
    const dimmed = dimUnselected(built.option, built, onlyDE, "country");
    const series = dimmed.series as { data: { itemStyle?: { opacity?: number } }[] }[];
    const opacities = series[0]!.data.map((d) => d?.itemStyle?.opacity ?? 1);
    const xs = series[0]!.data.map((_d, i) => built.pointAt(0, i)!.point.x);
    expect(Object.fromEntries(xs.map((x, i) => [x, opacities[i]]))).toEqual({
      FR: DIMMED_OPACITY,
      DE: 1,
    });
  });

  it("leaves the option as it is without a selection on the x column", () => {
    const built = build("column", { country: "x", sales: "y" });
    expect(dimUnselected(built.option, built, undefined, "country")).toBe(built.option);
    const onChannel: DatumSelection = { columns: ["channel"], has: () => true };
    expect(dimUnselected(built.option, built, onChannel, "country")).toBe(built.option);
  });
});

describe("chart category labels as values", () => {
  it("a click on a category's label is a click on that category, over every series", () => {
    const built = build("column", { country: "x", sales: "y", channel: "series" });
    const click = chartDatumClick(
      built,
      { componentType: "xAxis", value: "DE", event: { event: { ctrlKey: true } } },
      { x: "country", series: "channel" },
    );
    expect(click).toEqual({
      column: "country",
      value: "DE",
      row: { country: "DE" },
      additive: true,
    });
    expect(
      chartDatumClick(
        built,
        { componentType: "xAxis", value: "ES" },
        { x: "country", series: null },
      ),
    ).toBeNull();
  });

  it("a clickable chart's category labels report clicks and its tooltip says what a click does", () => {
    const built = build("column", { country: "x", sales: "y" });
    const option = clickableOption(built.option, "Click to open Country detail", {
      categoryClicks: !!built.categoryPoint,
    });
    expect((option.xAxis as Record<string, unknown>).triggerEvent).toBe(true);
    const formatter = (option.tooltip as { formatter: (p: unknown) => string }).formatter;
    const html = formatter([{ seriesIndex: 0, dataIndex: 0, marker: "" }]);
    expect(html).toContain("sales: <b>15</b>");
    expect(html).toMatch(/Click to open Country detail<\/div>$/);
    // Unchanged for a chart without clicks.
    expect((built.option.xAxis as Record<string, unknown>).triggerEvent).toBeUndefined();
  });
});
