// The dialogs the query page opens: parameter, schedule, API key, permissions, embed, Add to
// Dashboard and the visualization editor.
import type {
  ParameterDefinition,
  Query,
  QueryResultData,
  Schedule,
  Visualization,
} from "@sightline/core";
import { AddToDashboardDialog } from "./AddToDashboardDialog";
import { ParameterDialog } from "./ParameterDialog";
import type { ParameterValues } from "./parameterValues";
import { PermissionsDialog } from "../../components/PermissionsDialog";
import { ScheduleDialog } from "./ScheduleDialog";
import { ApiKeyDialog, EmbedDialog } from "./ShareDialogs";
import { VisualizationDialog } from "./VisualizationDialog";

export type Dialog =
  | { kind: "parameter"; parameter?: ParameterDefinition }
  | { kind: "schedule" | "apiKey" | "embed" | "permissions" | "addToDashboard" }
  | { kind: "visualization"; visualization?: Visualization };

/** The dialog a navigation asked to open (only a new visualization's editor is passed so). */
export function openedDialog(state: unknown): Dialog | null {
  const dialog = (state as { dialog?: Dialog } | null)?.dialog;
  return dialog?.kind === "visualization" && !dialog.visualization ? dialog : null;
}

interface QueryDialogsProps {
  dialog: Dialog | null;
  query: Query;
  canEdit: boolean;
  refreshIntervals: number[];
  /** The values the embed code carries. */
  values: ParameterValues;
  currentVisualizationId?: number;
  data: QueryResultData;
  onClose: () => void;
  onSaveParameter: (def: ParameterDefinition, previousName?: string) => void;
  onSaveSchedule: (schedule: Schedule | null) => void;
  onApiKeyChange: (apiKey: string) => void;
  onVisualizationSaved: (visualization: Visualization) => void;
  onVisualizationDeleted: (id: number) => void;
}

export function QueryDialogs(props: QueryDialogsProps) {
  const { dialog, query } = props;
  const parameters = query.options.parameters ?? [];
  switch (dialog?.kind) {
    case "parameter":
      return (
        <ParameterDialog
          parameter={dialog.parameter}
          existingNames={parameters.map((p) => p.name)}
          onClose={props.onClose}
          onSave={(def) => props.onSaveParameter(def, dialog.parameter?.name)}
        />
      );
    case "schedule":
      return (
        <ScheduleDialog
          schedule={query.schedule}
          intervals={props.refreshIntervals}
          onClose={props.onClose}
          onSave={props.onSaveSchedule}
        />
      );
    case "apiKey":
      return (
        <ApiKeyDialog
          query={query}
          canEdit={props.canEdit}
          onClose={props.onClose}
          onKeyChange={props.onApiKeyChange}
        />
      );
    case "permissions":
      return (
        <PermissionsDialog
          objectType="queries"
          objectId={query.id}
          ownerId={query.user?.id ?? query.user_id}
          onClose={props.onClose}
        />
      );
    case "embed":
      return (
        <EmbedDialog
          query={query}
          visualizationId={props.currentVisualizationId}
          parameters={parameters}
          values={props.values}
          onClose={props.onClose}
        />
      );
    case "addToDashboard":
      return props.currentVisualizationId === undefined ? null : (
        <AddToDashboardDialog
          visualizationId={props.currentVisualizationId}
          visualizationType={
            query.visualizations?.find((v) => v.id === props.currentVisualizationId)?.type
          }
          onClose={props.onClose}
        />
      );
    case "visualization":
      return (
        <VisualizationDialog
          queryId={query.id}
          visualization={dialog.visualization}
          data={props.data}
          onClose={props.onClose}
          onDeleted={props.onVisualizationDeleted}
          onSaved={props.onVisualizationSaved}
        />
      );
    default:
      return null;
  }
}
