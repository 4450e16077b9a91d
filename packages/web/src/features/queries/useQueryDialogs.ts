// The query page's dialogs: which one is open, what opening one takes first, and what each
// dialog's answer does to the query.
import { useEffect, useState, type RefObject } from "react";
import { useLocation, useNavigate } from "react-router";
import type { ParameterDefinition, Schedule, Visualization } from "@sightline/core";
import type { QueryEditorHandle } from "./QueryEditor";
import { openedDialog, type Dialog } from "./QueryDialogs";
import { withoutVisualization, withParameter, withVisualization } from "./queryDocument";
import type { QueryDocument } from "./useQueryDocument";
import type { VisualizationTabs } from "./useVisualizationTabs";

export interface QueryDialogState {
  dialog: Dialog | null;
  open: (dialog: Dialog) => void;
  /** Opens the new-parameter dialog, knowing the names the text uses now. */
  addParameter: () => void;
  /** Opens the visualization editor for a new one, once the query is saved. */
  addVisualization: () => Promise<void>;
  /** What the dialogs' answers do (QueryDialogs' callbacks). */
  handlers: {
    onClose: () => void;
    onSaveParameter: (def: ParameterDefinition, previousName?: string) => void;
    onSaveSchedule: (schedule: Schedule | null) => void;
    onApiKeyChange: (apiKey: string) => void;
    onVisualizationSaved: (visualization: Visualization) => void;
    onVisualizationDeleted: (id: number) => void;
  };
}

export function useQueryDialogs(
  doc: QueryDocument,
  editor: RefObject<QueryEditorHandle | null>,
  tabs: VisualizationTabs,
): QueryDialogState {
  const location = useLocation();
  const navigate = useNavigate();
  // Saving a new query moves to its address, which mounts a new page: a dialog asked for at that
  // moment (Add Visualization) comes along in the navigation's state, and opens.
  const [dialog, setDialog] = useState<Dialog | null>(() => openedDialog(location.state));
  useEffect(() => {
    // Taken once: reloading the page must not open the dialog again.
    if (openedDialog(location.state)) {
      const { pathname, search, hash } = location;
      navigate({ pathname, search, hash }, { replace: true, state: null });
    }
  }, [location, navigate]);

  const { setQuery, save } = doc;

  const addParameter = () => {
    if (!doc.canEdit) return;
    doc.currentQuery();
    setDialog({ kind: "parameter" });
  };

  const addVisualization = async () => {
    // A new query is saved first, so the visualization has a query to belong to; the editor
    // then opens in the saved query's workspace.
    if (doc.isNew) {
      await save({}, { quiet: true, thenOpen: { kind: "visualization" } });
      return;
    }
    if (doc.dirty && !(await save({}, { quiet: true }))) return;
    setDialog({ kind: "visualization" });
  };

  const handlers: QueryDialogState["handlers"] = {
    onClose: () => setDialog(null),
    onSaveParameter: (def, previousName) => {
      const { query: next, placeholder } = withParameter(doc.currentQuery(), def, previousName);
      setQuery((q) => ({ ...q, options: next.options, is_safe: next.is_safe }));
      if (placeholder) editor.current?.insert(placeholder);
      doc.setDirty(true);
      setDialog(null);
    },
    onSaveSchedule: (schedule) => {
      setDialog(null);
      doc.changeSchedule(schedule);
    },
    onApiKeyChange: (api_key) => setQuery((q) => ({ ...q, api_key })),
    onVisualizationDeleted: (id) => {
      setDialog(null);
      setQuery((q) => withoutVisualization(q, id));
      tabs.selectTab("");
    },
    onVisualizationSaved: (visualization) => {
      setDialog(null);
      setQuery((q) => withVisualization(q, visualization));
      tabs.selectTab(String(visualization.id));
    },
  };

  return { dialog, open: setDialog, addParameter, addVisualization, handlers };
}
