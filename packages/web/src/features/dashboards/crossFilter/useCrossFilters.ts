// The dashboard's cross-filters (issue 19), kept in the page address (`cf`, see core's
// crossFilter.ts) so a filtered dashboard is a link to share. Other parameters (`p_`...) are kept.
import {
  CROSS_FILTER_URL_KEY,
  decodeCrossFilters,
  encodeCrossFilters,
  removeCrossFilter,
  toggleCrossFilterValue,
  type CrossFilter,
  type CrossFilterClick,
} from "@sightline/core";
import { useCallback, useLayoutEffect, useMemo, useRef } from "react";
import { useSearchParams } from "react-router";

export interface CrossFilters {
  /** Active filters, oldest first. */
  filters: CrossFilter[];
  /** A click on a value: selects it, or removes it when selected (`add`: joins the selection). */
  toggle: (click: CrossFilterClick, options?: { add?: boolean }) => void;
  /** Removes one filter (its tag's close button). */
  remove: (column: string) => void;
  /** "Clear all". */
  clear: () => void;
  /** Removes the latest filter (Escape). */
  removeLast: () => void;
}

export function useCrossFilters(): CrossFilters {
  const [params, setParams] = useSearchParams();
  const raw = params.get(CROSS_FILTER_URL_KEY);
  const filters = useMemo(() => decodeCrossFilters(raw), [raw]);

  // Each change builds on the previous one even before the page re-renders (React Router hands
  // the updater the address of the last render), so two quick changes both count.
  const latest = useRef(params);
  useLayoutEffect(() => {
    latest.current = params;
  }, [params]);

  // The address is replaced, not pushed: Back leaves the dashboard rather than undoing clicks.
  const change = useCallback(
    (next: (current: CrossFilter[]) => CrossFilter[]) => {
      const updated = new URLSearchParams(latest.current);
      const value = encodeCrossFilters(next(decodeCrossFilters(updated.get(CROSS_FILTER_URL_KEY))));
      if (value === null) updated.delete(CROSS_FILTER_URL_KEY);
      else updated.set(CROSS_FILTER_URL_KEY, value);
      latest.current = updated;
      setParams(updated, { replace: true });
    },
    [setParams],
  );

  return useMemo(
    () => ({
      filters,
      toggle: (click, options) => change((f) => toggleCrossFilterValue(f, click, options)),
      remove: (column) => change((f) => removeCrossFilter(f, column)),
      clear: () => change(() => []),
      removeLast: () => change((f) => f.slice(0, -1)),
    }),
    [filters, change],
  );
}
