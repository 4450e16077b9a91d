// Prepared chart data to an ECharts option. Pure: no DOM, so the mapping is unit-tested.
import { boxStats } from "../lib/boxStats";
import { formatNumber, type Separators } from "../lib/numberFormat";
import { numberTickFormatter, timeTickFormatter } from "../lib/tickFormat";
import { escapeHtml } from "../lib/sanitize";
import { colorOnScale, textColorFor } from "../palette";
import {
  fitBarLabel,
  LABEL_FONT_SIZE,
  LABEL_LINE_HEIGHT,
  layoutCategoryLabels,
  truncateText,
  type CategoryLabelLayout,
} from "./axisLabels";
import { axisTitle, type AxisOptions, type ChartOptions } from "./options";
import {
  compareX,
  prepareChart,
  prepareHeatmap,
  preparePies,
  type ChartPoint,
  type ChartSeries,
  type XAxisKind,
  type XValue,
} from "./prepare";
import { formatX, pointText } from "./text";
import type { QueryResultData } from "../types";

type Obj = Record<string, unknown>;

export interface BuiltChart {
  option: Obj;
  notices: string[];
  /** For click links and tooltips: ECharts series index → prepared series and its points. */
  pointAt(
    seriesIndex: number,
    dataIndex: number,
  ): { series: ChartSeries; point: ChartPoint } | null;
}

export interface BuildContext {
  width: number;
  height: number;
  seps: Separators;
  hideToolbox?: boolean;
}

/** Above this many points a series switches to ECharts' sampled / large / progressive modes. */
export const LARGE_SERIES = 5000;

const HEAT_SCALES: Record<string, string[]> = {
  default: ["#356aff", "#4a7aff", "#7c9bff", "#b5c7ff", "#ffd0d0", "#ff9b9b", "#f06464", "#e92827"],
  Blackbody: ["#000000", "#e60000", "#e6d200", "#ffffff", "#a0c8ff"],
  Bluered: ["#0000ff", "#ff0000"],
  Blues: ["#050a4f", "#1a4da6", "#4a88c9", "#83b9e0", "#c8e0f0", "#dcdcdc"],
  Earth: ["#000082", "#00b4b4", "#28d228", "#e6e632", "#784614", "#ffffff"],
  Electric: ["#000000", "#1e0064", "#780064", "#a05a00", "#e6c800", "#fffadc"],
  Greens: ["#00441b", "#006d2c", "#238b45", "#41ab5d", "#74c476", "#a1d99b", "#c7e9c0", "#f7fcf5"],
  Greys: ["#000000", "#ffffff"],
  Hot: ["#000000", "#e60000", "#ffd200", "#ffffff"],
  Jet: ["#000083", "#003caa", "#05ffff", "#ffff00", "#fa0000", "#800000"],
  Picnic: [
    "#0000ff",
    "#3399ff",
    "#66ccff",
    "#99ccff",
    "#ccccff",
    "#ffffff",
    "#ffccff",
    "#ff99ff",
    "#ff66cc",
    "#ff6666",
    "#ff0000",
  ],
  Portland: ["#0c3383", "#0a88ba", "#f2d338", "#f28f38", "#d91e1e"],
  Rainbow: [
    "#96005a",
    "#0000c8",
    "#0019ff",
    "#0098ff",
    "#2cff96",
    "#97ff00",
    "#ffea00",
    "#ff6f00",
    "#ff0000",
  ],
  RdBu: ["#050aac", "#6a89f7", "#bebebe", "#dcaa84", "#e6915a", "#b20a1c"],
  Reds: ["#dcdcdc", "#f5c39d", "#f5a069", "#b20a1c"],
  Viridis: ["#440154", "#3e4989", "#26828e", "#35b779", "#fde725"],
  YlGnBu: [
    "#081d58",
    "#253494",
    "#225ea8",
    "#1d91c0",
    "#41b6c4",
    "#7fcdbb",
    "#c7e9b4",
    "#edf8d9",
    "#ffffd9",
  ],
  YlOrRd: [
    "#800026",
    "#bd0026",
    "#e31a1c",
    "#fc4e2a",
    "#fd8d3c",
    "#feb24c",
    "#fed976",
    "#ffeda0",
    "#ffffcc",
  ],
};
export const HEATMAP_SCHEMES = Object.keys(HEAT_SCALES).filter((k) => k !== "default");

