// The ECharts option of a cartesian chart (line, area, column, scatter, bubble, box): its series,
// axes, legend, grid and tooltip.
import { numberTickFormatter, timeTickFormatter } from "../lib/tickFormat";
import { escapeHtml } from "../lib/sanitize";
import type { QueryResultData } from "../types";
import type { BuildContext, BuiltChart, Obj } from "./builtChart";
import { cartesianSeries, type SeriesRef } from "./cartesianSeries";
import { categoryAxisLabel, categoryLayout, categoryNameGap, LINE_ROOM } from "./categoryAxis";
import { gridOption, legendOption, toolbox } from "./chartFrame";
import { axisTitle, type ChartOptions } from "./options";
import { compareX, prepareChart, type ChartSeries, type XAxisKind, type XValue } from "./prepare";
import { formatX, pointText } from "./text";
import { applyAlignZero, largestOnAxis, yAxisOption, yTickFormat } from "./valueAxis";

function axisType(kind: XAxisKind): string {
  return kind === "log" ? "log" : kind;
}

export function buildCartesian(
  data: QueryResultData,
  options: ChartOptions,
  ctx: BuildContext,
): BuiltChart {
  const { series, xKind, notices } = prepareChart(data, options, ctx.numberFormats);
  const swapped = !!options.swappedAxes;
  const stacked = options.series?.stacking === "stack";
  const isTime = xKind === "time";
  const category = xKind === "category";

  let categories: string[] | undefined;
  if (category) {
    const seen = new Map<string, XValue>();
    for (const s of series) for (const p of s.points) seen.set(String(p.x ?? "null"), p.x);
    categories = [...seen.keys()];
    if (options.sortX !== false && series.some((s) => s.type === "box")) {
      categories = [...seen.entries()].sort((a, b) => compareX(a[1], b[1])).map((e) => e[0]);
    }
  }

  const { out, refs } = cartesianSeries(series, xKind, categories, options, ctx);

  const xAxis: Obj = {
    type: axisType(xKind),
    scale: xKind === "value" && !series.some((s) => s.type === "column"),
    data: categories,
    inverse: category && !!options.reverseX,
    name: axisTitle(options.xAxis) || undefined,
    nameLocation: "middle",
    nameGap: 30,
    axisLabel: {
      show: options.xAxis?.labels?.enabled !== false,
      hideOverlap: true,
      formatter: isTime
        ? timeTickFormatter(options.xAxis?.tickFormat)
        : category
          ? (v: string) => formatX(v, options)
          : numberTickFormatter(options.xAxis?.tickFormat),
    },
  };
  const usesRight = series.some((s) => s.yAxis === 1);
  const percent = stacked && !!options.series?.percentValues;
  const largest = (axis: 0 | 1) => (percent ? 100 : largestOnAxis(series, axis, stacked));
  const yAxes = [yAxisOption(options.yAxis?.[0], 0, ctx.seps, percent, largest(0))];
  if (usesRight) yAxes.push(yAxisOption(options.yAxis?.[1], 1, ctx.seps, percent, largest(1)));
  if (usesRight && options.alignYAxesAtZero && !swapped) applyAlignZero(yAxes, series);
  if (
    series.some((s) => s.type === "scatter" || s.type === "bubble") &&
    series.some((s) => s.points.some((p) => typeof p.y === "string"))
  ) {
    for (const a of yAxes) {
      a.type = "category";
      a.axisLabel = {};
    }
  }

  const names = [...new Set(series.map((s) => s.name))];
  const legend = legendOption(options, ctx, names);
  const grid = gridOption(options, ctx, legend.show as boolean);
  let xNameGap = swapped ? 48 : 30;
  if (categories && options.xAxis?.labels?.enabled !== false) {
    // Every category gets its label (ECharts would skip the ones that overlap): rotated when
    // they do not fit side by side, with room for them (containLabel counts only their height).
    const texts = categories.map((c) => formatX(c, options));
    const yLabelRoom = (axis: 0 | 1) =>
      String(yTickFormat(options.yAxis?.[axis], ctx.seps)(largest(axis))).length * 6 + 8;
    const length = swapped
      ? ctx.height - (grid.top as number) - (grid.bottom as number) - LINE_ROOM
      : ctx.width -
        (grid.left as number) -
        (grid.right as number) -
        yLabelRoom(0) -
        (usesRight ? yLabelRoom(1) : 0);
    const layout = categoryLayout(
      xAxis.inverse ? [...texts].reverse() : texts,
      length,
      swapped,
      ctx,
      (grid.left as number) + yLabelRoom(0),
    );
    grid.left = (grid.left as number) + layout.extraLeft;
    xAxis.axisLabel = {
      ...(xAxis.axisLabel as Obj),
      ...categoryAxisLabel(layout, (v: string) => formatX(v, options)),
    };
    xNameGap = categoryNameGap(layout, swapped);
  }
  const axisTrigger =
    series.length > 0 &&
    series.every((s) => s.type === "line" || s.type === "area" || s.type === "column");
  const option: Obj = {
    animation: series.reduce((n, s) => n + s.points.length, 0) < 2000,
    useUTC: true,
    legend,
    grid,
    toolbox: toolbox(ctx),
    tooltip: {
      trigger: axisTrigger ? "axis" : "item",
      confine: true,
      axisPointer: { type: swapped ? "shadow" : "line" },
      formatter: (params: unknown) => tooltipHtml(params, refs, options, ctx),
    },
    xAxis: swapped
      ? yAxes.map((a) => ({
          ...a,
          position: a.position === "right" ? "top" : "bottom",
          nameGap: 30,
        }))
      : { ...xAxis, nameGap: xNameGap },
    yAxis: swapped ? { ...xAxis, nameGap: xNameGap } : yAxes,
    series: out,
  };
  return {
    option,
    notices,
    pointAt: (si, di) => {
      const r = refs[si];
      const point = r?.points[di];
      return r && point ? { series: r.series, point } : null;
    },
    categoryPoint: (category) => {
      if (!categories) return null;
      for (const s of series)
        for (const p of s.points) if (String(p.x ?? "null") === category) return p;
      return null;
    },
  };
}

interface TooltipParam {
  seriesIndex: number;
  dataIndex: number;
  marker?: string;
}

function tooltipHtml(
  params: unknown,
  refs: SeriesRef[],
  options: ChartOptions,
  ctx: BuildContext,
): string {
  const list = (Array.isArray(params) ? params : [params]) as TooltipParam[];
  const lines: string[] = [];
  let header = "";
  const usesX = /@@x/.test(options.textFormat || "");
  const usesName = /@@name/.test(options.textFormat || "");
  const done = new Set<ChartSeries>();
  for (const p of list) {
    const ref = refs[p.seriesIndex];
    const point = ref?.points[p.dataIndex];
    if (!ref || !point || done.has(ref.series)) continue;
    done.add(ref.series);
    if (!header && !usesX) header = escapeHtml(formatX(point.x, options));
    const text = escapeHtml(pointText(ref.series, point, options, ctx.seps));
    lines.push(
      `${p.marker ?? ""}${usesName ? "" : `${escapeHtml(ref.series.name)}: `}<b>${text}</b>`,
    );
  }
  return [header, ...lines].filter(Boolean).join("<br/>");
}
