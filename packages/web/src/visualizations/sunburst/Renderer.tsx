import { useMemo } from "react";
import { EChart, type EChartsClick } from "../components/EChart";
import { formatNumber } from "../lib/numberFormat";
import { paletteColor } from "../palette";
import type { RendererProps } from "../types";
import { buildSunburst, stageColumns, totalSize, type SunburstNode } from "./sunburst";

export function SunburstRenderer({ data, onDatumClick, selection }: RendererProps) {
  const stages = useMemo(() => stageColumns(data), [data]);
  const option = useMemo(() => {
    const tree = buildSunburst(data);
    const total = totalSize(tree);
    const names: string[] = [];
    // The widget's own cross-filter selection: other nodes of a selected ring dimmed.
    const dimmed = (name: string, depth: number) => {
      const column = stages[depth];
      return !!column && !!selection?.columns.includes(column) && !selection.has(column, name);
    };
    const style = (nodes: SunburstNode[], depth = 0): unknown[] =>
      nodes.map((n) => {
        if (!names.includes(n.name)) names.push(n.name);
        return {
          name: n.name,
          value: n.value,
          exit: n.exit,
          children: n.children ? style(n.children, depth + 1) : undefined,
          itemStyle: n.exit
            ? { color: "transparent" }
            : {
                color: paletteColor(names.indexOf(n.name)),
                opacity: dimmed(n.name, depth) ? 0.3 : 1,
              },
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
          // With clicks taken as values, a click does not also zoom into the node.
          nodeClick: onDatumClick && stages.length ? false : "rootToNode",
          label: { rotate: "radial", minAngle: 8 },
        },
      ],
    };
  }, [data, stages, selection, onDatumClick]);

  // A node of the table format: its ring's column and the path to it.
  const onClick = (p: EChartsClick) => {
    const info = p as EChartsClick & { treePathInfo?: { name: string }[] };
    if (!onDatumClick || (p.data as { exit?: boolean } | undefined)?.exit) return;
    const path = (info.treePathInfo ?? []).slice(1).map((t) => t.name);
    const column = stages[path.length - 1];
    if (!column) return;
    const native = p.event?.event;
    onDatumClick({
      column,
      value: path[path.length - 1],
      row: Object.fromEntries(path.map((name, i) => [stages[i]!, name])),
      additive: !!(native?.ctrlKey || native?.metaKey),
    });
  };

  if (data.rows.length === 0) return null;
  return (
    <div style={{ height: "100%", minHeight: 320 }}>
      <EChart option={option} onClick={onDatumClick && stages.length ? onClick : undefined} />
    </div>
  );
}