const toTime = (x: XValue) =>
  typeof x === "string" ? Date.parse(`${x.replace(" ", "T")}Z`) : typeof x === "number" ? x : null;

function axisType(kind: XAxisKind): string {
  return kind === "log" ? "log" : kind;
}

/** The tick label text of a value (y) axis. */
function yTickFormat(axis: AxisOptions | undefined, seps: Separators): (v: number) => string {
  return (
    numberTickFormatter(axis?.tickFormat) ?? ((v: number) => formatNumber(v, "0,0[.]00", seps))
  );
}

function yAxisOption(
  axis: AxisOptions | undefined,
  index: number,
  seps: Separators,
  percent = false,
  largest = 0,
): Obj {
  const type = axis?.type === "logarithmic" ? "log" : "value";
  const format = yTickFormat(axis, seps);
  return {
    type,
    name: axisTitle(axis) || undefined,
    nameLocation: "middle",
    // The rotated title goes beside the tick labels, however wide they are.
    nameGap: tickLabelWidth(largest, format) + 12,
    position: index === 1 ? "right" : "left",
    min: typeof axis?.rangeMin === "number" ? axis.rangeMin : undefined,
    // Percentages stop at 100 (ECharts' rounding would draw the axis to 120).
    max: typeof axis?.rangeMax === "number" ? axis.rangeMax : percent ? 100 : undefined,
    splitLine: { show: index === 0 },
    axisLabel: { formatter: format },
  };
}

/**
 * The estimated width in px (12 px labels) of an axis's widest tick label, from the largest
 * absolute value it shows: the next power of ten has as many digits as any round tick above it.
 */
export function tickLabelWidth(largest: number, format: (v: number) => string): number {
  const top = 10 ** Math.ceil(Math.log10(Math.max(Math.abs(largest), 1)));
  return Math.max(String(format(top)).length, String(format(-top)).length - 1) * 7;
}

/** Widens two [min, max] ranges so zero sits at the same height on both. */
export function alignZero(
  a: [number, number],
  b: [number, number],
): [[number, number], [number, number]] {
  const fix = ([lo, hi]: [number, number]): [number, number] => [Math.min(lo, 0), Math.max(hi, 0)];
  const [a0Fixed, a1] = fix(a);
  const [b0Fixed, b1] = fix(b);
  let a0 = a0Fixed;
  let b0 = b0Fixed;
  const ra = a1 === a0 ? 0 : -a0 / (a1 - a0);
  const rb = b1 === b0 ? 0 : -b0 / (b1 - b0);
  if (Math.abs(ra - rb) <= 0.02)
    return [
      [a0, a1],
      [b0, b1],
    ];
  const r = Math.max(ra, rb);
  // Extend the lower end of the axis whose zero sits lower, or the upper end of the other.
  if (ra < r) a0 = r === 1 ? a0 : (-r * a1) / (1 - r);
  if (rb < r) b0 = r === 1 ? b0 : (-r * b1) / (1 - r);
  return [
    [a0, a1],
    [b0, b1],
  ];
}

function legendOption(options: ChartOptions, ctx: BuildContext, names: string[]): Obj {
  const below = options.legend?.placement === "below" || ctx.width <= 600;
  const data = options.legend?.traceorder === "reversed" ? [...names].reverse() : names;
  return {
    show: options.legend?.enabled !== false && names.length > 0,
    type: "scroll",
    data,
    ...(below
      ? { bottom: 0, left: "center", orient: "horizontal" }
      : { right: 0, top: "middle", orient: "vertical" }),
  };
}

