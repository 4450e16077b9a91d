// Chart tooltips and labels write values by the chart's number format, or by the column's type
// while the chart keeps Redash's default (issue 25: a DECIMAL read 12.50000).
import { describe, expect, it } from "vitest";
import type { QueryResultData } from "../types";
import { buildChartOption } from "./echartsOption";
import { getChartOptions } from "./options";
import { DEFAULT_NUMBER_FORMAT, valueFormat } from "./valueFormat";

type Obj = Record<string, unknown>;
type Formatter = (params: unknown) => string;

// A DECIMAL(10, 2) column arrives as a float column of numbers.
const sales: QueryResultData = {
  columns: [
    { name: "country", type: "string" },
    { name: "revenue", type: "float" },
    { name: "orders", type: "integer" },
  ],
  rows: [
    { country: "Italy", revenue: 1234.5, orders: 1200 },
    { country: "France", revenue: 10.25, orders: 3 },
  ],
};

const ctx = {
  width: 800,
  height: 400,
  seps: {},
  numberFormats: { integerFormat: "0,0", floatFormat: "0,0.00" },
};

/** The tooltip of the first category, as ECharts asks for it (one entry per series). */
function tooltip(stored: Obj, data = sales): string {
  const option = buildChartOption(data, getChartOptions(stored), ctx).option;
  const series = option.series as unknown[];
  const params = series.map((_, seriesIndex) => ({ seriesIndex, dataIndex: 0, marker: "" }));
  return ((option.tooltip as Obj).formatter as Formatter)(params);
}

describe("chart tooltips", () => {
  const mapping = { columnMapping: { country: "x", revenue: "y", orders: "y" }, sortX: false };

  it("write a DECIMAL with the float format and a count with the integer format", () => {
    const text = tooltip(mapping);
    expect(text).toContain("revenue: <b>1,234.50</b>");
    expect(text).toContain("orders: <b>1,200</b>");
    expect(text).not.toContain("1,234.50000");
  });

  it("write every value with the chart's own number format when the user set one", () => {
    const text = tooltip({ ...mapping, numberFormat: "0,0.0" });
    expect(text).toContain("revenue: <b>1,234.5</b>");
    expect(text).toContain("orders: <b>1,200.0</b>");
  });

  it("write a column of unknown type with up to five decimals and no trailing zeros", () => {
    const untyped = { ...sales, columns: sales.columns.map((c) => ({ ...c, type: null })) };
    expect(tooltip(mapping, untyped)).toContain("revenue: <b>1,234.5</b>");
  });

  it("write percentages of an integer column as floats", () => {
    const text = tooltip({
      columnMapping: { country: "x", orders: "y", revenue: "y" },
      series: { stacking: "stack", percentValues: true },
      sortX: false,
    });
    expect(text).toContain("orders: <b>49.29% (49.29)</b>");
  });

  it("write a pie slice's value by its column's type", () => {
    const option = buildChartOption(
      sales,
      getChartOptions({ globalSeriesType: "pie", columnMapping: { country: "x", revenue: "y" } }),
      ctx,
    ).option;
    const text = ((option.tooltip as Obj).formatter as Formatter)({
      seriesIndex: 0,
      dataIndex: 0,
      marker: "",
    });
    expect(text).toBe("Italy: <b>99.18% (1,234.50)</b>");
  });

  it("label bars by the column's type too", () => {
    const option = buildChartOption(
      sales,
      getChartOptions({ ...mapping, showDataLabels: true }),
      ctx,
    ).option;
    const label = ((option.series as Obj[])[0]!.label as Obj).formatter as (p: unknown) => string;
    expect(label({ dataIndex: 1 })).toBe("10.25");
  });
});

describe("valueFormat", () => {
  it("keeps a chosen format, and stands in only for Redash's default", () => {
    expect(valueFormat({ numberFormat: "$0,0" }, { type: "float" })).toBe("$0,0");
    expect(valueFormat({ numberFormat: DEFAULT_NUMBER_FORMAT }, { type: "integer" })).toBe("0,0");
    expect(valueFormat({ numberFormat: DEFAULT_NUMBER_FORMAT }, { type: "float" })).toBe("0,0.00");
  });
});
