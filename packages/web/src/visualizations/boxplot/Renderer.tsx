// BOXPLOT (deprecated): every column is one box of its rows' values. Still renders.
import { useMemo } from "react";
import { EChart } from "../components/EChart";
import { boxStats } from "../lib/boxStats";
import { asString } from "../lib/merge";
import { formatNumber, toNumber } from "../lib/numberFormat";
import { paletteColor } from "../palette";
import type { RendererProps } from "../types";

export function BoxplotRenderer({ options, data }: RendererProps) {
  const option = useMemo(() => {
    const names = data.columns.map((c) => c.name);
    const stats = names.map((n) =>
      boxStats(data.rows.map((r) => toNumber(r[n])).filter((v): v is number => v !== null)),
    );
    const all = data.rows.flatMap((r) =>
      names.map((n) => toNumber(r[n])).filter((v): v is number => v !== null),
    );
    return {
      tooltip: { trigger: "item" },
      grid: { containLabel: true, left: 16, right: 16, top: 24, bottom: 16 },
      xAxis: {
        type: "category",
        data: names,
        name: asString(options.xAxisLabel) || undefined,
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
  }, [data, options]);
  if (data.rows.length === 0) return null;
  return (
    <div style={{ height: "100%", minHeight: 300 }}>
      <EChart option={option} />
    </div>
  );
}
