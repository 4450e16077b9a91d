// Running the query page's query: its parameter values, Execute (the selected text alone when
// there is a selection), the result shown on open, and the desktop notification when a run ends.
import { useEffect, useRef, type RefObject } from "react";
import { useSearchParams } from "react-router";
import { executionValues, type DataSource } from "@sightline/core";
import { executeAdhoc } from "../../api/queries";
import { useSession } from "../../app/session";
import { canExecuteQuery } from "./canExecuteQuery";
import { desktopNotify, requestNotificationPermission } from "./desktopNotifications";
import { writePreference } from "./localPreferences";
import {
  initialValues,
  missingValuesRefusal,
  withParameterUrl,
  type ParameterValues,
} from "./parameterValues";
import type { QueryEditorHandle } from "./QueryEditor";
import type { QueryDocument } from "./useQueryDocument";
import { useParameterValues, type ParameterValueState } from "./useParameterValues";
import { useSavedQueryExecution, type SavedQueryExecution } from "./useSavedQueryExecution";

export interface QueryRun {
  values: ParameterValueState;
  execution: SavedQueryExecution;
  /** Whether this user may run it at all; an empty text is refused when run, with its message. */
  canExecute: boolean;
  /** Applies the values typed into the parameter inputs, puts them in the address, and runs. */
  applyParameters: () => void;
  /** Execute: runs what the parameter boxes show (values typed but not applied are applied). */
  executeAsShown: () => void;
}

interface RunOptions {
  doc: QueryDocument;
  editing: boolean;
  editor: RefObject<QueryEditorHandle | null>;
  dataSource: DataSource | null;
}

export function useQueryRun({ doc, editing, editor, dataSource }: RunOptions): QueryRun {
  const session = useSession();
  const [search, setSearch] = useSearchParams();
  const { query, isNew, currentQuery, setQuery } = doc;
  const parameters = query.options.parameters ?? [];
  const canExecute = canExecuteQuery(session.user, { isNew, isSafe: !!query.is_safe }, dataSource);

  // Parameter values: applied ones drive execution and the address; pending ones wait for Apply.
  const values = useParameterValues(() => initialValues(parameters, search));

  // A desktop notification ends the runs the user started, not the load of the latest result.
  const notifyWhenFinished = useRef(false);
  const execution = useSavedQueryExecution({
    onFinished: (state) => {
      if (state.status === "done" && state.result) {
        setQuery((q) => ({ ...q, latest_query_data_id: state.result!.id }));
      }
      if (notifyWhenFinished.current) desktopNotify(query.name, state.status === "done");
    },
  });

  const execute = (applied: ParameterValues = values.applied, maxAge = 0) => {
    // The results panel says why; a run would only come back refused.
    if (!canExecute) return;
    const query = currentQuery();
    const parameters = query.options.parameters ?? [];
    const applyAutoLimit = !!query.options.apply_auto_limit && !!dataSource?.supports_auto_limit;
    if (!editing && !isNew) {
      execution.runSaved({ id: query.id, parameters }, applied, { maxAge, applyAutoLimit });
    } else {
      const selected = editor.current?.getSelection() ?? "";
      const text = selected || query.query;
      if (!text.trim()) return execution.refuse("Can't execute empty query.");
      const refusal = missingValuesRefusal(parameters, applied);
      if (refusal) return execution.refuse(refusal);
      if (!query.data_source_id)
        return execution.refuse("Please select data source to run this query.");
      writePreference("lastSelectedDataSourceId", query.data_source_id);
      execution.run(() =>
        executeAdhoc({
          query: text,
          data_source_id: query.data_source_id!,
          parameters: executionValues(parameters, applied, new Date()),
          apply_auto_limit: applyAutoLimit,
          max_age: maxAge,
          query_id: isNew ? undefined : query.id,
        }),
      );
    }
    requestNotificationPermission();
  };

  // Results load on open: the latest result, or a run from the cache when parameters are needed.
  useEffect(() => {
    if (isNew) return;
    const maxAge = Number(search.get("maxAge") ?? -1);
    if (parameters.length > 0) {
      if (!missingValuesRefusal(parameters, values.applied)) execute(values.applied, maxAge);
    } else if (query.latest_query_data_id) {
      execution.load(query.latest_query_data_id);
    }
    notifyWhenFinished.current = true;
  }, []);

  const applyParameters = () => {
    const next = values.apply();
    const defs = currentQuery().options.parameters ?? [];
    setSearch(withParameterUrl(search, defs, next), { replace: true });
    execute(next);
  };

  const executeAsShown = () => {
    const defs = currentQuery().options.parameters ?? [];
    if (values.changed(defs).length > 0) applyParameters();
    else execute();
  };

  return { values, execution, canExecute, applyParameters, executeAsShown };
}
