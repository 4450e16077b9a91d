// A visualization widget's result: runs the widget's query with its parameter values (cached
// results welcome on load, a fresh run on refresh) and polls the job until the result is in.
import { useCallback, useEffect, useRef, useState } from "react";
import { executionValues, type Query, type QueryResult } from "@sightline/core";
import { executeSaved, getJob, getQueryResult } from "../../api/queries";
import { runExecution, type ExecutionHandle, type ExecutionState } from "../queries/execution";

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
  const [state, setState] = useState<ExecutionState | null>(null);
  const [result, setResult] = useState<QueryResult | null>(null);
  const handle = useRef<ExecutionHandle | null>(null);
  const running = !!state && state.status !== "done" && state.status !== "failed";
  const runningRef = useRef(running);
  runningRef.current = running;
  const valuesKey = JSON.stringify(values);

  const run = useCallback(
    (maxAge: number) => {
      if (!query) return;
      handle.current?.dispose();
      const parameters = executionValues(query.options.parameters ?? [], values, new Date());
      handle.current = runExecution(
        {
          start: () => executeSaved(query.id, { parameters, max_age: maxAge }),
          getJob: (id) => getJob(id),
          getResult: (id) => getQueryResult(id),
          cancelJob: async () => null,
        },
        (next) => {
          setState(next);
          if (next.status === "done" && next.result) setResult(next.result);
        },
      );
    },
    // values is read through its serialised form: a new object with the same values is no change.
    [query?.id, valuesKey],
  );

  const firstToken = useRef(refreshToken);
  useEffect(() => {
    run(refreshToken === firstToken.current ? -1 : 0);
    return () => handle.current?.dispose();
  }, [run, refreshToken]);

  const refresh = useCallback(() => {
    if (!runningRef.current) run(0);
  }, [run]);

  return { state, result, refresh, running };
}
