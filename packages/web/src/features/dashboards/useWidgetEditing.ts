// Edit mode's widget changes (spec 3 §4–5): adding a visualization or a text box at the lowest
// free spot, editing a text box or a widget's parameter mappings, removing a widget. Each change
// is saved first and shown once the server has it; a failure says why and keeps the dialog open.
import { useCallback, type Dispatch, type SetStateAction } from "react";
import type { Query, Visualization } from "@sightline/core";
import {
  createWidget,
  deleteWidget,
  saveWidget,
  type DashboardWidget,
  type ParameterMapping,
  type WidgetPosition,
} from "../../api/dashboards";
import { notify } from "../../app/notifications";
import { placeNewWidget } from "./widgetSize";
import { isWidgetGone, widgetErrorText } from "./widgetSaveError";

export interface WidgetEditing {
  addVisualization: (
    visualization: Visualization,
    query: Query,
    parameterMappings: Record<string, ParameterMapping>,
  ) => Promise<void>;
  /** Saves a text box's text: a new text box when no widget is given. */
  saveTextbox: (text: string, widget?: DashboardWidget) => Promise<void>;
  saveMappings: (
    widget: DashboardWidget,
    parameterMappings: Record<string, ParameterMapping>,
  ) => Promise<void>;
  removeWidget: (widget: DashboardWidget) => Promise<void>;
  /** Keeps options a widget saved itself (its table's column widths, say). */
  keepOptions: (id: number, options: DashboardWidget["options"]) => void;
}

export function useWidgetEditing(
  dashboardId: number,
  setWidgets: Dispatch<SetStateAction<DashboardWidget[]>>,
  /** Where the widgets are now, pending layout changes included: new ones go below them. */
  positions: () => WidgetPosition[],
): WidgetEditing {
  async function addVisualization(
    visualization: Visualization,
    query: Query,
    parameterMappings: Record<string, ParameterMapping>,
  ) {
    try {
      const widget = await createWidget({
        dashboard_id: dashboardId,
        visualization_id: visualization.id,
        text: "",
        width: 1,
        options: {
          isHidden: false,
          position: placeNewWidget(positions(), visualization.type),
          parameterMappings,
        },
      });
      // The answer's visualization may come without its query: the dialog has it.
      const visualizationWithQuery = { ...visualization, query, ...widget.visualization };
      if (!visualizationWithQuery.query) visualizationWithQuery.query = query;
      setWidgets((current) => [...current, { ...widget, visualization: visualizationWithQuery }]);
    } catch (error) {
      notify.error("Widget could not be added", error instanceof Error ? error.message : "");
      throw error;
    }
  }

  async function saveTextbox(text: string, widget?: DashboardWidget) {
    if (widget) {
      try {
        const saved = await saveWidget(widget.id, { text, options: widget.options });
        setWidgets((current) =>
          current.map((w) => (w.id === widget.id ? { ...w, text: saved.text ?? text } : w)),
        );
      } catch (error) {
        notify.error("Widget could not be saved", widgetErrorText(error));
        throw error;
      }
      return;
    }
    try {
      const created = await createWidget({
        dashboard_id: dashboardId,
        visualization_id: null,
        text,
        width: 1,
        // As tall as its text (the grid measures it), so none of it is cut off; a resize by
        // hand fixes the height.
        options: {
          isHidden: false,
          position: { ...placeNewWidget(positions()), autoHeight: true },
        },
      });
      setWidgets((current) => [...current, created]);
    } catch (error) {
      notify.error("Widget could not be added", error instanceof Error ? error.message : "");
      throw error;
    }
  }

  async function saveMappings(
    widget: DashboardWidget,
    parameterMappings: Record<string, ParameterMapping>,
  ) {
    const options = { ...widget.options, parameterMappings };
    try {
      await saveWidget(widget.id, { text: widget.text ?? "", options });
      setWidgets((current) => current.map((w) => (w.id === widget.id ? { ...w, options } : w)));
    } catch (error) {
      notify.error("Widget could not be saved", widgetErrorText(error));
      throw error;
    }
  }

  // Stable: every widget card gets these, and a new function would draw every card again.
  const removeWidget = useCallback(
    async (widget: DashboardWidget) => {
      try {
        await deleteWidget(widget.id);
        setWidgets((current) => current.filter((w) => w.id !== widget.id));
      } catch (error) {
        // Removed elsewhere already: what the user asked for is done.
        if (isWidgetGone(error)) setWidgets((current) => current.filter((w) => w.id !== widget.id));
        else notify.error("Widget cannot be updated", widgetErrorText(error));
      }
    },
    [setWidgets],
  );
  const keepOptions = useCallback(
    (id: number, options: DashboardWidget["options"]) =>
      setWidgets((current) => current.map((w) => (w.id === id ? { ...w, options } : w))),
    [setWidgets],
  );

  return { addVisualization, saveTextbox, saveMappings, removeWidget, keepOptions };
}
