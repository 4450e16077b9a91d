import { describe, expect, it } from "vitest";
import { buildFilters, filterData, filterLabel } from "./resultFilters";

const data = {
  columns: [
    { name: "country::filter", type: "string" },
    { name: "tag__multiFilter", type: "string" },
    { name: "v", type: "integer" },
  ],
  rows: [
    { "country::filter": "fr", tag__multiFilter: "a", v: 1 },
    { "country::filter": "de", tag__multiFilter: "b", v: 2 },
    { "country::filter": "fr", tag__multiFilter: "b", v: 3 },
  ],
};

describe("result filters", () => {
  it("labels filters and starts single at the first value, multi with all values", () => {
    const [single, multi] = buildFilters(data);
    expect(single).toMatchObject({
      friendlyName: "Country",
      multiple: false,
      current: "fr",
      values: ["fr", "de"],
    });
    expect(multi).toMatchObject({ friendlyName: "Tag", multiple: true, current: ["a", "b"] });
    expect(filterLabel("order_date::multi-filter")).toBe("Order_date");
  });
  it("keeps rows matching every filter, by string form for booleans", () => {
    const filters = buildFilters(data);
    expect(filterData(data, filters).rows.map((r) => r.v)).toEqual([1, 3]);
    const bools = {
      columns: [{ name: "b::filter", type: "boolean" }],
      rows: [{ "b::filter": true }, { "b::filter": false }],
    };
    expect(filterData(bools, [{ ...buildFilters(bools)[0], current: "true" }]).rows).toHaveLength(
      1,
    );
  });
});
