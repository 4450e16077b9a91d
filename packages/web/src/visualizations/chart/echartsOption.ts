// Prepared chart data to an ECharts option. Pure: no DOM, so the mapping is unit-tested.
// Each kind of chart has its module: cartesianOption, pieOption, heatmapOption.
import type { QueryResultData } from "../types";
import type { BuildContext, BuiltChart } from "./builtChart";
import { buildCartesian } from "./cartesianOption";
import { buildHeatmap } from "./heatmapOption";
import type { ChartOptions } from "./options";
import { buildPie } from "./pieOption";

export function buildChartOption(
  data: QueryResultData,
  options: ChartOptions,
  ctx: BuildContext,
): BuiltChart {
  if (options.globalSeriesType === "pie") return buildPie(data, options, ctx);
  if (options.globalSeriesType === "heatmap") return buildHeatmap(data, options, ctx);
  return buildCartesian(data, options, ctx);
}
