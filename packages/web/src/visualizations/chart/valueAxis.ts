// The value (y) axes of a cartesian chart: tick labels, room for the title, zero aligned on two.
import { formatNumber, type Separators } from "../lib/numberFormat";
import { numberTickFormatter } from "../lib/tickFormat";
import type { Obj } from "./builtChart";
import { axisTitle, type AxisOptions } from "./options";
import type { ChartSeries } from "./prepare";

/** The tick label text of a value (y) axis. */
export function yTickFormat(
  axis: AxisOptions | undefined,
  seps: Separators,
): (v: number) => string {
  return (
    numberTickFormatter(axis?.tickFormat) ?? ((v: number) => formatNumber(v, "0,0[.]00", seps))
  );
}

export function yAxisOption(
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

/** The largest absolute value an axis shows: of its points, or of each x's stacked sums. */
export function largestOnAxis(series: ChartSeries[], axis: 0 | 1, stacked: boolean): number {
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

export function applyAlignZero(yAxes: Obj[], series: ChartSeries[]) {
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
