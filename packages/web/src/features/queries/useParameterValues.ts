// Parameter values held by a query page or a dashboard widget.
import { useCallback, useState } from "react";
import type { ParameterDefinition } from "@sightline/core";
import { changedNames, type ParameterValues } from "./parameterValues";

export interface ParameterValueState {
  /** The values runs use (and the address shows). */
  applied: ParameterValues;
  /** Values typed into the inputs but not applied yet, by name. */
  pending: ParameterValues;
  setPending: (pending: ParameterValues) => void;
  /** Names whose pending value differs from the applied one. */
  changed: (defs: readonly ParameterDefinition[]) => string[];
  /** Applies the pending values and returns the values now applied. */
  apply: () => ParameterValues;
}

/**
 * Parameter values in two layers, as Redash shows them: edits wait in `pending` (the inputs show
 * them, with Apply Changes) until applied; `applied` drives execution. `initial` is read once.
 */
export function useParameterValues(initial: () => ParameterValues): ParameterValueState {
  const [applied, setApplied] = useState<ParameterValues>(initial);
  const [pending, setPending] = useState<ParameterValues>({});
  const changed = useCallback(
    (defs: readonly ParameterDefinition[]) => changedNames(defs, applied, pending),
    [applied, pending],
  );
  const apply = useCallback(() => {
    const next = { ...applied, ...pending };
    setApplied(next);
    setPending({});
    return next;
  }, [applied, pending]);
  return { applied, pending, setPending, changed, apply };
}
