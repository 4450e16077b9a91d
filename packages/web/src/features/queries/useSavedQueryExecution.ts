// Running a saved query by id: what the read-only query view and dashboard widgets do.
import { useCallback } from "react";
import { executionValues, parametersToUrlParams, type ParameterDefinition } from "@sightline/core";
import { executeSaved, type RunValueArgs } from "../../api/queries";
import { missingValuesRefusal, type ParameterValues } from "./parameterValues";
import { useExecution, type Execution, type ExecutionOptions } from "./useExecution";

/** The saved query to run: its id and parameter definitions. */
export interface SavedQueryRef {
  id: number;
  parameters: readonly ParameterDefinition[];
}

export interface RunOptions {
  /** Seconds a cached result may be old (0: always run; -1: any cached result will do). */
  maxAge?: number;
  applyAutoLimit?: boolean;
}

export interface SavedQueryExecution extends Execution {
  /**
   * Runs the query with these values (POST /api/queries/{id}/results), then polls and loads the
   * result; refused at once, with the spec's message, when a value is missing.
   */
  runSaved: (query: SavedQueryRef, values: ParameterValues, options?: RunOptions) => void;
}

/** The run's values as `p_<name>` arguments (empty values left out). */
function runValueArgs(
  parameters: readonly ParameterDefinition[],
  values: Record<string, unknown>,
): RunValueArgs {
  const args: RunValueArgs = {};
  for (const [key, value] of Object.entries(parametersToUrlParams(parameters, values))) {
    if (value !== null) args[key] = value;
  }
  return args;
}

/**
 * An execution of saved queries: `runSaved` for a run with parameter values, `load` for a result
 * already stored (the query's latest one), with the state, result, and cancel of `useExecution`.
 */
export function useSavedQueryExecution(options: ExecutionOptions = {}): SavedQueryExecution {
  const execution = useExecution(options);
  const { run, refuse } = execution;
  const runSaved = useCallback(
    (query: SavedQueryRef, values: ParameterValues, runOptions: RunOptions = {}) => {
      const refusal = missingValuesRefusal(query.parameters, values);
      if (refusal) return refuse(refusal);
      const parameters = executionValues(query.parameters, values, new Date());
      run(
        () =>
          executeSaved(query.id, {
            parameters,
            apply_auto_limit: !!runOptions.applyAutoLimit,
            max_age: runOptions.maxAge ?? 0,
          }),
        runValueArgs(query.parameters, parameters),
      );
    },
    [run, refuse],
  );
  return { ...execution, runSaved };
}
