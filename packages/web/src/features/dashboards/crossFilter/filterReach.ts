// Which active cross-filters reach a widget (issue 25), as Superset marks its charts: the filters
// that narrow its rows or set one of its parameters, those clicked in it (it highlights them), and
// those it misses because its result has no such column or its cross-filtering is off.
import { applicableCrossFilters, type ColumnType, type CrossFilter } from "@sightline/core";
import { crossFilterLabel } from "./CrossFilterBar";
import type { DashboardCrossFilter } from "./widgetCrossFilter";

export interface FilterReach {
  /** Filters that narrow the widget's rows or set one of its query's parameters. */
  applied: CrossFilter[];
  /** Filters clicked in this widget: it highlights their values and keeps its rows. */
  own: CrossFilter[];
  /** Filters that do not reach it. */
  missed: CrossFilter[];
  /** The widget's cross-filtering is switched off (so it misses every other filter). */
  off: boolean;
}

/**
 * The reach of the dashboard's filters for one widget whose result has these columns.
 * `enabled` is the widget's own cross-filtering switch.
 */
export function filterReach(
  widgetId: number,
  types: ReadonlyMap<string, ColumnType | null>,
  crossFilter: Pick<DashboardCrossFilter, "filters" | "mappings" | "parameters">,
  enabled: boolean,
): FilterReach {
  const { filters, mappings, parameters } = crossFilter;
  const columns = [...types].map(([name, type]) => ({ name, type }));
  const reach: FilterReach = { applied: [], own: [], missed: [], off: !enabled };
  for (const filter of filters) {
    if (filter.widget === widgetId) reach.own.push(filter);
    else if (!enabled) reach.missed.push(filter);
    else if (parameters[filter.column]?.[String(widgetId)] !== undefined)
      reach.applied.push(filter);
    else if (applicableCrossFilters({ id: widgetId, columns }, [filter], mappings).length > 0)
      reach.applied.push(filter);
    else reach.missed.push(filter);
  }
  return reach;
}

const names = (filters: readonly CrossFilter[]) => filters.map((f) => f.column).join(", ");

/** The mark's short text: "Filtered by country, status", "Sets country filter" or "Not filtered". */
export function filterMarkText(reach: FilterReach): string {
  if (reach.applied.length > 0) return `Filtered by ${names(reach.applied)}`;
  if (reach.own.length > 0 && reach.missed.length === 0)
    return `Sets ${names(reach.own)} filter${reach.own.length > 1 ? "s" : ""}`;
  return "Not filtered";
}

/** One line per filter, for the mark's tooltip (and its accessible name). */
export function filterReachLines(reach: FilterReach): string[] {
  return [
    ...reach.applied.map((f) => `Filtered by ${crossFilterLabel(f)}`),
    ...reach.own.map((f) => `Set by a click here: ${crossFilterLabel(f)} (highlighted)`),
    ...reach.missed.map((f) =>
      reach.off
        ? `Not filtered by ${f.column}: cross-filtering is off for this widget`
        : `Not filtered by ${f.column}: no ${f.column} column`,
    ),
  ];
}