function gridOption(options: ChartOptions, ctx: BuildContext, showLegend: boolean): Obj {
  const below = options.legend?.placement === "below" || ctx.width <= 600;
  // containLabel leaves the axis name out: keep room for the bottom axis title.
  const bottomAxis = options.swappedAxes ? options.yAxis?.[0] : options.xAxis;
  const bottomTitle = bottomAxis && axisTitle(bottomAxis) ? 22 : 0;
  // containLabel leaves out the y axes' rotated titles too: room for them beside the labels.
  const [leftAxis, rightAxis] = options.swappedAxes ? [options.xAxis] : (options.yAxis ?? []);
  const titleRoom = (axis: AxisOptions | undefined) => (axis && axisTitle(axis) ? 16 : 0);
  return {
    containLabel: true,
    left: 16 + titleRoom(leftAxis),
    top: ctx.hideToolbox ? 16 : 36,
    right: (showLegend && !below ? Math.min(180, ctx.width * 0.25) : 24) + titleRoom(rightAxis),
    bottom: (showLegend && below ? 40 : 16) + bottomTitle,
  };
}

function toolbox(ctx: BuildContext): Obj | undefined {
  if (ctx.hideToolbox) return undefined;
  return {
    right: 8,
    top: 0,
    feature: {
      dataZoom: { yAxisIndex: "none" },
      restore: {},
      saveAsImage: { title: "Save as image" },
    },
  };
}

/** Height of the labels of a horizontal axis beside it: one line of text and its margin. */
const LINE_ROOM = 22;

/**
 * layoutCategoryLabels for an axis `length` px long, plus the room 30° labels need before the
 * axis start beyond the `before` px there already are.
 */
function categoryLayout(
  texts: string[],
  length: number,
  vertical: boolean,
  ctx: Pick<BuildContext, "width" | "height">,
  before: number,
): CategoryLabelLayout & { extraLeft: number } {
  const maxExtent = vertical ? Math.max(60, ctx.width * 0.3) : Math.max(40, ctx.height * 0.3);
  let layout = layoutCategoryLabels(texts, length, { vertical, maxExtent });
  let extraLeft = Math.max(0, layout.overhang + 4 - before);
  if (extraLeft > 0) {
    // The axis gets shorter by the room added: lay out again on the shorter axis.
    layout = layoutCategoryLabels(texts, length - extraLeft, { vertical, maxExtent });
    extraLeft = Math.max(extraLeft, layout.overhang + 4 - before);
  }
  return { ...layout, extraLeft };
}

function categoryAxisLabel(layout: CategoryLabelLayout, format: (v: string) => string): Obj {
  return {
    interval: layout.interval,
    rotate: layout.rotate,
    hideOverlap: false,
    formatter: (v: string) => truncateText(format(v), layout.maxWidth),
  };
}

/** The axis title's distance from the axis: beyond the labels (and their 8 px margin). */
function categoryNameGap(layout: CategoryLabelLayout, vertical: boolean): number {
  if (vertical) return layout.extent + 8 + 12;
  return layout.rotate ? layout.extent + 8 + 10 : 30;
}

export function buildChartOption(
  data: QueryResultData,
  options: ChartOptions,
  ctx: BuildContext,
): BuiltChart {
  if (options.globalSeriesType === "pie") return buildPie(data, options, ctx);
  if (options.globalSeriesType === "heatmap") return buildHeatmap(data, options, ctx);
  return buildCartesian(data, options, ctx);
}

