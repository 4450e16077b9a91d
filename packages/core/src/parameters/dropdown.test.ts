import { describe, expect, it } from "vitest";
import { dropdownOptionValues, dropdownValuesFromResult } from "./dropdown";
import { isQueryOptionsSafe, isQuerySafe, isSavedQuerySafe } from "./safety";

describe("dropdownValuesFromResult (api-queries §8.5)", () => {
  it("uses name and value columns case-insensitively", () => {
    const data = {
      columns: [{ name: "id" }, { name: "Name" }, { name: "Value" }],
      rows: [{ id: 5, Name: "John", Value: "John Doe" }],
    };
    expect(dropdownValuesFromResult(data)).toEqual([{ name: "John", value: "John Doe" }]);
  });

  it("falls back to the first column, value as a string", () => {
    const data = {
      columns: [{ name: "id" }, { name: "fish" }, { name: "poultry" }],
      rows: [{ id: 5, fish: "salmon", poultry: "chicken" }],
    };
    expect(dropdownValuesFromResult(data)).toEqual([{ name: 5, value: "5" }]);
    const upper = { columns: [{ name: "ID" }, { name: "x" }], rows: [{ ID: 5, x: 1 }] };
    expect(dropdownValuesFromResult(upper)).toEqual([{ name: 5, value: "5" }]);
  });

  it("keeps row order and handles empty results", () => {
    const data = { columns: [{ name: "v" }], rows: [{ v: "b" }, { v: "a" }, { v: null }] };
    expect(dropdownOptionValues(data)).toEqual(["b", "a", ""]);
    expect(dropdownValuesFromResult({ columns: [], rows: [] })).toEqual([]);
  });
});

describe("query safety (api-queries §2.6)", () => {
  it("text parameters make a query unsafe", () => {
    expect(isQuerySafe([])).toBe(true);
    expect(isQuerySafe(undefined)).toBe(true);
    expect(isQuerySafe([{ type: "text" }])).toBe(false);
    expect(isQuerySafe([{ type: "number" }, { type: "text" }])).toBe(false);
    for (const type of ["text-pattern", "number", "enum", "query", "date", "date-range"]) {
      expect(isQuerySafe([{ type }])).toBe(true);
    }
  });

  it("reads query options", () => {
    expect(isQueryOptionsSafe({})).toBe(true);
    expect(isQueryOptionsSafe(null)).toBe(true);
    expect(isQueryOptionsSafe({ parameters: [{ type: "text" }] })).toBe(false);
    expect(isQueryOptionsSafe({ parameters: "junk" })).toBe(true);
  });

  it("a saved query that names a parameter it does not define is unsafe", () => {
    expect(isSavedQuerySafe("select 1", {})).toBe(true);
    expect(isSavedQuerySafe("select {{ id }}", {})).toBe(false);
    expect(
      isSavedQuerySafe("select {{ id }}", { parameters: [{ name: "id", type: "number" }] }),
    ).toBe(true);
    expect(
      isSavedQuerySafe("select {{ id }}", { parameters: [{ name: "i", type: "number" }] }),
    ).toBe(false);
    expect(
      isSavedQuerySafe("select {{ id }}", { parameters: [{ name: "id", type: "text" }] }),
    ).toBe(false);
    const range = { parameters: [{ name: "d", type: "date-range" }] };
    expect(isSavedQuerySafe("where t between '{{ d.start }}' and '{{ d.end }}'", range)).toBe(true);
    expect(isSavedQuerySafe("where t > '{{ e.start }}'", range)).toBe(false);
  });
});
