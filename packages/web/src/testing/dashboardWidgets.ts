// Dashboard widgets for unit tests: the stored fields filled in, the rest as each test needs.
import type { ParameterDefinition, Query } from "@sightline/core";
import type { DashboardWidget, ParameterMapping, WidgetOptions } from "../api/dashboards";

export function testWidget(
  id: number,
  options: WidgetOptions = {},
  fields: Partial<DashboardWidget> = {},
): DashboardWidget {
  return {
    id,
    width: 1,
    dashboard_id: 1,
    text: "",
    created_at: "",
    updated_at: "",
    options,
    ...fields,
  } as DashboardWidget;
}

/** A table widget of query `queryId` (with those parameters) and its parameters' mappings. */
export function queryWidget(
  id: number,
  queryId: number,
  parameters: ParameterDefinition[],
  parameterMappings: Record<string, ParameterMapping>,
  fields: Partial<DashboardWidget> = {},
): DashboardWidget {
  return testWidget(
    id,
    { parameterMappings },
    {
      visualization: {
        id: id * 10,
        type: "TABLE",
        name: "Table",
        description: null,
        options: {},
        created_at: "",
        updated_at: "",
        query: { id: queryId, name: "q", options: { parameters } } as Query,
      },
      ...fields,
    },
  );
}

/** A query parameter mapped to the dashboard parameter `mapTo`. */
export const toDashboard = (name: string, mapTo: string, title = ""): ParameterMapping => ({
  name,
  type: "dashboard-level",
  mapTo,
  value: null,
  title,
});
