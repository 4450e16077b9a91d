// The widget grid (spec 3 §9): 6 columns of 50 px rows on wide screens, editable in edit mode;
// one column in reading order below 800 px. Auto-height widgets take their content's height.
// Both layouts are the one grid with its children kept, so a widget never mounts again (nor
// re-runs its query) when the window's width crosses 800 px.
import { useMemo, useState } from "react";
import ReactGridLayout, { useContainerWidth, type Layout } from "react-grid-layout";
import "react-grid-layout/css/styles.css";
import "react-resizable/css/styles.css";
import type { DashboardWidget, WidgetPosition } from "../../api/dashboards";
import {
  GRID_COLUMNS,
  GRID_MARGIN,
  ROW_HEIGHT,
  SINGLE_COLUMN_BELOW_PX,
  changedPositions,
  readingOrder,
  shownPositions,
  singleColumnItems,
  toGridItem,
} from "./gridLayout";
import { AUTO_HEIGHT_CLASS, useAutoHeight } from "./useAutoHeight";
import { useMountedCount } from "./paintTurns";
import { useStableElements } from "./stableElements";
import styles from "./DashboardPage.module.css";

/** Widgets mounted per frame while a dashboard opens (the first ones fill a laptop screen). */
const MOUNT_PER_FRAME = 6;

interface DashboardGridProps {
  widgets: readonly DashboardWidget[];
  positions: ReadonlyMap<number, WidgetPosition>;
  editing: boolean;
  onPositionsChange: (changed: Map<number, WidgetPosition>) => void;
  renderWidget: (widget: DashboardWidget) => React.ReactNode;
}

export function DashboardGrid(props: DashboardGridProps) {
  const { width, containerRef, mounted } = useContainerWidth();
  const { widgets, positions, editing } = props;
  const [resizing, setResizing] = useState(false);
  const singleColumn = mounted && width < SINGLE_COLUMN_BELOW_PX;
  // In one column, text boxes are as tall as their content too (a phone's narrow column wraps
  // their text onto more lines).
  const fitsContent = (w: DashboardWidget) =>
    positions.get(w.id)?.autoHeight || (singleColumn && !w.visualization);
  const autoIds = widgets.filter(fitsContent).map((w) => w.id);
  const measured = useAutoHeight(containerRef, autoIds, resizing);
  const shown = useMemo(() => shownPositions(positions, measured), [positions, measured]);
  const layout = useMemo(() => {
    if (!singleColumn) return widgets.map((w) => toGridItem(w.id, shown.get(w.id)!));
    // Text boxes take the rows measured for them; auto-height widgets have theirs in `shown`.
    const rows = (w: DashboardWidget) =>
      (w.visualization ? undefined : measured.get(w.id)) ?? shown.get(w.id)!.sizeY;
    return singleColumnItems(
      widgets.map((w) => ({ id: w.id, position: { ...shown.get(w.id)!, sizeY: rows(w) } })),
    );
  }, [widgets, shown, singleColumn, measured]);
  const onStop = (next: Layout) => props.onPositionsChange(changedPositions(shown, next));
  // The widgets as the page rendered them: the grid's own changes (measured heights, a resize)
  // re-render the cells, never the widgets inside them.
  const { renderWidget } = props;
  const fresh = useMemo(
    () => new Map(widgets.map((w) => [w.id, renderWidget(w)])),
    [widgets, renderWidget],
  );
  const rendered = useStableElements(fresh);
  // Top to bottom, a few per frame: the cards of a large dashboard mount without freezing it.
  const order = useMemo(
    () => readingOrder(widgets.map((w) => ({ id: w.id, position: positions.get(w.id)! }))),
    [widgets, positions],
  );
  const mountedCount = useMountedCount(order.length, MOUNT_PER_FRAME);
  const mountedIds = useMemo(
    () => new Set(order.slice(0, mountedCount).map((o) => o.id)),
    [order, mountedCount],
  );
  const content = (id: number) => (mountedIds.has(id) ? rendered.get(id) : null);
  const cellClass = (id: number) => (autoIds.includes(id) ? AUTO_HEIGHT_CLASS : undefined);

  return (
    <div
      ref={containerRef}
      className={`${styles.grid} ${editing ? styles.gridEditing : ""}`}
      data-testid="dashboard-grid"
    >
      {mounted && (
        <ReactGridLayout
          width={width}
          layout={layout}
          gridConfig={{
            cols: singleColumn ? 1 : GRID_COLUMNS,
            // Redash's row height includes the margin below the row.
            rowHeight: ROW_HEIGHT - GRID_MARGIN,
            margin: [GRID_MARGIN, GRID_MARGIN],
            containerPadding: [0, 0],
          }}
          dragConfig={{
            enabled: editing && !singleColumn,
            cancel: ".no-drag, a, button, input, textarea",
          }}
          resizeConfig={{ enabled: editing && !singleColumn, handles: ["se"] }}
          onDragStop={onStop}
          onResizeStart={() => setResizing(true)}
          onResizeStop={(next) => {
            setResizing(false);
            onStop(next);
          }}
        >
          {/* In reading order, as a phone shows them and the keyboard moves through them. */}
          {order.map(({ id }) => (
            <div key={String(id)} data-widget-id={id} className={cellClass(id)}>
              {content(id)}
            </div>
          ))}
        </ReactGridLayout>
      )}
    </div>
  );
}
