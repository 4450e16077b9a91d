// BOXPLOT's ECharts option: every column is one box of its rows' values.
import { boxStats } from "../lib/boxStats";
import { asString } from "../lib/merge";
import { formatNumber, toNumber } from "../lib/numberFormat";
import { paletteColor } from "../palette";
import type { Options, QueryResultData } from "../types";

export function boxplotOption(options: Options, data: QueryResultData): Record<string, unknown> {
  const names = data.columns.map((c) => c.name);
  const stats = names.map((n) =>
    boxStats(data.rows.map((r) => toNumber(r[n])).filter((v): v is number => v !== null)),
  );
  const all = data.rows.flatMap((r) =>
    names.map((n) => toNumber(r[n])).filter((v): v is number => v !== null),
  );
  const xTitle = asString(options.xAxisLabel);
  return {
    tooltip: { trigger: "item" },
    // containLabel leaves the axis name out: room for the x axis title below the labels.
    grid: { containLabel: true, left: 16, right: 16, top: 24, bottom: xTitle ? 38 : 16 },
    xAxis: {
      type: "category",
      data: names,
      name: xTitle || undefined,
      nameLocation: "middle",
      nameGap: 28,
    },
    yAxis: {
      type: "value",
      name: asString(options.yAxisLabel) || undefined,
      min: all.length ? Math.min(...all) * 0.99 : undefined,
      max: all.length ? Math.max(...all) * 1.01 : undefined,
      scale: true,
      axisLabel: {
        showMinLabel: false,
        showMaxLabel: false,
        formatter: (v: number) => formatNumber(v, "0,0[.]00"),
      },
    },
    series: [
      {
        type: "boxplot",
        data: stats.map((s) => s?.box ?? []),
        itemStyle: { color: "transparent", borderColor: paletteColor(0) },
      },
      {
        type: "scatter",
        data: stats.flatMap((s, i) => (s?.outliers ?? []).map((v) => [i, v])),
        itemStyle: { color: paletteColor(3) },
      },
    ],
  };
}
