// The ECharts option of a pie chart: one pie per series, laid out in rows, with legend and tooltip.
import { formatNumber } from "../lib/numberFormat";
import { escapeHtml } from "../lib/sanitize";
import type { QueryResultData } from "../types";
import type { BuildContext, BuiltChart, Obj } from "./builtChart";
import { legendOption, toolbox } from "./chartFrame";
import type { ChartOptions } from "./options";
import { preparePies, type ChartPoint } from "./prepare";
import { pointText } from "./text";

/** Degrees of a slice below which its label is left out: about a label's height at the rim. */
export const MIN_LABEL_ANGLE = 12;

export function buildPie(
  data: QueryResultData,
  options: ChartOptions,
  ctx: BuildContext,
): BuiltChart {
  const { pies, notices } = preparePies(data, options, ctx.numberFormats);
  const n = pies.length;
  const rows = n <= 1 ? 1 : n <= 3 && ctx.width >= ctx.height ? 1 : 2;
  const cols = Math.max(1, Math.ceil(n / rows));
  const names = [...new Set(pies.flatMap((p) => p.slices.map((s) => s.label)))];
  const legend = legendOption(options, ctx, names);
  const legendShown = legend.show === true;
  const below = options.legend?.placement === "below" || ctx.width <= 600;
  const usableW = ctx.width - (legendShown && !below ? Math.min(180, ctx.width * 0.25) : 0);
  const usableH = ctx.height - (legendShown && below ? 40 : 0) - 10;
  const cellW = usableW / cols;
  const cellH = usableH / rows;
  const outer = Math.max(10, Math.min(cellW, cellH - 24) / 2 - 10);
  const usesName = /@@name/.test(options.textFormat || "");
  const series = pies.map((pie, i) => {
    const cx = cellW * (i % cols) + cellW / 2;
    const cy = cellH * Math.floor(i / cols) + cellH / 2 + 12;
    return {
      type: "pie",
      name: pie.name,
      radius: [outer * 0.4, outer],
      center: [cx, cy],
      clockwise: options.direction?.type === "clockwise",
      startAngle: 90,
      data: pie.slices.map((s) => ({
        name: s.label,
        value: s.value,
        itemStyle: { color: s.color },
      })),
      label: {
        show: !!options.showDataLabels,
        position: "inside",
        formatter: (p: { percent: number }) => formatNumber(p.percent, "0[.]0%", ctx.seps),
        color: "#ffffff",
      },
      // A slice too thin for its label shows none (its tooltip has it), and labels that would
      // still overprint each other are hidden.
      minShowLabelAngle: MIN_LABEL_ANGLE,
      labelLayout: { hideOverlap: true },
      labelLine: { show: false },
    };
  });
  const titles = usesName
    ? []
    : pies.map((pie, i) => ({
        text: pie.name,
        left: cellW * (i % cols) + cellW / 2,
        top: cellH * Math.floor(i / cols),
        textAlign: "center",
        textStyle: { fontSize: 12, fontWeight: "normal" },
      }));
  const option: Obj = {
    title: titles,
    legend,
    tooltip: {
      trigger: "item",
      confine: true,
      formatter: (p: { seriesIndex: number; dataIndex: number; marker: string }) => {
        const pie = pies[p.seriesIndex];
        const slice = pie?.slices[p.dataIndex];
        if (!pie || !slice) return "";
        const point: ChartPoint = {
          x: slice.label,
          y: slice.value,
          yPercent: slice.percent,
          row: slice.row,
        };
        const text = options.textFormat
          ? pointText(
              { name: pie.name, type: "pie", numberFormat: pie.numberFormat },
              point,
              options,
              ctx.seps,
            )
          : `${formatNumber(slice.percent, options.percentFormat, ctx.seps)} (${formatNumber(slice.value, pie.numberFormat, ctx.seps)})`;
        const usesX = /@@x/.test(options.textFormat || "");
        return `${p.marker}${usesX ? "" : `${escapeHtml(slice.label)}: `}<b>${escapeHtml(text)}</b>`;
      },
    },
    toolbox: toolbox(ctx),
    series,
  };
  return {
    option,
    notices,
    pointAt: (si, di) => {
      const pie = pies[si];
      const slice = pie?.slices[di];
      if (!pie || !slice) return null;
      return {
        series: {
          key: pie.key,
          name: pie.name,
          type: "pie",
          yAxis: 0,
          color: slice.color,
          points: [],
        },
        point: { x: slice.label, y: slice.value, yPercent: slice.percent, row: slice.row },
      };
    },
  };
}
