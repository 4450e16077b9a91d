import { describe, expect, it } from "vitest";
import type { ParameterDefinition } from "@sightline/core";
import type { ParameterMapping } from "../api/dashboards";
import { queryWidget, toDashboard } from "../testing/dashboardWidgets";
import { dashboardParameters, mappingsOf } from "./parameterMappings";

const region: ParameterDefinition = { name: "region", title: "Region", type: "text", value: "EU" };
const since: ParameterDefinition = { name: "since", title: "", type: "date", value: null };

const widget = (id: number, mappings: Record<string, ParameterMapping>, restricted = false) =>
  queryWidget(id, id * 100, [region, since], mappings, restricted ? { restricted } : {});

describe("parameter mappings", () => {
  it("gives a parameter without a stored mapping to the widget itself", () => {
    const mappings = mappingsOf(widget(1, { region: toDashboard("region", "area") }), [
      region,
      since,
    ]);
    expect(mappings.region).toEqual(toDashboard("region", "area"));
    expect(mappings.since).toEqual({
      name: "since",
      type: "widget-level",
      mapTo: "since",
      value: null,
      title: "",
    });
  });

  it("makes dashboard parameters of dashboard-level mappings only, not of restricted widgets", () => {
    const params = dashboardParameters([
      widget(1, { since: toDashboard("since", "from") }, true),
      widget(2, { region: toDashboard("region", "area") }),
      widget(3, { since: toDashboard("since", "from") }),
    ]);
    // Titles fall back to the query parameter's, then to the new name.
    expect(params.map((p) => [p.name, p.title, p.parentQueryId])).toEqual([
      ["area", "Region", 200],
      ["from", "from", 300],
    ]);
  });
});
