import { describe, expect, it } from "vitest";
import type { ParameterDefinition } from "@sightline/core";
import type { ParameterMapping } from "../../api/dashboards";
import {
  KEYWORD_REQUIRED,
  KEYWORD_TAKEN,
  dashboardParameterValues,
  draftError,
  draftToMapping,
  initialDraft,
} from "./dashboardParameters";
import { dashboardParameters } from "../../lib/parameterMappings";
import { queryWidget, toDashboard } from "../../testing/dashboardWidgets";

const region: ParameterDefinition = { name: "region", title: "Region", type: "text", value: "EU" };
const since: ParameterDefinition = {
  name: "since",
  title: "Since",
  type: "date",
  value: "2024-01-01",
};

const widget = (id: number, queryId: number, mappings: Record<string, ParameterMapping>) =>
  queryWidget(id, queryId, [region, since], mappings);

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
