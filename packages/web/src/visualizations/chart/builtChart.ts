// What building a chart's ECharts option takes (the space to draw in) and gives back.
import type { Separators } from "../lib/numberFormat";
import type { ChartPoint, ChartSeries } from "./prepare";
import type { NumberFormats } from "./valueFormat";

/** An ECharts option, or a part of one. */
export type Obj = Record<string, unknown>;

export interface BuiltChart {
  option: Obj;
  notices: string[];
  /** For click links and tooltips: ECharts series index → prepared series and its points. */
  pointAt(
    seriesIndex: number,
    dataIndex: number,
  ): { series: ChartSeries; point: ChartPoint } | null;
  /** A category axis' value by its label's category: the first point drawn there. */
  categoryPoint?(category: string): ChartPoint | null;
}

export interface BuildContext {
  width: number;
  height: number;
  seps: Separators;
  hideToolbox?: boolean;
  /** The organisation's integer and float formats, for charts keeping the default format. */
  numberFormats?: NumberFormats;
}
