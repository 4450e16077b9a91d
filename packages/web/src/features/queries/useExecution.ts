// React side of an execution: one running at a time, its state, and the held result.
import { useCallback, useEffect, useRef, useState } from "react";
import type { QueryResult } from "@sightline/core";
import { cancelJob, getJob, getQueryResult, type ExecutionAnswer } from "../../api/queries";
import { runExecution, type ExecutionHandle, type ExecutionState } from "./execution";

export interface Execution {
  state: ExecutionState | null;
  result: QueryResult | null;
  running: boolean;
  run: (start: () => Promise<ExecutionAnswer>) => void;
  /** Fails at once with a message (empty query, missing parameters). */
  refuse: (message: string) => void;
  cancel: () => void;
  setResult: (result: QueryResult | null) => void;
}

export function useExecution(onFinished?: (state: ExecutionState) => void): Execution {
  const [state, setState] = useState<ExecutionState | null>(null);
  const [result, setResult] = useState<QueryResult | null>(null);
  const handle = useRef<ExecutionHandle | null>(null);
  const finished = useRef(onFinished);
  finished.current = onFinished;

  useEffect(() => () => handle.current?.dispose(), []);

  const run = useCallback((start: () => Promise<ExecutionAnswer>) => {
    handle.current?.dispose();
    handle.current = runExecution(
      {
        start,
        getJob: (id) => getJob(id),
        getResult: (id) => getQueryResult(id),
        cancelJob,
      },
      (next) => {
        setState(next);
        if (next.status === "done" && next.result) setResult(next.result);
        if (next.status === "done" || next.status === "failed") finished.current?.(next);
      },
    );
  }, []);

  const refuse = useCallback((message: string) => {
    handle.current?.dispose();
    setState({ status: "failed", error: message, since: Date.now() });
  }, []);

  const cancel = useCallback(() => void handle.current?.cancel(), []);

  const running = !!state && state.status !== "done" && state.status !== "failed";
  return { state, result, running, run, refuse, cancel, setResult };
}
