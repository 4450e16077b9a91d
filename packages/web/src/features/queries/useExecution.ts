// React side of an execution: one running at a time, its state, and the held result.
import { useCallback, useEffect, useRef, useState } from "react";
import type { QueryResult } from "@sightline/core";
import { cancelJob, getJob, getQueryResult, type RunValueArgs } from "../../api/queries";
import {
  runExecution,
  type ExecutionHandle,
  type ExecutionState,
  type StartAnswer,
} from "./execution";

export interface Execution {
  state: ExecutionState | null;
  result: QueryResult | null;
  running: boolean;
  /**
   * Starts an execution (the previous one is dropped): polls its job and loads its result,
   * naming the run's parameter values (`p_<name>`) in both calls when given.
   */
  run: (start: () => Promise<StartAnswer>, values?: RunValueArgs) => void;
  /** Loads a stored result (a query's latest one) with the retries of a run's result load. */
  load: (resultId: number) => void;
  /** Fails at once with a message (empty query, missing parameters). */
  refuse: (message: string) => void;
  cancel: () => void;
  setResult: (result: QueryResult | null) => void;
}

export interface ExecutionOptions {
  /** Called once a run or load ends, done or failed. */
  onFinished?: (state: ExecutionState) => void;
  /**
   * Polls jobs and loads results through the query's own addresses
   * (/api/queries/{id}/jobs/…, /api/queries/{id}/results/…), which a query API key may read.
   */
  scopeQueryId?: number;
}

/**
 * One execution at a time (spec 1 §4): start, poll the job (500 ms, then 3 s), load the result
 * with retries, cancel. The query page and dashboard widgets share it.
 */
export function useExecution(options: ExecutionOptions = {}): Execution {
  const [state, setState] = useState<ExecutionState | null>(null);
  const [result, setResult] = useState<QueryResult | null>(null);
  const handle = useRef<ExecutionHandle | null>(null);
  const latest = useRef(options);
  latest.current = options;

  useEffect(() => () => handle.current?.dispose(), []);

  const run = useCallback((start: () => Promise<StartAnswer>, values?: RunValueArgs) => {
    handle.current?.dispose();
    const scope = latest.current.scopeQueryId;
    handle.current = runExecution(
      {
        start,
        getJob: (id) => getJob(id, scope, values),
        getResult: (id) => getQueryResult(id, scope, values),
        cancelJob,
      },
      (next) => {
        setState(next);
        if (next.status === "done" && next.result) setResult(next.result);
        if (next.status === "done" || next.status === "failed") latest.current.onFinished?.(next);
      },
    );
  }, []);

  const load = useCallback(
    (resultId: number) => run(() => Promise.resolve({ query_result_id: resultId })),
    [run],
  );

  const refuse = useCallback((message: string) => {
    handle.current?.dispose();
    setState({ status: "failed", error: message, since: Date.now() });
  }, []);

  const cancel = useCallback(() => void handle.current?.cancel(), []);

  const running = !!state && state.status !== "done" && state.status !== "failed";
  return { state, result, running, run, load, refuse, cancel, setResult };
}
