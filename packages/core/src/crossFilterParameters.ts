// Cross-filters that set a widget's query parameter instead of filtering its rows (issue 19).
// An editor maps a filter column to one of a widget's parameters in the dashboard's settings:
//   dashboard.options.crossFilter.parameters = { <filterColumn>: { <widgetId>: <parameterName> } }
// (read with the rest of the settings by `readDashboardCrossFilterOptions`). Such a filter leaves
// that widget's rows alone: the widget runs its query again with the parameter set.
import type { CrossFilter, CrossFilterMappings, CrossFilterValue } from "./crossFilter";
import { normalizeParameterValue } from "./parameters/normalize";
import {
  enumOptionsList,
  isDateRangeType,
  isMultiValued,
  type ParameterDefinition,
} from "./parameters/types";

export interface WidgetCrossFilterSplit {
  /** Filters that narrow the widget's loaded rows (the usual way). */
  rowFilters: CrossFilter[];
  /** Parameter name → the selected values of the filter mapped to it. */
  parameterValues: Record<string, CrossFilterValue[]>;
}

/**
 * Splits the filters for one widget: those mapped to one of its parameters (by the widget's
 * settings) and the others. The source widget of a filter is never changed by it.
 */
export function splitWidgetCrossFilters(
  widgetId: number,
  filters: readonly CrossFilter[],
  parameters: CrossFilterMappings = {},
): WidgetCrossFilterSplit {
  const rowFilters: CrossFilter[] = [];
  const parameterValues: Record<string, CrossFilterValue[]> = {};
  for (const filter of filters) {
    const parameter = parameters[filter.column]?.[String(widgetId)];
    if (parameter === undefined) rowFilters.push(filter);
    else if (filter.widget !== widgetId) parameterValues[parameter] = filter.values;
  }
  return { rowFilters, parameterValues };
}

/** A clicked value as text a parameter takes (dates as the day or "YYYY-MM-DD HH:mm[:ss]"). */
function parameterText(value: CrossFilterValue): string {
  return typeof value === "string"
    ? value.replace(/T(\d\d:\d\d:\d\d)(\.\d+)?Z$/, " $1")
    : String(value);
}

/**
 * The value a parameter takes for a filter's selected values: all of them for a multi-value
 * dropdown, otherwise the latest one (a single date also fills a date range). Null when nothing
 * usable is selected (then the parameter keeps its dashboard value).
 */
export function crossFilterParameterValue(
  def: ParameterDefinition,
  values: readonly CrossFilterValue[],
): unknown {
  const present = values.filter((v): v is string | number | boolean => v !== null);
  if (present.length === 0) return null;
  if (isMultiValued(def)) return normalizeParameterValue(def, present.map(parameterText));
  const latest = parameterText(present[present.length - 1]!);
  if (isDateRangeType(def.type)) return normalizeParameterValue(def, [latest, latest]);
  // A dropdown would fall back to its first option; a value it does not offer sets nothing.
  if (def.type === "enum" && !enumOptionsList(def).includes(latest)) return null;
  if (def.type === "number") return normalizeParameterValue(def, present[present.length - 1]);
  return normalizeParameterValue(def, latest);
}

/**
 * A widget's parameter values with the cross-filters mapped to its parameters applied; the same
 * object when none applies (so nothing re-runs).
 */
export function applyCrossFilterParameters(
  values: Readonly<Record<string, unknown>>,
  definitions: readonly ParameterDefinition[],
  parameterValues: Readonly<Record<string, readonly CrossFilterValue[]>>,
): Readonly<Record<string, unknown>> {
  let out: Record<string, unknown> | null = null;
  for (const [name, selected] of Object.entries(parameterValues)) {
    const def = definitions.find((d) => d.name === name);
    if (!def) continue;
    const value = crossFilterParameterValue(def, selected);
    if (value === null || value === undefined) continue;
    out ??= { ...values };
    out[name] = value;
  }
  return out ?? values;
}
