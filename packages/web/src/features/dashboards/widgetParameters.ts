// Which value each of a widget's query parameters takes (spec 3 §3–4, parameter mappings).
import {
  normalizeParameterValue,
  parametersFromUrlParams,
  type ParameterDefinition,
} from "@sightline/core";
import type { DashboardWidget } from "../../api/dashboards";
import { mappingsOf } from "../../lib/parameterMappings";

/**
 * The value of each parameter: a static value as mapped; a dashboard parameter's value from the
 * dashboard; the widget's own from the address (p_w{id}_name) or the query's saved default.
 */
export function widgetParameterValues(
  widget: DashboardWidget,
  defs: readonly ParameterDefinition[],
  dashboardValues: Readonly<Record<string, unknown>>,
  search: URLSearchParams,
): Record<string, unknown> {
  const mappings = mappingsOf(widget, defs);
  const fromAddress = parametersFromUrlParams(defs, search, widget.id);
  const out: Record<string, unknown> = {};
  for (const def of defs) {
    const mapping = mappings[def.name];
    let value: unknown = normalizeParameterValue(def, def.value);
    if (mapping.type === "static-value") value = normalizeParameterValue(def, mapping.value);
    else if (mapping.type === "dashboard-level") {
      if (Object.prototype.hasOwnProperty.call(dashboardValues, mapping.mapTo))
        value = dashboardValues[mapping.mapTo];
    } else if (Object.prototype.hasOwnProperty.call(fromAddress, def.name)) {
      value = fromAddress[def.name];
    }
    out[def.name] = value;
  }
  return out;
}
