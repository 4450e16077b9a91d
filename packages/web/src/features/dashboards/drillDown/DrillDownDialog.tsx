// The widget's "Drill-down" settings (edit mode): where a click on one of its values leads. Saved
// as the widget's options.drillDown, every other option kept as it was.
import { Button, Modal, Typography } from "antd";
import { dialogFooter } from "../../../components/dialogFooter";
import { useState } from "react";
import { readWidgetDrillDown } from "@sightline/core";
import type { DashboardWidget, WidgetOptions } from "../../../api/dashboards";
import {
  draftFromLink,
  linkFromDraft,
  type DrillDownDraft,
} from "../../../components/drillDown/drillDownDraft";
import { DrillDownLinkFields } from "../../../components/drillDown/DrillDownLinkFields";
import { useSaveWidgetDrillDown } from "./useSaveWidgetDrillDown";
import { useTargetParameters } from "../../../components/drillDown/useDrillDownTargets";
import { apiDrillDownTargets } from "../../../components/drillDown/apiDrillDownTargets";

export const DRILL_DOWN_DIALOG_TITLE = "Drill-down";

interface DrillDownDialogProps {
  widget: DashboardWidget;
  /** The columns of the widget's result. */
  columns: readonly string[];
  onClose: () => void;
  /** The widget's options as saved. */
  onSaved: (widgetId: number, options: WidgetOptions) => void;
}

/** Open while mounted: render it only when the dialog should show. */
export function DrillDownDialog({ widget, columns, onClose, onSaved }: DrillDownDialogProps) {
  const stored = readWidgetDrillDown(widget.options);
  const [draft, setDraft] = useState<DrillDownDraft>(() => draftFromLink(stored));
  const parameters = useTargetParameters(apiDrillDownTargets, draft.target);
  const { save, saving } = useSaveWidgetDrillDown(widget, (options) => {
    onSaved(widget.id, options);
    onClose();
  });

  return (
    <Modal
      open
      width={560}
      title={DRILL_DOWN_DIALOG_TITLE}
      onCancel={onClose}
      footer={[
        stored && (
          <Button key="remove" danger disabled={saving} onClick={() => void save(null)}>
            Remove Link
          </Button>
        ),
        ...dialogFooter({
          onCancel: onClose,
          onSave: () => void save(linkFromDraft(draft, parameters.data)),
          saveLabel: "Save",
          saving,
          saveDisabled: !draft.target || parameters.isFetching,
        }),
      ]}
    >
      <Typography.Paragraph type="secondary">
        A click on a value of this widget opens another dashboard or query, with the clicked values
        as its parameters. Clicks then no longer filter this dashboard.
      </Typography.Paragraph>
      <DrillDownLinkFields
        draft={draft}
        onChange={setDraft}
        columns={columns}
        source="clicked"
        targets={apiDrillDownTargets}
      />
    </Modal>
  );
}
