import { describe, expect, it } from "vitest";
import { DEFAULT_FORMATS, type DatumSelection, type QueryResultData } from "../types";
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

function build(type: string, mapping: Record<string, string>) {
  const options = getChartOptions(
    { globalSeriesType: type, columnMapping: mapping, sortX: false },
    DEFAULT_FORMATS,
  );
  return buildChartOption(data, options, {
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
