// Category axes (a cartesian chart's x axis, both heatmap axes): every category keeps its label.
import { layoutCategoryLabels, truncateText, type CategoryLabelLayout } from "./axisLabels";
import type { BuildContext, Obj } from "./builtChart";

/** Height of the labels of a horizontal axis beside it: one line of text and its margin. */
export const LINE_ROOM = 22;

/**
 * layoutCategoryLabels for an axis `length` px long, plus the room 30° labels need before the
 * axis start beyond the `before` px there already are.
 */
export function categoryLayout(
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

export function categoryAxisLabel(layout: CategoryLabelLayout, format: (v: string) => string): Obj {
  return {
    interval: layout.interval,
    rotate: layout.rotate,
    hideOverlap: false,
    formatter: (v: string) => truncateText(format(v), layout.maxWidth),
  };
}

/** The axis title's distance from the axis: beyond the labels (and their 8 px margin). */
export function categoryNameGap(layout: CategoryLabelLayout, vertical: boolean): number {
  if (vertical) return layout.extent + 8 + 12;
  return layout.rotate ? layout.extent + 8 + 10 : 30;
}