function buildCartesian(
  data: QueryResultData,
  options: ChartOptions,
  ctx: BuildContext,
): BuiltChart {
  const { series, xKind, notices } = prepareChart(data, options);
  const swapped = !!options.swappedAxes;
  const stacked = options.series?.stacking === "stack";
  const refs: { series: ChartSeries; points: ChartPoint[] }[] = [];
  const out: Obj[] = [];
  const isTime = xKind === "time";
  const category = xKind === "category";
  const xValue = (x: XValue) => (isTime ? toTime(x) : category ? String(x ?? "null") : x);
  const pair = (x: unknown, y: unknown) => (swapped ? [y, x] : [x, y]);
  const showLabels = !!options.showDataLabels;

  let categories: string[] | undefined;
  if (category) {
    const seen = new Map<string, XValue>();
    for (const s of series) for (const p of s.points) seen.set(String(p.x ?? "null"), p.x);
    categories = [...seen.keys()];
    if (options.sortX !== false && series.some((s) => s.type === "box")) {
      categories = [...seen.entries()].sort((a, b) => compareX(a[1], b[1])).map((e) => e[0]);
    }
  }

  for (const s of series) {
    const big = s.points.length > LARGE_SERIES;
    const label = {
      show: showLabels && s.type !== "bubble" && s.type !== "box" && !big,
      position: s.type === "column" ? "inside" : "top",
      fontSize: LABEL_FONT_SIZE,
      lineHeight: LABEL_LINE_HEIGHT,
      formatter: (p: { dataIndex: number }) =>
        pointText(s, s.points[p.dataIndex], options, ctx.seps),
    };
    const base: Obj = {
      name: s.name,
      yAxisIndex: swapped ? undefined : s.yAxis,
      xAxisIndex: swapped ? s.yAxis : undefined,
      itemStyle: { color: s.color },
      label,
      emphasis: { focus: "series" },
    };
    if (s.type === "box") {
      const groups = new Map<string, number[]>();
      for (const p of s.points) {
        const k = String(p.x ?? "null");
        if (typeof p.y === "number") (groups.get(k) ?? groups.set(k, []).get(k))?.push(p.y);
      }
      const boxData: unknown[] = [];
      const outliers: unknown[] = [];
      for (const cat of categories ?? [...groups.keys()]) {
        const stats = boxStats(groups.get(cat) ?? []);
        boxData.push(stats ? { value: [cat, ...stats.box] } : { value: [cat] });
        if (options.showpoints) {
          for (const v of groups.get(cat) ?? []) outliers.push(pair(cat, v));
        } else if (stats) for (const v of stats.outliers) outliers.push(pair(cat, v));
      }
      out.push({
        ...base,
        type: "boxplot",
        data: boxData,
        itemStyle: { color: "transparent", borderColor: s.color },
        label: undefined,
        encode: swapped ? { y: 0, x: [1, 2, 3, 4, 5] } : { x: 0, y: [1, 2, 3, 4, 5] },
      });
      refs.push({ series: s, points: [] });
      out.push({
        ...base,
        type: "scatter",
        name: s.name,
        data: outliers,
        symbolSize: 5,
        label: undefined,
      });
      refs.push({ series: s, points: [] });
      continue;
    }
    const seriesData = s.points.map((p) =>
      pair(xValue(p.x), typeof p.y === "string" && isTime === false ? p.y : p.y),
    );
    const ref = { series: s, points: s.points };
    if (s.type === "line" || s.type === "area") {
      out.push({
        ...base,
        type: "line",
        data: seriesData,
        smooth: options.lineShape === "spline",
        step: options.lineShape === "hv" ? "end" : options.lineShape === "vh" ? "start" : false,
        stack: stacked ? `stack-${s.yAxis}` : undefined,
        // Labels that would overprint another are hidden (shown again on hover).
        labelLayout: label.show ? { hideOverlap: true } : undefined,
        areaStyle: s.type === "area" ? { opacity: 0.35 } : undefined,
        lineStyle: { color: s.color },
        connectNulls: false,
        showSymbol: !big && s.points.length <= 500,
        symbolSize: 5,
        ...(big
          ? { sampling: "lttb", large: true, progressive: 4000, progressiveThreshold: LARGE_SERIES }
          : {}),
      });
    } else if (s.type === "column") {
      out.push({
        ...base,
        type: "bar",
        data: seriesData,
        stack: stacked ? `stack-${s.yAxis}` : undefined,
        // A label too big for its segment shrinks; one that would still overprint is hidden.
        labelLayout: label.show ? fitBarLabel : undefined,
        ...(big ? { large: true, largeThreshold: LARGE_SERIES, progressive: 4000 } : {}),
      });
    } else {
      const bubble = s.type === "bubble";
      const maxSize = Math.max(
        1,
        ...s.points.map((p) => Math.abs(p.size ?? 0) * (options.coefficient || 1)),
      );
      out.push({
        ...base,
        type: "scatter",
        data: seriesData,
        symbolSize: bubble
          ? (_: unknown, p: { dataIndex: number }) => {
              const size = Math.abs(s.points[p.dataIndex]?.size ?? 0) * (options.coefficient || 1);
              // "area" makes the marker's area, not its diameter, proportional to the size.
              const d =
                options.sizemode === "area"
                  ? Math.sqrt(size / maxSize) * 40
                  : (size / maxSize) * 40;
              return Math.max(3, d);
            }
          : 8,
        itemStyle: { color: s.color, opacity: bubble ? 0.75 : 1 },
        labelLayout: label.show ? { hideOverlap: true } : undefined,
        ...(big ? { large: true, largeThreshold: 2000, progressive: 4000 } : {}),
      });
    }
    refs.push(ref);
    if (s.points.some((p) => typeof p.yError === "number")) {
      out.push(errorBars(s, swapped, xValue, base));
      refs.push(ref);
    }
  }

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
  };
}

