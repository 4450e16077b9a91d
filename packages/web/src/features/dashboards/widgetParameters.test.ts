import { describe, expect, it } from "vitest";
import type { ParameterDefinition } from "@sightline/core";
import type { DashboardWidget } from "../../api/dashboards";
import { testWidget } from "../../testing/dashboardWidgets";
import { widgetParameterValues } from "./widgetParameters";

const defs: ParameterDefinition[] = [
  { name: "region", title: "Region", type: "text", value: "EU" },
  { name: "limit", title: "Limit", type: "number", value: 10 },
  { name: "since", title: "Since", type: "date", value: "2024-01-01" },
];

const widget = (parameterMappings: DashboardWidget["options"]["parameterMappings"]) =>
  testWidget(7, { parameterMappings });

describe("widget parameter values", () => {
  it("takes static values, dashboard values and the widget's own address values", () => {
    const w = widget({
      region: { name: "region", type: "static-value", mapTo: "region", value: "US", title: "" },
      limit: { name: "limit", type: "dashboard-level", mapTo: "top", value: null, title: "" },
    });
    const search = new URLSearchParams("p_w7_since=2025-02-03&p_w8_since=1999-01-01");
    expect(widgetParameterValues(w, defs, { top: 3 }, search)).toEqual({
      region: "US",
      limit: 3,
      since: "2025-02-03",
    });
  });

  it("falls back to the query's saved values", () => {
    expect(widgetParameterValues(widget(undefined), defs, {}, new URLSearchParams())).toEqual({
      region: "EU",
      limit: 10,
      since: "2024-01-01",
    });
  });
});
