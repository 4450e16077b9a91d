// Saves a widget's drill-down link with the widget save call (POST /api/widgets/{id}), which
// replaces the options: the widget's other options go back unchanged.
import { useState } from "react";
import { withDrillDown, type DrillDownLink } from "@sightline/core";
import { saveWidget, type DashboardWidget, type WidgetOptions } from "../../../api/dashboards";
import { notify } from "../../../app/notifications";
import { widgetErrorText } from "../widgetSaveError";

export function useSaveWidgetDrillDown(
  widget: DashboardWidget,
  onSaved: (options: WidgetOptions) => void,
) {
  const [saving, setSaving] = useState(false);
  const save = async (link: DrillDownLink | null) => {
    setSaving(true);
    const options = withDrillDown(widget.options, link);
    try {
      await saveWidget(widget.id, { text: widget.text ?? "", options });
      onSaved(options);
    } catch (error) {
      notify.error("Widget could not be saved", widgetErrorText(error));
    } finally {
      setSaving(false);
    }
  };
  return { save, saving };
}
