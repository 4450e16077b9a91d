// A dashboard version's layout as boxes for a small preview: each widget's place on the grid in
// fractions of the preview (columns of the grid's width, rows of the layout's height), marked
// when it is new or was moved or resized since the version compared with.
import type { DashboardWidget } from "../../../api/dashboards";
import { GRID_COLUMNS } from "../gridLayout";
import { widgetPositions } from "../widgetSize";
import { plainText, shortText } from "../../versionHistory/changeWords";
import { widgetLabel } from "./dashboardChanges";

export type BoxMark = "added" | "moved" | "resized" | null;

export interface LayoutBox {
  id: number;
  /** Left, top, width and height in percent of the preview. */
  left: number;
  top: number;
  width: number;
  height: number;
  label: string;
  text: boolean;
  mark: BoxMark;
}

export interface LayoutPreview {
  boxes: LayoutBox[];
  /** The layout's height in grid rows (at least 1). */
  rows: number;
}

/** The boxes of `widgets` (hidden ones left out), marked against `compared` when given. */
export function layoutBoxes(
  widgets: readonly DashboardWidget[],
  compared?: readonly DashboardWidget[] | null,
): LayoutPreview {
  const shown = widgets.filter((w) => !w.options.isHidden);
  const positions = widgetPositions(shown);
  const before = compared ? widgetPositions(compared) : null;
  let rows = 1;
  for (const p of positions.values()) rows = Math.max(rows, p.row + p.sizeY);
  const boxes = shown.map((w): LayoutBox => {
    const p = positions.get(w.id)!;
    const was = before?.get(w.id);
    let mark: BoxMark = null;
    if (before && !was) mark = "added";
    else if (was && (was.col !== p.col || was.row !== p.row)) mark = "moved";
    else if (was && (was.sizeX !== p.sizeX || was.sizeY !== p.sizeY)) mark = "resized";
    return {
      id: w.id,
      left: (p.col / GRID_COLUMNS) * 100,
      top: (p.row / rows) * 100,
      width: (Math.min(p.sizeX, GRID_COLUMNS - p.col) / GRID_COLUMNS) * 100,
      height: (p.sizeY / rows) * 100,
      label: w.visualization
        ? widgetLabel(w).replace(/^"|"$/g, "")
        : shortText(plainText(w.text ?? ""), 60) || "Text box",
      text: !w.visualization,
      mark,
    };
  });
  return { boxes, rows };
}
