// How a dashboard's widgets map their queries' parameters (spec 3 §2–4), and the dashboard-level
// parameters those mappings make. Pure; shared by the dashboard screens (features/dashboards) and
// the drill-down target picker (components/drillDown), which must not depend on a screen.
import type { ParameterDefinition } from "@sightline/core";
import type { DashboardWidget, ParameterMapping } from "../api/dashboards";

export interface DashboardParameter extends ParameterDefinition {
  /** The query whose parameter it was first mapped from (dropdown options are read there). */
  parentQueryId: number;
}

/** The mapping of each query parameter; a parameter without one is the widget's own. */
export function mappingsOf(
  widget: DashboardWidget,
  defs: readonly ParameterDefinition[],
): Record<string, ParameterMapping> {
  const stored = widget.options.parameterMappings ?? {};
  const out: Record<string, ParameterMapping> = {};
  for (const def of defs) {
    out[def.name] = stored[def.name] ?? {
      name: def.name,
      type: "widget-level",
      mapTo: def.name,
      value: null,
      title: "",
    };
  }
  return out;
}

/** The widgets' dashboard-level mappings, once per name, in the saved order (`order`). */
export function dashboardParameters(
  widgets: readonly DashboardWidget[],
  order: readonly string[] = [],
): DashboardParameter[] {
  const byName = new Map<string, DashboardParameter>();
  for (const widget of widgets) {
    const query = widget.visualization?.query;
    if (!query || widget.restricted) continue;
    const defs = query.options.parameters ?? [];
    const mappings = mappingsOf(widget, defs);
    for (const def of defs) {
      const mapping = mappings[def.name];
      if (mapping.type !== "dashboard-level" || byName.has(mapping.mapTo)) continue;
      byName.set(mapping.mapTo, {
        ...def,
        name: mapping.mapTo,
        title: mapping.title || def.title || mapping.mapTo,
        parentQueryId: query.id,
      });
    }
  }
  const rank = (name: string) => {
    const i = order.indexOf(name);
    return i === -1 ? order.length : i;
  };
  return [...byName.values()].sort((a, b) => rank(a.name) - rank(b.name));
}
