import { describe, expect, it } from "vitest";
import type { DrillDownLink } from "@sightline/core";
import {
  draftFromLink,
  linkFromDraft,
  suggestedParameters,
  withParameterColumn,
} from "./drillDownDraft";

const link: DrillDownLink = {
  target: { type: "query", id: 4, name: "Orders" },
  parameters: { country: { column: "name", type: "text" }, day: { column: "d", type: "date" } },
  newTab: true,
};

describe("drill-down drafts", () => {
  it("start empty without a link and as the link with one", () => {
    expect(draftFromLink(null)).toEqual({
      targetType: "dashboard",
      target: null,
      parameters: {},
      newTab: false,
    });
    expect(linkFromDraft(draftFromLink(link), undefined)).toEqual(link);
  });

  it("save no link without a target", () => {
    expect(linkFromDraft({ ...draftFromLink(link), target: null }, [])).toBeNull();
  });

  it("take the target's current parameter types and drop parameters it no longer has", () => {
    const saved = linkFromDraft(draftFromLink(link), [
      { name: "day", title: "Day", type: "date-range" },
      { name: "other", title: "Other", type: "text" },
    ]);
    expect(saved?.parameters).toEqual({ day: { column: "d", type: "date-range" } });
  });

  it("map and unmap a parameter", () => {
    const param = { name: "region", title: "Region", type: "enum" };
    const mapped = withParameterColumn(draftFromLink(link), param, "zone");
    expect(mapped.parameters.region).toEqual({ column: "zone", type: "enum" });
    expect(withParameterColumn(mapped, param, null).parameters).not.toHaveProperty("region");
  });

  it("suggest columns named like the parameters", () => {
    expect(
      suggestedParameters(
        [
          { name: "Country", title: "Country", type: "text" },
          { name: "year", title: "Year", type: "number" },
        ],
        ["country", "total"],
      ),
    ).toEqual({ Country: { column: "country", type: "text" } });
  });
});
