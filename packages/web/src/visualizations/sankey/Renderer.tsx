import { useMemo } from "react";
import { EChart } from "../components/EChart";
import { Notices } from "../components/Notice";
import { formatNumber } from "../lib/numberFormat";
import { paletteColor } from "../palette";
import type { RendererProps } from "../types";
import { buildSankey } from "./sankey";

export function SankeyRenderer({ data }: RendererProps) {
  const graph = useMemo(() => buildSankey(data), [data]);
  const option = useMemo(() => {
    const firstWords = [...new Set(graph.nodes.map((n) => n.label.split(/\s+/)[0]))];
    return {
      tooltip: {
        trigger: "item",
        formatter: (p: {
          dataType: string;
          data: { label?: string; source?: string; target?: string; value?: number };
          value: number;
        }) =>
          p.dataType === "edge"
            ? `${String(p.data.source).replace(/^\d+:/, "")} → ${String(p.data.target).replace(/^\d+:/, "")}: ${formatNumber(p.value, "0,0")}`
            : `${p.data.label}: ${formatNumber(p.value, "0,0")}`,
      },
      series: [
        {
          type: "sankey",
          emphasis: { focus: "adjacency" },
          nodeAlign: "justify",
          data: graph.nodes.map((n) => ({
            name: n.name,
            label: n.label,
            itemStyle: {
              color:
                n.label === "Exit"
                  ? "transparent"
                  : paletteColor(firstWords.indexOf(n.label.split(/\s+/)[0])),
            },
          })),
          links: graph.links,
          label: {
            formatter: (p: { data: { label: string } }) =>
              p.data.label === "Exit" ? "" : p.data.label,
          },
          lineStyle: { color: "gradient", opacity: 0.35 },
        },
      ],
    };
  }, [graph]);
  if (graph.error) return <Notices notices={data.rows.length ? [graph.error] : []} />;
  return (
    <div style={{ height: "100%", minHeight: 320 }}>
      <EChart option={option} />
    </div>
  );
}