/** The largest absolute value an axis shows: of its points, or of each x's stacked sums. */
function largestOnAxis(series: ChartSeries[], axis: 0 | 1, stacked: boolean): number {
  const sums = new Map<string, number>();
  let largest = 0;
  for (const s of series) {
    if (s.yAxis !== axis) continue;
    for (const p of s.points) {
      if (typeof p.y !== "number") continue;
      const key = String(p.x);
      const value = stacked ? (sums.get(key) ?? 0) + Math.abs(p.y) : Math.abs(p.y);
      if (stacked) sums.set(key, value);
      if (value > largest) largest = value;
    }
  }
  return largest;
}

function applyAlignZero(yAxes: Obj[], series: ChartSeries[]) {
  const range = (axis: 0 | 1): [number, number] => {
    const ys = series
      .filter((s) => s.yAxis === axis)
      .flatMap((s) => s.points.map((p) => p.y))
      .filter((y): y is number => typeof y === "number");
    return ys.length ? [Math.min(...ys), Math.max(...ys)] : [0, 1];
  };
  const [a, b] = alignZero(range(0), range(1));
  yAxes[0].min ??= a[0];
  yAxes[0].max ??= a[1];
  yAxes[1].min ??= b[0];
  yAxes[1].max ??= b[1];
}

