import { readDashboardCrossFilterOptions } from "@sightline/core";
import { describe, expect, it } from "vitest";
import {
  crossFilterOptionsToStore,
  mappingRows,
  mappingRowsProblem,
  type MappingRow,
} from "./crossFilterSettings";

const stored = {
  enabled: true,
  mappings: { country: { "3": "cntry" } },
  parameters: { year: { "4": "yr" } },
  future: 1,
};

describe("the Cross-filtering dialog's mappings", () => {
  it("lists column and parameter mappings as rows and stores them back unchanged", () => {
    const rows = mappingRows(readDashboardCrossFilterOptions({ crossFilter: stored }));
    expect(rows).toEqual([
      { filterColumn: "country", widgetId: 3, target: "column", name: "cntry" },
      { filterColumn: "year", widgetId: 4, target: "parameter", name: "yr" },
    ]);
    expect(crossFilterOptionsToStore(stored, true, rows)).toEqual(stored);
  });

  it("keeps unknown keys, switches off, trims names and drops removed mappings", () => {
    const rows: MappingRow[] = [
      { filterColumn: " country ", widgetId: 5, target: "column", name: " land " },
    ];
    expect(crossFilterOptionsToStore(stored, false, rows)).toEqual({
      enabled: false,
      mappings: { country: { "5": "land" } },
      parameters: {},
      future: 1,
    });
    expect(crossFilterOptionsToStore(null, true, [])).toEqual({
      enabled: true,
      mappings: {},
      parameters: {},
    });
  });

  it("refuses incomplete rows and a filter column mapped twice for one widget", () => {
    const row: MappingRow = { filterColumn: "country", widgetId: 3, target: "column", name: "c" };
    expect(mappingRowsProblem([row])).toBeNull();
    expect(mappingRowsProblem([{ ...row, name: " " }])).toMatch(/needs a filter column/);
    expect(mappingRowsProblem([{ ...row, widgetId: null }])).toMatch(/needs a filter column/);
    expect(mappingRowsProblem([row, { ...row, target: "parameter", name: "p" }])).toBe(
      'The filter column "country" is mapped twice for one widget.',
    );
    expect(mappingRowsProblem([row, { ...row, widgetId: 4 }])).toBeNull();
  });
});
