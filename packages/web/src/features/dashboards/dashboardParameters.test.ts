import { describe, expect, it } from "vitest";
import type { ParameterDefinition, Query } from "@sightline/core";
import type { DashboardWidget, ParameterMapping } from "../../api/dashboards";
import {
  KEYWORD_REQUIRED,
  KEYWORD_TAKEN,
  dashboardParameterValues,
  draftError,
  draftToMapping,
  initialDraft,
} from "./dashboardParameters";
import { dashboardParameters } from "../../lib/parameterMappings";

const region: ParameterDefinition = { name: "region", title: "Region", type: "text", value: "EU" };
const since: ParameterDefinition = {
  name: "since",
  title: "Since",
  type: "date",
  value: "2024-01-01",
};

function widget(id: number, queryId: number, mappings: Record<string, ParameterMapping>) {
  return {
    id,
    width: 1,
    dashboard_id: 1,
    text: "",
    created_at: "",
    updated_at: "",
    options: { parameterMappings: mappings },
    visualization: {
      id: id * 10,
      type: "TABLE",
      name: "Table",
      description: null,
      options: {},
      created_at: "",
      updated_at: "",
      query: { id: queryId, name: "q", options: { parameters: [region, since] } } as Query,
    },
  } as DashboardWidget;
}

const toDashboard = (name: string, mapTo: string, title = ""): ParameterMapping => ({
  name,
  type: "dashboard-level",
  mapTo,
  value: null,
  title,
});

describe("dashboard parameters", () => {
  it("are the widgets' dashboard-level mappings, once per name, in the saved order", () => {
    const params = dashboardParameters(
      [
        widget(1, 5, { region: toDashboard("region", "area", "Area") }),
        widget(2, 6, {
          region: toDashboard("region", "area"),
          since: toDashboard("since", "from"),
        }),
      ],
      ["from", "area"],
    );
    expect(params.map((p) => [p.name, p.title, p.type, p.parentQueryId])).toEqual([
      ["from", "Since", "date", 6],
      ["area", "Area", "text", 5],
    ]);
    expect(dashboardParameterValues(params, new URLSearchParams("p_area=US"))).toEqual({
      from: "2024-01-01",
      area: "US",
    });
  });

  it("validates a new parameter's keyword with the spec's texts", () => {
    const existing = dashboardParameters([widget(1, 5, { region: toDashboard("region", "area") })]);
    expect(initialDraft(region, existing)).toMatchObject({ choice: "new", mapTo: "region" });
    expect(initialDraft({ ...region, name: "area" }, existing)).toMatchObject({
      choice: "existing",
      mapTo: "area",
    });
    const draft = { choice: "new" as const, mapTo: " ", value: null, title: "" };
    expect(draftError(draft, existing)).toBe(KEYWORD_REQUIRED);
    expect(draftError({ ...draft, mapTo: "area" }, existing)).toBe(KEYWORD_TAKEN);
    expect(draftError({ ...draft, mapTo: "zone" }, existing)).toBeNull();
    expect(
      draftToMapping("region", { choice: "static", mapTo: "", value: "US", title: "" }),
    ).toEqual({ name: "region", type: "static-value", mapTo: "region", value: "US", title: "" });
  });
});
