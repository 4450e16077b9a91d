// The dashboard's parameter values (spec 3 §4): applied values live in the address (p_<name> for
// dashboard parameters, p_w{id}_<name> for a widget's own), edits wait until applied.
import { useCallback, useMemo, useState } from "react";
import { useSearchParams } from "react-router";
import { parametersToUrlParams, type ParameterDefinition } from "@sightline/core";
import type { DashboardWidget } from "../../api/dashboards";
import { withParameterUrl } from "../queries/parameterValues";
import { dashboardParameterValues } from "./dashboardParameters";
import {
  dashboardParameters,
  mappingsOf,
  type DashboardParameter,
} from "../../lib/parameterMappings";

export interface DashboardParameterState {
  params: DashboardParameter[];
  /** Applied values by dashboard parameter name. */
  values: Record<string, unknown>;
  pending: Record<string, unknown>;
  setPending: (pending: Record<string, unknown>) => void;
  apply: () => void;
  applyWidgetValues: (widget: DashboardWidget, values: Record<string, unknown>) => void;
}

export function useDashboardParameters(
  widgets: readonly DashboardWidget[],
  order: unknown,
): DashboardParameterState {
  const [search, setSearch] = useSearchParams();
  const [pending, setPending] = useState<Record<string, unknown>>({});
  const params = useMemo(
    () => dashboardParameters(widgets, Array.isArray(order) ? order.map(String) : []),
    [widgets, order],
  );
  const values = useMemo(() => dashboardParameterValues(params, search), [params, search]);

  const apply = () => {
    const next = { ...values, ...pending };
    setPending({});
    setSearch((current) => withParameterUrl(current, params, next), { replace: true });
  };

  const applyWidgetValues = useCallback(
    (widget: DashboardWidget, widgetValues: Record<string, unknown>) => {
      const keys = parametersToUrlParams(ownParameters(widget), widgetValues, widget.id);
      setSearch(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [key, value] of Object.entries(keys)) {
            if (value === null) next.delete(key);
            else next.set(key, value);
          }
          return next;
        },
        { replace: true },
      );
    },
    [setSearch],
  );

  return { params, values, pending, setPending, apply, applyWidgetValues };
}

/** The widget's own parameters: those mapped to neither the dashboard nor a static value. */
export function ownParameters(widget: DashboardWidget): ParameterDefinition[] {
  const defs = widget.visualization?.query?.options.parameters ?? [];
  const mappings = mappingsOf(widget, defs);
  return defs.filter((def) => mappings[def.name].type === "widget-level");
}
