import type { ColumnType, CrossFilter } from "@sightline/core";
import { describe, expect, it } from "vitest";
import { filterMarkText, filterReach, filterReachLines } from "./filterReach";

const types = (...names: string[]) =>
  new Map<string, ColumnType | null>(names.map((n) => [n, "string"]));
const country: CrossFilter = { column: "country", type: "string", values: ["Italy"], widget: 1 };
const status: CrossFilter = { column: "status", type: "string", values: ["cancelled"], widget: 2 };
const none = { mappings: {}, parameters: {} };

describe("which cross-filters reach a widget", () => {
  it("a widget with both columns is filtered by both", () => {
    const reach = filterReach(
      3,
      types("country", "status"),
      { filters: [country, status], ...none },
      true,
    );
    expect(reach.applied).toEqual([country, status]);
    expect(filterMarkText(reach)).toBe("Filtered by country, status");
    expect(filterReachLines(reach)).toEqual([
      "Filtered by country: Italy",
      "Filtered by status: cancelled",
    ]);
  });

  it("a widget without the column is not filtered, and says which column it lacks", () => {
    const reach = filterReach(3, types("month", "orders"), { filters: [country], ...none }, true);
    expect(reach.missed).toEqual([country]);
    expect(filterMarkText(reach)).toBe("Not filtered");
    expect(filterReachLines(reach)).toEqual(["Not filtered by country: no country column"]);
  });

  it("the pie beside a filtered table: filtered by the other's click, the source of its own", () => {
    const reach = filterReach(
      2,
      types("country", "status", "orders"),
      { filters: [country, status], ...none },
      true,
    );
    expect(reach).toMatchObject({ applied: [country], own: [status], missed: [] });
    expect(filterMarkText(reach)).toBe("Filtered by country");
  });

  it("the widget clicked, and nothing else set: it sets the filter", () => {
    const reach = filterReach(1, types("country"), { filters: [country], ...none }, true);
    expect(filterMarkText(reach)).toBe("Sets country filter");
    expect(filterReachLines(reach)).toEqual(["Set by a click here: country: Italy (highlighted)"]);
  });

  it("follows a mapping to another column name and a mapping to a parameter", () => {
    const mapped = { mappings: { country: { "3": "land" } }, parameters: {} };
    expect(filterReach(3, types("land"), { filters: [country], ...mapped }, true).applied).toEqual([
      country,
    ]);
    const parameter = { mappings: {}, parameters: { country: { "4": "pick" } } };
    expect(
      filterReach(4, types("picked"), { filters: [country], ...parameter }, true).applied,
    ).toEqual([country]);
  });

  it("a widget with cross-filtering off misses every filter, and says why", () => {
    const reach = filterReach(3, types("country"), { filters: [country], ...none }, false);
    expect(filterMarkText(reach)).toBe("Not filtered");
    expect(filterReachLines(reach)).toEqual([
      "Not filtered by country: cross-filtering is off for this widget",
    ]);
  });
});
