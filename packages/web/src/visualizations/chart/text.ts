// Label and hover text of chart points (catalogue 2.5): "@@" variables and {{ column }} values.
import { formatDate } from "../lib/dateFormat";
import { formatNumber, type Separators } from "../lib/numberFormat";
import { renderTemplate, valueText } from "../lib/template";
import type { ChartOptions } from "./options";
import type { ChartPoint, ChartSeries } from "./prepare";

const DATE_TEXT = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

export function formatX(x: unknown, options: ChartOptions): string {
  if (typeof x === "string" && DATE_TEXT.test(x)) return formatDate(x, options.dateTimeFormat);
  return valueText(x);
}

export function pointVariables(
  series: Pick<ChartSeries, "name" | "type" | "numberFormat">,
  point: ChartPoint,
  options: ChartOptions,
  seps: Separators,
): Record<string, string> {
  const num = (v: unknown) => formatNumber(v, series.numberFormat ?? options.numberFormat, seps);
  const raw = series.type === "scatter" || series.type === "bubble";
  const vars: Record<string, string> = {
    "@@name": series.name,
    "@@x": formatX(point.x, options),
    "@@y": raw
      ? typeof point.y === "number"
        ? num(point.y)
        : formatX(point.y, options)
      : num(point.y),
  };
  if (point.yError !== undefined && point.yError !== null) vars["@@yError"] = num(point.yError);
  if (point.yPercent !== undefined)
    vars["@@yPercent"] = formatNumber(point.yPercent, options.percentFormat, seps);
  if (point.size !== undefined && point.size !== null) vars["@@size"] = num(point.size);
  return vars;
}

/** The automatic text when textFormat is empty. */
export function automaticTemplate(
  series: Pick<ChartSeries, "type">,
  point: ChartPoint,
  percent: boolean,
): string {
  let text = "{{ @@y }}";
  if (point.yError !== undefined && point.yError !== null) text += " ± {{ @@yError }}";
  if (percent && point.yPercent !== undefined) text = `{{ @@yPercent }} (${text})`;
  if (series.type === "bubble") text += ": {{ @@size }}";
  return text;
}

export function pointText(
  series: Pick<ChartSeries, "name" | "type" | "numberFormat">,
  point: ChartPoint,
  options: ChartOptions,
  seps: Separators,
): string {
  const vars = pointVariables(series, point, options, seps);
  const template =
    options.textFormat || automaticTemplate(series, point, !!options.series?.percentValues);
  return renderTemplate(template, (key) =>
    key in vars
      ? vars[key]
      : Object.prototype.hasOwnProperty.call(point.row, key)
        ? valueText(point.row[key])
        : undefined,
  );
}

/** The click URL: @@x, @@y of the first point, @@x1, @@y1, … raw; unknown placeholders removed. */
export function clickUrl(
  linkFormat: string,
  points: { x: unknown; y: unknown; row: Record<string, unknown> }[],
  options: ChartOptions,
): string {
  const vars: Record<string, string> = {};
  if (points[0]) {
    vars["@@x"] = formatX(points[0].x, options);
    vars["@@y"] = valueText(points[0].y);
  }
  points.forEach((p, i) => {
    vars[`@@x${i + 1}`] = valueText(p.x);
    vars[`@@y${i + 1}`] = valueText(p.y);
  });
  const row = points[0]?.row ?? {};
  return renderTemplate(
    linkFormat,
    (key) =>
      key in vars
        ? vars[key]
        : Object.prototype.hasOwnProperty.call(row, key)
          ? valueText(row[key])
          : undefined,
    { removeUnknown: true },
  );
}
