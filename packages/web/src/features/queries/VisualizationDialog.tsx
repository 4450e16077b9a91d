// Full-screen dialog to create or edit a visualization of the query.
import { useQuery } from "@tanstack/react-query";
import { App, Button, Modal, Skeleton } from "antd";
import { useEffect, useMemo, useState } from "react";
import type { Visualization } from "@sightline/core";
import {
  createVisualization,
  deleteVisualization,
  getQuery,
  saveVisualization,
} from "../../api/queries";
import { notify } from "../../app/notifications";
import { apiDrillDownTargets } from "../../components/drillDown/apiDrillDownTargets";
import { useVisualizationFormats } from "../../app/visualizationFormats";
import {
  DEFAULT_FORMATS,
  VisualizationEditor,
  numberedName,
  optionsForData,
  optionsForSave,
  visualizationTypes,
  type QueryResultData,
  type VisualizationFormats,
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

/** The organisation's formats that a visualization's defaults carry and store (the chart's). */
const STORED_FORMATS = ["dateFormat", "dateTimeFormat"] as const;

/**
 * A new visualization's options: its type's defaults, in which the organisation's date and
 * date/time formats take the place of the built-in ones, and the result's columns are picked
 * (optionsForData). The chart's defaults carry a dateTimeFormat that is stored with it, and a
 * stored format wins over the organisation's for good. (Other built-in values stay: e.g. the
 * map's default tile URL stands for "the server's".)
 */
export function newVisualizationOptions(
  type: string,
  formats: Partial<VisualizationFormats>,
  data: QueryResultData = { columns: [], rows: [] },
): Record<string, unknown> {
  const definition = visualizationTypes.find((t) => t.type === type);
  const options = { ...definition?.defaultOptions() };
  for (const key of STORED_FORMATS) {
    const own = formats[key];
    if (options[key] === DEFAULT_FORMATS[key] && own) options[key] = own;
  }
  return optionsForData(type, options, data);
}

function newSpec(formats: Partial<VisualizationFormats>, data: QueryResultData): VisualizationSpec {
  const type = visualizationTypes.find((t) => t.type === "CHART") ?? visualizationTypes[0];
  return {
    type: type.type,
    name: type.defaultName,
    options: newVisualizationOptions(type.type, formats, data),
  };
}

/** A type's own default name, which a new visualization gets numbered when it is taken. */
const isDefaultName = (name: string) => visualizationTypes.some((t) => name === t.defaultName);

/**
 * The names of the query's visualizations, read fresh from the server (the page's copy may
 * predate ones added since), so a new one is numbered: "Chart 2" beside "Chart".
 */
function useTakenNames(queryId: number, enabled: boolean): string[] | undefined {
  const query = useQuery({
    queryKey: ["query", queryId, "visualization-names"],
    queryFn: () => getQuery(queryId),
    enabled,
    staleTime: 0,
    gcTime: 0,
  });
  return useMemo(() => query.data?.visualizations?.map((v) => v.name), [query.data]);
}

export function VisualizationDialog(props: VisualizationDialogProps) {
  const { modal } = App.useApp();
  // Signed in, the formats are there from the first render (the session's client_config).
  const formats = useVisualizationFormats();
  const [spec, setSpec] = useState<VisualizationSpec | null>(() =>
    props.visualization
      ? {
          id: props.visualization.id,
          type: props.visualization.type,
          name: props.visualization.name,
          description: props.visualization.description,
          options: props.visualization.options,
        }
      : formats
        ? newSpec(formats, props.data)
        : null,
  );
  // Should the formats still be on their way, a new visualization is built once they are in;
  // until then the editor shows a skeleton and Save waits.
  useEffect(() => {
    if (!spec && formats) setSpec(newSpec(formats, props.data));
  }, [spec, formats]);
  // A new visualization's options are its type's defaults for the result, and follow the result
  // until the user changes one: a new query's first Add Visualization saves the query and opens
  // the dialog while the page loads the result again, so the columns arrive after it opened.
  const [optionsTouched, setOptionsTouched] = useState(false);
  useEffect(() => {
    if (!formats || optionsTouched) return;
    setSpec((s) =>
      s && s.id === undefined
        ? { ...s, options: newVisualizationOptions(s.type, formats, props.data) }
        : s,
    );
  }, [props.data.columns, props.data.rows]);
  const taken = useTakenNames(props.queryId, !props.visualization);
  const numbered = (name: string) =>
    taken && isDefaultName(name) ? numberedName(name, taken) : name;
  // The names arrive after the dialog opens: a default name still as given is numbered then.
  useEffect(() => {
    if (!taken) return;
    setSpec((s) => {
      if (!s || s.id !== undefined) return s;
      const name = numbered(s.name);
      return name === s.name ? s : { ...s, name };
    });
  }, [taken]);
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
    if (!spec) return;
    setSaving(true);
    const body = {
      query_id: props.queryId,
      type: spec.type,
      name: spec.name,
      description: spec.description ?? "",
      options: optionsForSave(spec, props.data, formats),
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
      title={spec?.id ? "Edit Visualization" : "Add Visualization"}
      width="100vw"
      style={{ top: 0, maxWidth: "100vw", paddingBottom: 0 }}
      styles={{ body: { height: "calc(100vh - 140px)", overflow: "auto" } }}
      onCancel={close}
      footer={
        <>
          {spec?.id !== undefined && (
            <Button danger onClick={() => remove(spec.id!)} style={{ float: "left" }}>
              Delete
            </Button>
          )}
          <Button onClick={close}>Cancel</Button>
          <Button
            type="primary"
            onClick={save}
            loading={saving}
            disabled={!spec}
            data-testid="save-visualization"
          >
            Save
          </Button>
        </>
      }
    >
      {spec && formats ? (
        <VisualizationEditor
          visualization={spec}
          data={props.data}
          formats={formats}
          drillDownTargets={apiDrillDownTargets}
          onChange={(next) => {
            // A new visualization given another type starts from that type's defaults: with
            // the organisation's formats too, as the first type did.
            const retyped = next.id === undefined && next.type !== spec.type;
            if (!retyped && next.options !== spec.options) setOptionsTouched(true);
            setSpec(
              retyped
                ? {
                    ...next,
                    name: numbered(next.name),
                    options: newVisualizationOptions(next.type, formats, props.data),
                  }
                : next,
            );
            setChanged(true);
          }}
        />
      ) : (
        <Skeleton active paragraph={{ rows: 8 }} />
      )}
    </Modal>
  );
}
