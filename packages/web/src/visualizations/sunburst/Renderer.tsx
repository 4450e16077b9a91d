import { useMemo } from "react";
import { EChart } from "../components/EChart";
import { formatNumber } from "../lib/numberFormat";
import { paletteColor } from "../palette";
import type { RendererProps } from "../types";
import { buildSunburst, totalSize, type SunburstNode } from "./sunburst";

export function SunburstRenderer({ data }: RendererProps) {
  const option = useMemo(() => {
    const tree = buildSunburst(data);
    const total = totalSize(tree);
    const names: string[] = [];
    const style = (nodes: SunburstNode[]): unknown[] =>
      nodes.map((n) => {
        if (!names.includes(n.name)) names.push(n.name);
        return {
          name: n.name,
          value: n.value,
          children: n.children ? style(n.children) : undefined,
          itemStyle: n.exit
            ? { color: "transparent" }
            : { color: paletteColor(names.indexOf(n.name)) },
          label: n.exit ? { show: false } : undefined,
          tooltip: n.exit ? { show: false } : undefined,
        };
      });
    return {
      tooltip: {
        formatter: (p: { treePathInfo: { name: string }[]; value: number }) => {
          const share = total ? (p.value / total) * 100 : 0;
          const trail = p.treePathInfo
            .slice(1)
            .map((t) => t.name)
            .join(" › ");
          return `${trail}<br/>${share < 1 ? "< 1.0%" : formatNumber(share, "0.0%")} (${formatNumber(p.value, "0,0")} of ${formatNumber(total, "0,0")})`;
        },
      },
      series: [
        {
          type: "sunburst",
          data: style(tree),
          radius: ["12%", "95%"],
          minAngle: 0.3,
          emphasis: { focus: "ancestor" },
          label: { rotate: "radial", minAngle: 8 },
        },
      ],
    };
  }, [data]);
  if (data.rows.length === 0) return null;
  return (
    <div style={{ height: "100%", minHeight: 320 }}>
      <EChart option={option} />
    </div>
  );
}
