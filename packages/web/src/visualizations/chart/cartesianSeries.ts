// Prepared cartesian series to ECharts series (lines, areas, bars, scatter, bubbles, box plots,
// error bars) with their data labels.
import { boxStats } from "../lib/boxStats";
import { fitBarLabel, LABEL_FONT_SIZE, LABEL_LINE_HEIGHT } from "./axisLabels";
import type { BuildContext, Obj } from "./builtChart";
import type { ChartOptions } from "./options";
import type { ChartPoint, ChartSeries, XAxisKind, XValue } from "./prepare";
import { pointText } from "./text";

/** Above this many points a series switches to ECharts' sampled / large / progressive modes. */
export const LARGE_SERIES = 5000;

/** The prepared series an ECharts series draws, and the points behind its data (none for boxes). */
export interface SeriesRef {
  series: ChartSeries;
  points: ChartPoint[];
}

const toTime = (x: XValue) =>
  typeof x === "string" ? Date.parse(`${x.replace(" ", "T")}Z`) : typeof x === "number" ? x : null;

/** The ECharts series of prepared cartesian series, and the SeriesRef of each, in the same order. */
export function cartesianSeries(
  series: ChartSeries[],
  xKind: XAxisKind,
  categories: string[] | undefined,
  options: ChartOptions,
  ctx: BuildContext,
): { out: Obj[]; refs: SeriesRef[] } {
  const swapped = !!options.swappedAxes;
  const stacked = options.series?.stacking === "stack";
  const refs: SeriesRef[] = [];
  const out: Obj[] = [];
  const isTime = xKind === "time";
  const category = xKind === "category";
  const xValue = (x: XValue) => (isTime ? toTime(x) : category ? String(x ?? "null") : x);
  const pair = (x: unknown, y: unknown) => (swapped ? [y, x] : [x, y]);
  const showLabels = !!options.showDataLabels;

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
  return { out, refs };
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
