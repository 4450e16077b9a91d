import { describe, expect, it } from "vitest";
import type { ResultFilter } from "../../visualizations/resultFilters";
import { applySelection, keepSelection, mergeFilters } from "./dashboardFilters";

const filter = (name: string, values: unknown[], multiple = false): ResultFilter =>
  ({
    name,
    friendlyName: name,
    multiple,
    values,
    current: multiple ? values : values[0],
  }) as ResultFilter;

describe("dashboard filters", () => {
  it("merges the widgets' filters by name with all their values", () => {
    const merged = mergeFilters([
      [filter("region::filter", ["EU", "US"])],
      [filter("region::filter", ["US", "APAC"]), filter("year::multi-filter", [2024], true)],
    ]);
    expect(merged.map((f) => [f.name, f.values, f.current])).toEqual([
      ["region::filter", ["EU", "US", "APAC"], "EU"],
      ["year::multi-filter", [2024], [2024]],
    ]);
  });

  it("keeps a selection across new results and applies it to each widget", () => {
    const previous = [{ ...filter("region::filter", ["EU", "US"]), current: "US" }];
    const next = keepSelection(
      mergeFilters([[filter("region::filter", ["EU", "US", "APAC"])]]),
      previous,
    );
    expect(next[0]!.current).toBe("US");
    const own = [filter("region::filter", ["EU", "US"]), filter("other::filter", ["x"])];
    expect(applySelection(own, next).map((f) => f.current)).toEqual(["US", "x"]);
  });
});
