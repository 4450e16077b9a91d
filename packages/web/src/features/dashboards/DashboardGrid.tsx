// The widget grid (spec 3 §9): 6 columns of 50 px rows on wide screens, editable in edit mode;
// one column in reading order below 800 px.
import { useMemo } from "react";
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
  toGridItem,
} from "./gridLayout";
import styles from "./DashboardPage.module.css";

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
  const layout = useMemo(
    () => widgets.map((w) => toGridItem(w.id, positions.get(w.id)!)),
    [widgets, positions],
  );
  const singleColumn = mounted && width < SINGLE_COLUMN_BELOW_PX;
  const onStop = (next: Layout) => props.onPositionsChange(changedPositions(positions, next));

  return (
    <div
      ref={containerRef}
      className={`${styles.grid} ${editing ? styles.gridEditing : ""}`}
      data-testid="dashboard-grid"
    >
      {singleColumn ? (
        <div className={styles.column}>
          {readingOrder(widgets.map((w) => ({ widget: w, position: positions.get(w.id)! }))).map(
            ({ widget, position }) => (
              <div
                key={widget.id}
                data-widget-id={widget.id}
                style={{ height: position.sizeY * ROW_HEIGHT + (position.sizeY - 1) * GRID_MARGIN }}
              >
                {props.renderWidget(widget)}
              </div>
            ),
          )}
        </div>
      ) : (
        mounted && (
          <ReactGridLayout
            width={width}
            layout={layout}
            gridConfig={{
              cols: GRID_COLUMNS,
              rowHeight: ROW_HEIGHT,
              margin: [GRID_MARGIN, GRID_MARGIN],
              containerPadding: [0, 0],
            }}
            dragConfig={{ enabled: editing, cancel: ".no-drag, a, button, input, textarea" }}
            resizeConfig={{ enabled: editing, handles: ["se"] }}
            onDragStop={onStop}
            onResizeStop={onStop}
          >
            {widgets.map((widget) => (
              <div key={String(widget.id)} data-widget-id={widget.id}>
                {props.renderWidget(widget)}
              </div>
            ))}
          </ReactGridLayout>
        )
      )}
    </div>
  );
}
