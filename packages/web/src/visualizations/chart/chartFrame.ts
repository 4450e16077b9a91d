// What frames the plot of a cartesian or pie chart: its legend, grid margins and toolbox.
import type { BuildContext, Obj } from "./builtChart";
import { axisTitle, type AxisOptions, type ChartOptions } from "./options";

export function legendOption(options: ChartOptions, ctx: BuildContext, names: string[]): Obj {
  const below = options.legend?.placement === "below" || ctx.width <= 600;
  const data = options.legend?.traceorder === "reversed" ? [...names].reverse() : names;
  return {
    // A chart made here draws no legend for a single entry: the axis and title already name it.
    show:
      options.legend?.enabled !== false &&
      names.length > (options.legend?.hideWhenOneSeries === true ? 1 : 0),
    type: "scroll",
    data,
    ...(below
      ? { bottom: 0, left: "center", orient: "horizontal" }
      : { right: 0, top: "middle", orient: "vertical" }),
  };
}

export function gridOption(options: ChartOptions, ctx: BuildContext, showLegend: boolean): Obj {
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

export function toolbox(ctx: BuildContext): Obj | undefined {
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
