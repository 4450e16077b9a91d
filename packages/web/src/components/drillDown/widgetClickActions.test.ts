// What a click on a widget's value does (issue 25): the drill-down, the cross-filter, or both.
import { describe, expect, it, vi } from "vitest";
import type { DrillDownLink } from "@sightline/core";
import type { DatumClick } from "../../visualizations";
import { valueLabel, widgetClickActions } from "./widgetClickActions";

const link: DrillDownLink = {
  target: { type: "dashboard", id: 7, slug: "country-detail", name: "Country detail" },
  parameters: { country: { column: "country", type: "text" } },
  newTab: false,
};
const italy: DatumClick = { column: "country", value: "Italy", additive: false };

describe("widgetClickActions", () => {
  it("offers the drill-down first, then the filter, each saying what it does", () => {
    const follow = vi.fn();
    const filter = vi.fn();
    const actions = widgetClickActions(link, follow, filter)!;
    expect(actions.map((a) => [a.key, a.label(italy), a.hint])).toEqual([
      ["drill-down", "Open Country detail", "open Country detail"],
      ["filter", "Filter by country: Italy", "filter the dashboard"],
    ]);
    actions[0]!.run(italy);
    expect(follow).toHaveBeenCalledWith(italy);
    expect(filter).not.toHaveBeenCalled();
  });

  it("offers only what applies, and nothing when nothing does", () => {
    expect(widgetClickActions(link, undefined, vi.fn())!.map((a) => a.key)).toEqual(["filter"]);
    expect(widgetClickActions(null, vi.fn(), undefined)).toBeUndefined();
    const unnamed = { ...link, target: { type: "query" as const, id: 3 } };
    expect(widgetClickActions(unnamed, vi.fn(), undefined)![0]!.hint).toBe("open query #3");
  });

  it("shows dates as ISO text and cuts long values", () => {
    expect(valueLabel(new Date("2024-03-01T00:00:00Z"))).toBe("2024-03-01");
    expect(valueLabel(new Date("2024-03-01T10:30:00Z"))).toBe("2024-03-01 10:30:00");
    expect(valueLabel(null)).toBe("null");
    expect(valueLabel("x".repeat(60))).toHaveLength(40);
  });
});
