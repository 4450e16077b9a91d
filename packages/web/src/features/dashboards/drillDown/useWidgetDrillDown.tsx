// A dashboard widget's drill-down, as the widget card uses it: the "Drill-down" menu item and its
// dialog in edit mode, and the click handler that follows the link (issue 19).
import { NodeIndexOutlined } from "@ant-design/icons";
import type { MenuProps } from "antd";
import { useCallback, useMemo, useState, type ReactNode } from "react";
import { readWidgetDrillDown, type DrillDownLink } from "@sightline/core";
import type { DashboardWidget, WidgetOptions } from "../../../api/dashboards";
import type { DatumClick, QueryResultColumn } from "../../../visualizations";
import { DrillDownDialog } from "./DrillDownDialog";
import { useFollowDrillDown } from "./useFollowDrillDown";

export const DRILL_DOWN_MENU_LABEL = "Drill-down";

interface WidgetDrillDownOptions {
  editing: boolean;
  /** The public page: links to signed-in pages are not followed there. */
  readOnly?: boolean;
  /** The columns of the widget's result, offered for the parameters. */
  columns: readonly QueryResultColumn[] | undefined;
  /** The page keeps the saved options; without it the widget offers no settings. */
  onSaved?: (widgetId: number, options: WidgetOptions) => void;
}

export interface WidgetDrillDown {
  /** The widget's link, or null. */
  link: DrillDownLink | null;
  /** The menu item opening the settings (edit mode), or null. */
  menuItem: NonNullable<MenuProps["items"]>[number] | null;
  /** The settings dialog while it is open. */
  dialog: ReactNode;
  /**
   * The click handler while the link is followed (not in edit mode nor on the public page):
   * a widget with a link opens it on click instead of cross-filtering. Undefined otherwise.
   */
  onDatumClick: ((click: DatumClick) => void) | undefined;
}

export function useWidgetDrillDown(
  widget: DashboardWidget,
  { editing, readOnly, columns, onSaved }: WidgetDrillDownOptions,
): WidgetDrillDown {
  const [open, setOpen] = useState(false);
  const follow = useFollowDrillDown();
  const link = useMemo(() => readWidgetDrillDown(widget.options), [widget.options]);
  const active = link !== null && !editing && !readOnly;
  const onDatumClick = useCallback(
    (click: DatumClick) => {
      // The clicked value wins over the row's: for a bar it is the category the bar stands for.
      if (link) follow(link, { ...click.row, [click.column]: click.value }, click.additive);
    },
    [link, follow],
  );
  const close = useCallback(() => setOpen(false), []);
  return {
    link,
    menuItem:
      editing && onSaved
        ? {
            key: "drill-down",
            icon: <NodeIndexOutlined />,
            label: DRILL_DOWN_MENU_LABEL,
            onClick: () => setOpen(true),
          }
        : null,
    dialog:
      open && onSaved ? (
        <DrillDownDialog
          widget={widget}
          columns={(columns ?? []).map((c) => c.name)}
          onClose={close}
          onSaved={onSaved}
        />
      ) : null,
    onDatumClick: active ? onDatumClick : undefined,
  };
}
