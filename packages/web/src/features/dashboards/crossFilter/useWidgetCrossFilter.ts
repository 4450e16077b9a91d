// One widget's side of cross-filtering (issue 19): the parameter values it runs with, the rows
// it draws, what it highlights, and its clicks typed for the page. Each piece is memoised on a
// key of the filters that concern this widget, so a click re-draws only the widgets it affects.
import {
  applyCrossFilterParameters,
  readWidgetCrossFilterOptions,
  splitWidgetCrossFilters,
  type ColumnType,
  type ParameterDefinition,
} from "@sightline/core";
import { useCallback, useEffect, useMemo } from "react";
import type { DashboardWidget } from "../../../api/dashboards";
import type { DatumClick, DatumSelection, QueryResultData } from "../../../visualizations";
import { filterReach, type FilterReach } from "./filterReach";
import {
  appliedFilters,
  filteredResult,
  resultColumnTypes,
  selectionKey,
  widgetSelection,
  type DashboardCrossFilter,
} from "./widgetCrossFilter";

/** A click as the widget hands it to the page: with the clicked column's type. */
export interface WidgetDatumClick extends DatumClick {
  columnType: ColumnType | null;
}

export type WidgetDatumClickHandler = (widget: DashboardWidget, click: WidgetDatumClick) => void;

const NO_FILTERS: DashboardCrossFilter = { filters: [], mappings: {}, parameters: {} };

/** Whether the widget takes part: the dashboard has cross-filtering on and the widget too. */
function activeFor(widget: DashboardWidget, crossFilter: DashboardCrossFilter | undefined) {
  return crossFilter && readWidgetCrossFilterOptions(widget.options).enabled
    ? crossFilter
    : NO_FILTERS;
}

/** The widget's parameter values with the filters mapped to its parameters applied. */
export function useCrossFilterParameterValues(
  widget: DashboardWidget,
  values: Record<string, unknown>,
  crossFilter: DashboardCrossFilter | undefined,
): Record<string, unknown> {
  const { filters, parameters } = activeFor(widget, crossFilter);
  const definitions: ParameterDefinition[] = widget.visualization?.query?.options.parameters ?? [];
  const { parameterValues } = splitWidgetCrossFilters(widget.id, filters, parameters);
  const overridden = applyCrossFilterParameters(values, definitions, parameterValues);
  // The same object while nothing mapped changes (useWidgetResult compares values by content).
  const key = JSON.stringify(overridden);
  return useMemo(() => overridden as Record<string, unknown>, [key]);
}

/** What a widget shows when the cross-filters leave none of its rows. */
export const NO_CROSS_FILTER_ROWS = "No rows match the cross-filters.";

export interface WidgetCrossFilterView {
  /** The result to draw: the loaded rows that pass the filters concerning this widget. */
  data: QueryResultData | undefined;
  selection: DatumSelection | undefined;
  /** The result has rows, and the cross-filters leave none of them. */
  filteredOut: boolean;
  /** The renderer's click callback; undefined when the widget does not take part. */
  onDatumClick: ((click: DatumClick) => void) | undefined;
  /** Which filters reach the widget, while filters are set and its result is in. */
  reach: FilterReach | undefined;
}

export function useWidgetCrossFilter(
  widget: DashboardWidget,
  data: QueryResultData | undefined,
  crossFilter: DashboardCrossFilter | undefined,
  onClick: WidgetDatumClickHandler | undefined,
): WidgetCrossFilterView {
  const enabled = !!crossFilter && readWidgetCrossFilterOptions(widget.options).enabled;
  const { filters, mappings, parameters } = activeFor(widget, crossFilter);
  const types = useMemo(() => (data ? resultColumnTypes(data) : new Map()), [data]);
  const report = crossFilter?.onColumns;
  useEffect(() => {
    if (data && report) report(widget.id, [...types.keys()]);
  }, [types, report, widget.id]);
  const { rowFilters } = splitWidgetCrossFilters(widget.id, filters, parameters);
  const { applied, key } = appliedFilters(widget.id, types, rowFilters, mappings);
  const filtered = useMemo(() => (data ? filteredResult(data, applied) : undefined), [data, key]);
  const ownKey = selectionKey(widget.id, filters);
  const selection = useMemo(
    () => widgetSelection(widget.id, filters, mappings),
    [widget.id, ownKey, mappings],
  );
  const handle = useCallback(
    (click: DatumClick) =>
      onClick?.(widget, { ...click, columnType: types.get(click.column) ?? null }),
    [onClick, widget, types],
  );
  const all = crossFilter?.filters ?? [];
  return {
    data: filtered,
    selection,
    filteredOut: !!data && data.rows.length > 0 && filtered?.rows.length === 0,
    onDatumClick: enabled && onClick ? handle : undefined,
    // Every filter counts, those the widget's switch turns off included (it misses them).
    reach:
      crossFilter && all.length > 0 && data
        ? filterReach(widget.id, types, crossFilter, enabled)
        : undefined,
  };
}
