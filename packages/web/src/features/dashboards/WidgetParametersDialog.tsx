// Widget Parameters (spec 3 §2): the mappings of a widget already on the dashboard, edited with
// the same rules as in Add Widget.
import { Modal } from "antd";
import { dialogFooter } from "../../components/dialogFooter";
import { useEffect, useState } from "react";
import type { DashboardWidget, ParameterMapping } from "../../api/dashboards";
import {
  draftsInvalid,
  draftsToMappings,
  mappingToDraft,
  type MappingDraft,
} from "./dashboardParameters";
import { useDialogSave } from "../../components/useDialogSave";
import { ParameterMappingsEditor } from "./ParameterMappingsEditor";
import { mappingsOf, type DashboardParameter } from "../../lib/parameterMappings";

interface WidgetParametersDialogProps {
  widget: DashboardWidget | null;
  dashboardParameters: readonly DashboardParameter[];
  onSave: (widget: DashboardWidget, mappings: Record<string, ParameterMapping>) => Promise<unknown>;
  onClose: () => void;
}

export function WidgetParametersDialog(props: WidgetParametersDialogProps) {
  const { widget, dashboardParameters } = props;
  const parameters = widget?.visualization?.query?.options.parameters ?? [];
  const [drafts, setDrafts] = useState<Record<string, MappingDraft>>({});
  const { saving, run } = useDialogSave(props.onClose);

  useEffect(() => {
    if (!widget) return;
    const mappings = mappingsOf(widget, parameters);
    setDrafts(
      Object.fromEntries(parameters.map((def) => [def.name, mappingToDraft(mappings[def.name])])),
    );
  }, [widget]);

  const invalid = draftsInvalid(parameters, drafts, dashboardParameters);
  const save = async () => {
    if (!widget) return;
    await run(() => props.onSave(widget, draftsToMappings(parameters, drafts)));
  };

  return (
    <Modal
      open={widget !== null}
      width={700}
      title="Parameters"
      onCancel={props.onClose}
      destroyOnHidden
      footer={dialogFooter({
        onCancel: props.onClose,
        onSave: save,
        saveLabel: "OK",
        saving,
        saveDisabled: invalid,
      })}
    >
      {widget && (
        <ParameterMappingsEditor
          parameters={parameters}
          existing={dashboardParameters}
          drafts={drafts}
          queryId={widget.visualization?.query?.id ?? 0}
          onChange={setDrafts}
          onSubmit={() => {
            if (!invalid && !saving) void save();
          }}
        />
      )}
    </Modal>
  );
}