function errorBars(
  s: ChartSeries,
  swapped: boolean,
  xValue: (x: XValue) => unknown,
  base: Obj,
): Obj {
  const data = s.points.map((p) => {
    const y = typeof p.y === "number" ? p.y : null;
    const e = p.yError ?? 0;
    return y === null ? [xValue(p.x), null, null] : [xValue(p.x), y - e, y + e];
  });
  return {
    name: s.name,
    type: "custom",
    yAxisIndex: swapped ? undefined : base.yAxisIndex,
    xAxisIndex: swapped ? base.xAxisIndex : undefined,
    silent: true,
    z: 10,
    data,
    encode: swapped ? { y: 0, x: [1, 2] } : { x: 0, y: [1, 2] },
    renderItem: (
      _params: unknown,
      api: { value(i: number): number; coord(v: unknown[]): number[] },
    ) => {
      const x = api.value(0);
      const lo = api.value(1);
      const hi = api.value(2);
      if (lo === null || hi === null || Number.isNaN(lo)) return null;
      const a = api.coord(swapped ? [lo, x] : [x, lo]);
      const b = api.coord(swapped ? [hi, x] : [x, hi]);
      const cap = 4;
      const style = { stroke: s.color, lineWidth: 1.5 };
      const capLine = (p: number[]) =>
        swapped
          ? { type: "line", shape: { x1: p[0], y1: p[1] - cap, x2: p[0], y2: p[1] + cap }, style }
          : { type: "line", shape: { x1: p[0] - cap, y1: p[1], x2: p[0] + cap, y2: p[1] }, style };
      return {
        type: "group",
        children: [
          { type: "line", shape: { x1: a[0], y1: a[1], x2: b[0], y2: b[1] }, style },
          capLine(a),
          capLine(b),
        ],
      };
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
  refs: { series: ChartSeries; points: ChartPoint[] }[],
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

function buildPie(data: QueryResultData, options: ChartOptions, ctx: BuildContext): BuiltChart {
  const { pies, notices } = preparePies(data, options);
  const n = pies.length;
  const rows = n <= 1 ? 1 : n <= 3 && ctx.width >= ctx.height ? 1 : 2;
  const cols = Math.max(1, Math.ceil(n / rows));
  const legendShown = options.legend?.enabled !== false;
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
  const names = [...new Set(pies.flatMap((p) => p.slices.map((s) => s.label)))];
  const option: Obj = {
    title: titles,
    legend: legendOption(options, ctx, names),
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
          ? pointText({ name: pie.name, type: "pie" }, point, options, ctx.seps)
          : `${formatNumber(slice.percent, options.percentFormat, ctx.seps)} (${formatNumber(slice.value, options.numberFormat, ctx.seps)})`;
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

function buildHeatmap(data: QueryResultData, options: ChartOptions, ctx: BuildContext): BuiltChart {
  const notices: string[] = [];
  const heat = prepareHeatmap(data, options);
  let colors = HEAT_SCALES[options.colorScheme ?? ""] ?? HEAT_SCALES.default;
  if (options.colorScheme === "Custom...")
    colors = [options.heatMinColor || "#ffffff", options.heatMaxColor || "#002FB4"];
  const schemeSet = !!options.colorScheme;
  const max = heat.max === heat.min ? heat.min + 1 : heat.max;
  // With a scheme, each label takes the text colour that reads on its own cell's colour.
  const cells = schemeSet
    ? heat.cells.map((cell) => ({
        value: cell,
        label: {
          color: textColorFor(colorOnScale(colors, (cell[2] - heat.min) / (max - heat.min))),
        },
      }))
    : heat.cells;
  // Every x and y category keeps its label, as on other category axes.
  const xTexts = heat.xs.map((v) => formatX(v, options));
  const yTexts = heat.ys.map((v) => formatX(v, options));
  const grid = { containLabel: true, left: 16, right: 80, top: 16, bottom: 16 };
  const xShown = options.xAxis?.labels?.enabled !== false;
  const yRough = categoryLayout(yTexts, ctx.height - 32 - LINE_ROOM, true, ctx, 0);
  const xLayout = categoryLayout(
    xTexts,
    ctx.width - grid.left - grid.right - yRough.extent - 8,
    false,
    ctx,
    grid.left + yRough.extent + 8,
  );
  const yLayout = categoryLayout(
    yTexts,
    ctx.height - grid.top - grid.bottom - (xShown ? xLayout.extent + 8 : 0),
    true,
    ctx,
    0,
  );
  if (xShown) grid.left += xLayout.extraLeft;
  const option: Obj = {
    tooltip: {
      trigger: "item",
      confine: true,
      formatter: (p: { value: [number, number, number] }) =>
        `${escapeHtml(heat.xs[p.value[0]])}, ${escapeHtml(heat.ys[p.value[1]])}: <b>${escapeHtml(formatNumber(p.value[2], options.numberFormat, ctx.seps))}</b>`,
    },
    grid,
    xAxis: {
      type: "category",
      data: heat.xs,
      name: axisTitle(options.xAxis) || undefined,
      nameLocation: "middle",
      nameGap: categoryNameGap(xLayout, false),
      axisLabel: {
        show: xShown,
        ...categoryAxisLabel(xLayout, (v: string) => formatX(v, options)),
      },
    },
    yAxis: {
      type: "category",
      data: heat.ys,
      name: axisTitle(options.yAxis?.[0]) || undefined,
      axisLabel: categoryAxisLabel(yLayout, (v: string) => formatX(v, options)),
    },
    visualMap: {
      min: heat.min,
      max,
      calculable: true,
      orient: "vertical",
      right: 0,
      top: "middle",
      inRange: { color: colors },
    },
    series: [
      {
        type: "heatmap",
        data: cells,
        label: {
          show: !!options.showDataLabels,
          formatter: (p: { value: [number, number, number] }) =>
            formatNumber(p.value[2], options.numberFormat, ctx.seps),
        },
        emphasis: { itemStyle: { borderColor: "#333", borderWidth: 1 } },
        progressive: 2000,
      },
    ],
  };
  if (heat.cells.length === 0 && data.rows.length > 0)
    notices.push("Choose the X, Y and Color columns in the editor to draw this heatmap.");
  return { option, notices, pointAt: () => null };
}
