// CHART stored options: defaults and the getOptions fill-in (catalogue 2.1, 1.2).
import { asObject, mergeOptions } from "../lib/merge";
import { DEFAULT_FORMATS, type Options, type VisualizationFormats } from "../types";

export type GlobalSeriesType =
  "line" | "column" | "area" | "pie" | "scatter" | "bubble" | "heatmap" | "box" | "custom";

export const CHART_TYPES: { value: GlobalSeriesType; label: string }[] = [
  { value: "line", label: "Line" },
  { value: "column", label: "Bar" },
  { value: "area", label: "Area" },
  { value: "pie", label: "Pie" },
  { value: "scatter", label: "Scatter" },
  { value: "bubble", label: "Bubble" },
  { value: "heatmap", label: "Heatmap" },
  { value: "box", label: "Box" },
  { value: "custom", label: "Custom" },
];

export interface AxisOptions {
  type: string;
  title?: { text?: string } | string | null;
  tickFormat?: string;
  rangeMin?: number | null;
  rangeMax?: number | null;
  opposite?: boolean;
  labels?: { enabled?: boolean };
}

export interface SeriesOption {
  name?: string;
  type?: string;
  yAxis?: number;
  zIndex?: number;
  color?: string;
}

export interface ChartOptions extends Options {
  globalSeriesType: GlobalSeriesType;
  sortX: boolean;
  legend: {
    enabled: boolean;
    placement: "auto" | "below";
    traceorder: "normal" | "reversed";
    /**
     * Sightline's: no legend while the chart draws one series (new charts store true; Redash's
     * charts lack it and keep their legend). Choosing a placement in the editor clears it.
     */
    hideWhenOneSeries?: boolean;
  };
  xAxis: AxisOptions;
  yAxis: AxisOptions[];
  alignYAxesAtZero: boolean;
  error_y: { type: string; visible: boolean };
  series: {
    stacking: string | null;
    percentValues?: boolean;
    error_y: { type: string; visible: boolean };
  };
  seriesOptions: Record<string, SeriesOption>;
  valuesOptions: Record<string, { color?: string }>;
  columnMapping: Record<string, string>;
  direction: { type: "counterclockwise" | "clockwise" };
  sizemode: "diameter" | "area";
  coefficient: number;
  piesort: boolean;
  color_scheme: string;
  colorScheme: string | null;
  heatMinColor?: string;
  heatMaxColor?: string;
  showDataLabels: boolean;
  numberFormat: string;
  percentFormat: string;
  dateTimeFormat: string;
  textFormat: string;
  missingValuesAsZero: boolean;
  lineShape: "linear" | "spline" | "hv" | "vh";
  enableLink: boolean;
  linkOpenNewTab: boolean;
  linkFormat: string;
  reverseX?: boolean;
  sortY?: boolean;
  reverseY?: boolean;
  swappedAxes?: boolean;
  showpoints?: boolean;
  customCode?: string;
  enableConsoleLogs?: boolean;
  autoRedraw?: boolean;
}

export function chartDefaults(
  formats?: Pick<VisualizationFormats, "dateTimeFormat">,
): ChartOptions {
  return {
    globalSeriesType: "column",
    sortX: true,
    legend: { enabled: true, placement: "auto", traceorder: "normal" },
    xAxis: { type: "-", labels: { enabled: true } },
    yAxis: [{ type: "linear" }, { type: "linear", opposite: true }],
    alignYAxesAtZero: false,
    error_y: { type: "data", visible: true },
    series: { stacking: null, error_y: { type: "data", visible: true } },
    seriesOptions: {},
    valuesOptions: {},
    columnMapping: {},
    direction: { type: "counterclockwise" },
    sizemode: "diameter",
    coefficient: 1,
    piesort: true,
    color_scheme: "Redash",
    colorScheme: null,
    showDataLabels: false,
    numberFormat: "0,0[.]00000",
    percentFormat: "0[.]00%",
    dateTimeFormat: formats?.dateTimeFormat ?? DEFAULT_FORMATS.dateTimeFormat,
    textFormat: "",
    missingValuesAsZero: true,
    lineShape: "linear",
    enableLink: false,
    linkOpenNewTab: true,
    linkFormat: "",
  };
}

/**
 * What a chart made here starts with, stored with it: Redash's defaults, except that categories
 * keep the result's order (a query's ORDER BY) until the user turns Sort Values on, and a chart of
 * one series draws no legend. Stored charts lacking these keys keep Redash's meaning (sorted, with
 * a legend), as getChartOptions fills them in.
 */
export function newChartOptions(
  formats?: Pick<VisualizationFormats, "dateTimeFormat">,
): ChartOptions {
  const defaults = chartDefaults(formats);
  return { ...defaults, sortX: false, legend: { ...defaults.legend, hideWhenOneSeries: true } };
}

/** Defaults filled in, legacy keys rewritten. Unknown keys are kept. */
export function getChartOptions(
  stored: Options | null | undefined,
  formats?: Pick<VisualizationFormats, "dateTimeFormat">,
): ChartOptions {
  const src = asObject(stored);
  const defaults = chartDefaults(formats);
  // Pie shows data labels unless told otherwise.
  if (src.globalSeriesType === "pie") defaults.showDataLabels = true;
  const options = mergeOptions(defaults, src);
  const stacking = options.series.stacking;
  if (stacking === "normal" || stacking === "percent") {
    options.series = { ...options.series, stacking: "stack" };
    if (stacking === "percent") options.series.percentValues = true;
  }
  // The chart's columnMapping is replaced whole, never merged.
  options.columnMapping = { ...asObject(src.columnMapping) } as Record<string, string>;
  if (!Array.isArray(options.yAxis)) options.yAxis = chartDefaults().yAxis;
  if (!CHART_TYPES.some((t) => t.value === options.globalSeriesType))
    options.globalSeriesType = "column";
  return options;
}

export function axisTitle(axis: AxisOptions | undefined): string {
  const t = axis?.title;
  if (typeof t === "string") return t;
  return typeof t?.text === "string" ? t.text : "";
}

export interface ColumnMapping {
  x: string | null;
  y: string[];
  series: string | null;
  yError: string | null;
  size: string | null;
  zVal: string | null;
}

export function readMapping(options: ChartOptions): ColumnMapping {
  const m: ColumnMapping = { x: null, y: [], series: null, yError: null, size: null, zVal: null };
  for (const [column, role] of Object.entries(options.columnMapping)) {
    if (role === "x") m.x = column;
    else if (role === "y") m.y.push(column);
    else if (role === "series" || role === "multiFilter" || role === "multi-filter")
      m.series = column;
    else if (role === "yError") m.yError = column;
    else if (role === "size") m.size = column;
    else if (role === "zVal") m.zVal = column;
  }
  return m;
}
