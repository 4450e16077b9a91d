// Each widget kind's size on the grid: a visualization type's own default size, limits and
// auto-height (the type's size hints, as Redash's visualization registry sets them), text boxes
// the grid's default; and the positions a dashboard's widgets are shown at.
import type { DashboardWidget, WidgetPosition } from "../../api/dashboards";
import { visualizationTypes } from "../../visualizations";
import {
  DEFAULT_RULES,
  GRID_COLUMNS,
  fullPosition,
  initialAutoHeightRows,
  newWidgetPosition,
  type SizeRules,
} from "./gridLayout";

/** The size rules of a visualization type (none: a text box). */
export function sizeRules(visualizationType: string | undefined): SizeRules {
  const size = visualizationTypes.find((t) => t.type === visualizationType)?.size;
  if (!size) return DEFAULT_RULES;
  const minSizeX = size.minCols ?? DEFAULT_RULES.minSizeX;
  const minSizeY = size.minRows ?? DEFAULT_RULES.minSizeY;
  return {
    ...DEFAULT_RULES,
    sizeX: Math.min(Math.max(size.cols ?? DEFAULT_RULES.sizeX, minSizeX), GRID_COLUMNS),
    sizeY: Math.max(size.rows ?? DEFAULT_RULES.sizeY, minSizeY),
    minSizeX,
    minSizeY,
    autoHeight: size.autoHeight ?? false,
  };
}

/** The rules of the widget's kind. */
export function widgetSizeRules(widget: Pick<DashboardWidget, "visualization">): SizeRules {
  return sizeRules(widget.visualization?.type);
}

/** Every widget's full position, by id, from what is stored (kept as given). */
export function widgetPositions(
  widgets: readonly Pick<DashboardWidget, "id" | "visualization" | "options">[],
): Map<number, WidgetPosition> {
  const autoRows = initialAutoHeightRows(widgets.map((w) => w.options.position));
  return new Map(
    widgets.map((w) => [w.id, fullPosition(w.options.position, widgetSizeRules(w), autoRows)]),
  );
}

/** A new widget of the given visualization type (none: a text box) at the lowest free spot. */
export function placeNewWidget(
  existing: readonly WidgetPosition[],
  visualizationType?: string,
): WidgetPosition {
  return newWidgetPosition(existing, sizeRules(visualizationType));
}
