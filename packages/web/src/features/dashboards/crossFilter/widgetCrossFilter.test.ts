import type { CrossFilter } from "@sightline/core";
import { describe, expect, it } from "vitest";
import type { QueryResultData } from "../../../visualizations";
import {
  appliedFilters,
  filteredResult,
  resultColumnTypes,
  selectionKey,
  widgetSelection,
} from "./widgetCrossFilter";

const data: QueryResultData = {
  columns: [
    { name: "country", type: "string" },
    { name: "day", type: "string" },
    { name: "n", type: null },
  ],
  rows: [
    { country: "FR", day: "2024-01-05", n: 1 },
    { country: "DE", day: "2024-01-06", n: 2 },
    { country: "FR", day: "2024-01-07", n: 3 },
  ],
};

const country = (values: string[], widget = 9): CrossFilter => ({
  column: "country",
  type: "string",
  values,
  widget,
});

describe("one widget's side of cross-filtering", () => {
  it("types columns as the visualizations do: missing types inferred, text dates as dates", () => {
    expect([...resultColumnTypes(data)]).toEqual([
      ["country", "string"],
      ["day", "date"],
      ["n", "float"],
    ]);
  });

  it("filters the loaded rows by the filters that concern it, and keys them", () => {
    const types = resultColumnTypes(data);
    const { applied, key } = appliedFilters(1, types, [country(["FR"])], {});
    expect(filteredResult(data, applied).rows.map((r) => r.n)).toEqual([1, 3]);
    // A filter on a column the widget lacks changes nothing: same key, same result object.
    const other: CrossFilter = { column: "city", values: ["Paris"], widget: 9 };
    const none = appliedFilters(1, types, [other], {});
    expect(none.key).toBe("[]");
    expect(filteredResult(data, none.applied)).toBe(data);
    expect(appliedFilters(1, types, [country(["FR"]), other], {}).key).toBe(key);
  });

  it("follows the dashboard's column mappings, and dates compare by day", () => {
    const types = resultColumnTypes(data);
    const when: CrossFilter = { column: "date", type: "date", values: ["2024-01-06"], widget: 9 };
    const { applied } = appliedFilters(1, types, [when], { date: { "1": "day" } });
    expect(filteredResult(data, applied).rows.map((r) => r.n)).toEqual([2]);
  });

  it("never filters the widget a filter was clicked in: it highlights the values instead", () => {
    const types = resultColumnTypes(data);
    const { applied } = appliedFilters(9, types, [country(["FR"])], {});
    expect(applied).toEqual([]);
    const selection = widgetSelection(9, [country(["FR"])], {})!;
    expect(selection.columns).toEqual(["country"]);
    expect(selection.has("country", "FR")).toBe(true);
    expect(selection.has("country", "DE")).toBe(false);
    expect(widgetSelection(1, [country(["FR"])], {})).toBeUndefined();
    // Under a mapping, the widget's own column name is highlighted.
    expect(widgetSelection(9, [country(["FR"])], { country: { "9": "land" } })!.columns).toEqual([
      "land",
    ]);
    expect(selectionKey(1, [country(["FR"])])).toBe("[]");
    expect(selectionKey(9, [country(["FR"])])).not.toBe(selectionKey(9, [country(["DE"])]));
  });
});
