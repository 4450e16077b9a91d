// Full-screen dialog to create or edit a visualization of the query.
import { App, Button, Modal } from "antd";
import { useState } from "react";
import type { Visualization } from "@sightline/core";
import { createVisualization, deleteVisualization, saveVisualization } from "../../api/queries";
import { notify } from "../../app/notifications";
import { useVisualizationFormats } from "../../app/visualizationFormats";
import {
  VisualizationEditor,
  optionsForSave,
  visualizationTypes,
  type QueryResultData,
  type VisualizationSpec,
} from "../../visualizations";

interface VisualizationDialogProps {
  queryId: number;
  visualization?: Visualization;
  data: QueryResultData;
  onSaved: (visualization: Visualization) => void;
  /** The visualization was deleted: its tab goes away. */
  onDeleted: (id: number) => void;
  onClose: () => void;
}

export const CLOSE_EDITOR_CONFIRM = "Are you sure you want to close the editor without saving?";
export const DELETE_VISUALIZATION_CONFIRM = "Are you sure you want to delete this visualization?";

function defaultSpec(): VisualizationSpec {
  const type = visualizationTypes.find((t) => t.type === "CHART") ?? visualizationTypes[0];
  return { type: type.type, name: type.defaultName, options: type.defaultOptions() };
}

export function VisualizationDialog(props: VisualizationDialogProps) {
  const { modal } = App.useApp();
  const formats = useVisualizationFormats();
  const [spec, setSpec] = useState<VisualizationSpec>(() =>
    props.visualization
      ? {
          id: props.visualization.id,
          type: props.visualization.type,
          name: props.visualization.name,
          description: props.visualization.description,
          options: props.visualization.options,
        }
      : defaultSpec(),
  );
  const [changed, setChanged] = useState(false);
  const [saving, setSaving] = useState(false);

  const close = () => {
    if (!changed) return props.onClose();
    modal.confirm({
      title: CLOSE_EDITOR_CONFIRM,
      okText: "Yes",
      cancelText: "No",
      onOk: props.onClose,
    });
  };

  const save = () => {
    setSaving(true);
    const body = {
      query_id: props.queryId,
      type: spec.type,
      name: spec.name,
      description: spec.description ?? "",
      options: optionsForSave(spec, props.data),
    };
    const call = spec.id ? saveVisualization(spec.id, body) : createVisualization(body);
    call.then(
      (saved) => {
        notify.success("Visualization saved");
        props.onSaved(saved);
      },
      () => {
        notify.error("Visualization could not be saved");
        setSaving(false);
      },
    );
  };

  const remove = (id: number) => {
    modal.confirm({
      title: "Delete Visualization",
      content: DELETE_VISUALIZATION_CONFIRM,
      okText: "Delete",
      okButtonProps: { danger: true },
      cancelText: "Cancel",
      onOk: () =>
        deleteVisualization(id).then(
          () => props.onDeleted(id),
          () => notify.error("Error deleting visualization.", "Maybe it's used in a dashboard?"),
        ),
    });
  };

  return (
    <Modal
      open
      title={spec.id ? "Edit Visualization" : "Add Visualization"}
      width="100vw"
      style={{ top: 0, maxWidth: "100vw", paddingBottom: 0 }}
      styles={{ body: { height: "calc(100vh - 140px)", overflow: "auto" } }}
      onCancel={close}
      footer={
        <>
          {spec.id !== undefined && (
            <Button danger onClick={() => remove(spec.id!)} style={{ float: "left" }}>
              Delete
            </Button>
          )}
          <Button onClick={close}>Cancel</Button>
          <Button type="primary" onClick={save} loading={saving} data-testid="save-visualization">
            Save
          </Button>
        </>
      }
    >
      <VisualizationEditor
        visualization={spec}
        data={props.data}
        formats={formats}
        onChange={(next) => {
          setSpec(next);
          setChanged(true);
        }}
      />
    </Modal>
  );
}
