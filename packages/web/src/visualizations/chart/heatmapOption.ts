// The ECharts option of a heatmap: category axes for x and y, and cells coloured on a scale.
import { formatNumber } from "../lib/numberFormat";
import { escapeHtml } from "../lib/sanitize";
import { colorOnScale, textColorFor } from "../palette";
import type { QueryResultData } from "../types";
import type { BuildContext, BuiltChart, Obj } from "./builtChart";
import { categoryAxisLabel, categoryLayout, categoryNameGap, LINE_ROOM } from "./categoryAxis";
import { axisTitle, type ChartOptions } from "./options";
import { prepareHeatmap } from "./prepare";
import { formatX } from "./text";

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

export function buildHeatmap(
  data: QueryResultData,
  options: ChartOptions,
  ctx: BuildContext,
): BuiltChart {
  const notices: string[] = [];
  const heat = prepareHeatmap(data, options, ctx.numberFormats);
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
        `${escapeHtml(heat.xs[p.value[0]])}, ${escapeHtml(heat.ys[p.value[1]])}: <b>${escapeHtml(formatNumber(p.value[2], heat.numberFormat, ctx.seps))}</b>`,
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
            formatNumber(p.value[2], heat.numberFormat, ctx.seps),
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
