// What the widgets tell the dashboard: which are running (the Refresh button spins) and which
// result filters they offer (the dashboard-level filter bar is built from them).
import { useCallback, useEffect, useState } from "react";
import type { ResultFilter } from "../../visualizations";
import { keepSelection, mergeFilters } from "./dashboardFilters";

export function useWidgetReports() {
  const [running, setRunning] = useState<ReadonlySet<number>>(new Set());
  const [found, setFound] = useState<ReadonlyMap<number, ResultFilter[]>>(new Map());
  const [filterSelection, setFilterSelection] = useState<ResultFilter[]>([]);

  const onRunningChange = useCallback((widgetId: number, isRunning: boolean) => {
    setRunning((current) => {
      if (current.has(widgetId) === isRunning) return current;
      const next = new Set(current);
      if (isRunning) next.add(widgetId);
      else next.delete(widgetId);
      return next;
    });
  }, []);

  const onFiltersFound = useCallback((widgetId: number, filters: ResultFilter[]) => {
    setFound((current) => new Map(current).set(widgetId, filters));
  }, []);
  useEffect(() => {
    setFilterSelection((previous) => keepSelection(mergeFilters(found.values()), previous));
  }, [found]);

  return {
    anyRunning: running.size > 0,
    onRunningChange,
    onFiltersFound,
    filterSelection,
    setFilterSelection,
  };
}
