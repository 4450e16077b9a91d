// A visualization widget's result, through the execution the query page uses too: runs the
// widget's query with its parameter values (a cached result welcome on load, a fresh run on
// refresh), polls the job and loads the result.
import { useCallback, useEffect, useRef } from "react";
import type { Query, QueryResult } from "@sightline/core";
import type { ExecutionState } from "../queries/execution";
import { useSavedQueryExecution } from "../queries/useSavedQueryExecution";

export interface WidgetResult {
  state: ExecutionState | null;
  result: QueryResult | null;
  /** Runs again without a cached result; ignored while a run is under way. */
  refresh: () => void;
  running: boolean;
}

/**
 * `values` are the widget's parameter values by name; `refreshToken` changing (the dashboard's
 * Refresh or its auto-refresh) runs the query again without a cached result.
 */
export function useWidgetResult(
  query: Query | undefined,
  values: Record<string, unknown>,
  refreshToken: number,
): WidgetResult {
  const { state, result, running, runSaved } = useSavedQueryExecution();
  const runningRef = useRef(running);
  runningRef.current = running;
  // Values are compared by their serialised form: a new object with the same values is no change.
  const valuesKey = JSON.stringify(values);
  const latestValues = useRef(values);
  latestValues.current = values;

  const run = useCallback(
    (maxAge: number) => {
      if (!query) return;
      runSaved({ id: query.id, parameters: query.options.parameters ?? [] }, latestValues.current, {
        maxAge,
      });
    },
    [query?.id, valuesKey, runSaved],
  );

  const firstToken = useRef(refreshToken);
  useEffect(() => {
    run(refreshToken === firstToken.current ? -1 : 0);
  }, [run, refreshToken]);

  const refresh = useCallback(() => {
    if (!runningRef.current) run(0);
  }, [run]);

  return { state, result, refresh, running };
}
