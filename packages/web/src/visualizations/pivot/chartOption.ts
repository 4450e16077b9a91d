// Pivot chart renderers as ECharts options: one series per column key over the row keys.
import { formatNumber, toNumber } from "../lib/numberFormat";
import { paletteColor } from "../palette";
import type { PivotResult } from "./pivot";

export function pivotChartOption(
  p: PivotResult,
  rendererName: string,
  hasCols: boolean,
): Record<string, unknown> {
  const categories = p.rowKeys.map((k) => k.join(" - ") || "Totals");
  const colKeys = hasCols ? p.colKeys : [[]];
  const seriesName = (ck: string[]) => ck.join(" - ") || "Totals";
  const values = (ck: string[]) =>
    p.rowKeys.map((rk) => toNumber(hasCols ? p.value(rk, ck) : p.rowTotal(rk)));
  if (rendererName === "Multiple Pie Chart") {
    const n = colKeys.length;
    const cols = Math.ceil(Math.sqrt(n));
    const rows = Math.ceil(n / cols);
    return {
      tooltip: { trigger: "item" },
      title: colKeys.map((ck, i) => ({
        text: seriesName(ck),
        left: `${((i % cols) + 0.5) * (100 / cols)}%`,
        top: `${Math.floor(i / cols) * (100 / rows)}%`,
        textAlign: "center",
        textStyle: { fontSize: 12 },
      })),
      series: colKeys.map((ck, i) => ({
        type: "pie",
        radius: `${Math.min(80 / cols, 80 / rows) / 2}%`,
        center: [
          `${((i % cols) + 0.5) * (100 / cols)}%`,
          `${(Math.floor(i / cols) + 0.55) * (100 / rows)}%`,
        ],
        data: categories.map((c, j) => ({
          name: c,
          value: values(ck)[j] ?? 0,
          itemStyle: { color: paletteColor(j) },
        })),
        label: { show: false },
      })),
    };
  }
  const horizontal = rendererName.includes("Bar Chart");
  const stacked = rendererName.startsWith("Stacked");
  const kind =
    rendererName.includes("Line") || rendererName.includes("Area")
      ? "line"
      : rendererName.includes("Dot") || rendererName.includes("Scatter")
        ? "scatter"
        : "bar";
  const categoryAxis = { type: "category", data: categories };
  const valueAxis = {
    type: "value",
    axisLabel: { formatter: (v: number) => formatNumber(v, "0,0[.]00") },
  };
  return {
    tooltip: { trigger: kind === "scatter" ? "item" : "axis" },
    legend: { show: hasCols, type: "scroll", bottom: 0 },
    grid: { containLabel: true, left: 16, right: 24, top: 16, bottom: hasCols ? 40 : 16 },
    xAxis: horizontal ? valueAxis : categoryAxis,
    yAxis: horizontal ? categoryAxis : valueAxis,
    series: colKeys.map((ck, i) => ({
      type: kind,
      name: seriesName(ck),
      data: values(ck),
      stack: stacked ? "all" : undefined,
      areaStyle: rendererName.includes("Area") ? { opacity: 0.35 } : undefined,
      itemStyle: { color: paletteColor(i) },
    })),
  };
}
