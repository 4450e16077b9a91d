import { describe, expect, it } from "vitest";
import {
  applyResultFilters,
  columnDisplayName,
  getResultFilters,
  guessValueType,
  inferColumnType,
  inferColumnTypes,
  inferValueType,
  parseColumnName,
} from "./columns";

describe("column type inference (spec 1 §5)", () => {
  it("types single values", () => {
    expect(inferValueType(1)).toBe("float");
    expect(inferValueType(1.5)).toBe("float");
    expect(inferValueType("2024-05-01T10:20:30Z")).toBe("datetime");
    expect(inferValueType("2024-05-01T10:20:30.123+02:00")).toBe("datetime");
    expect(inferValueType("2024-05-01")).toBe("date");
    expect(inferValueType("hello")).toBe("string");
    expect(inferValueType(true)).toBe("string");
    expect(inferValueType({ a: 1 })).toBe("string");
    expect(inferValueType(null)).toBeNull();
  });

  it("mixed types become string, nulls are skipped", () => {
    expect(inferColumnType([1, null, 2])).toBe("float");
    expect(inferColumnType([1, "a"])).toBe("string");
    expect(inferColumnType(["2024-01-01", "2024-01-01T00:00:00"])).toBe("string");
    expect(inferColumnType([null, undefined])).toBeNull();
    expect(inferColumnType([])).toBeNull();
  });

  it("fills only missing column types", () => {
    const rows = [{ a: 1, b: "2024-01-01", c: "x" }];
    expect(
      inferColumnTypes(
        [{ name: "a" }, { name: "b", type: null }, { name: "c", type: "integer" }],
        rows,
      ),
    ).toEqual([
      { name: "a", type: "float" },
      { name: "b", type: "date" },
      { name: "c", type: "integer" },
    ]);
  });

  it("guesses types of driver values (api-queries §11.11)", () => {
    expect(guessValueType(true)).toBe("boolean");
    expect(guessValueType(3)).toBe("integer");
    expect(guessValueType(3.5)).toBe("float");
    expect(guessValueType("")).toBe("string");
    expect(guessValueType("42")).toBe("integer");
    expect(guessValueType("4.2")).toBe("float");
    expect(guessValueType("TRUE")).toBe("boolean");
    expect(guessValueType("false")).toBe("boolean");
    expect(guessValueType("2024-01-02 10:00:00")).toBe("datetime");
    expect(guessValueType("2024-01-02")).toBe("datetime");
    expect(guessValueType(new Date())).toBe("datetime");
    expect(guessValueType("bob")).toBe("string");
    expect(guessValueType(null)).toBeNull();
  });
});

describe("result filters (spec 1 §5)", () => {
  it("recognises every suffix and drops it from the displayed name", () => {
    expect(parseColumnName("country::filter")).toEqual({
      displayName: "country",
      filter: { multiple: false },
    });
    expect(parseColumnName("country__filter").filter).toEqual({ multiple: false });
    expect(parseColumnName("tag::multi-filter").filter).toEqual({ multiple: true });
    expect(parseColumnName("tag__multiFilter").filter).toEqual({ multiple: true });
    expect(parseColumnName("tag__multi-filter")).toEqual({
      displayName: "tag",
      filter: { multiple: true },
    });
    expect(parseColumnName("plain")).toEqual({ displayName: "plain", filter: null });
    expect(parseColumnName("a::b").filter).toBeNull();
    expect(parseColumnName("created__at")).toEqual({ displayName: "created__at", filter: null });
    expect(parseColumnName("::filter").filter).toBeNull();
    expect(columnDisplayName("my_col::filter")).toBe("my_col");
  });

  const columns = [{ name: "country::filter" }, { name: "tag__multiFilter" }, { name: "n" }];
  const rows = [
    { "country::filter": "NL", tag__multiFilter: "a", n: 1 },
    { "country::filter": "DE", tag__multiFilter: "b", n: 2 },
    { "country::filter": "NL", tag__multiFilter: "b", n: 3 },
  ];

  it("builds filters with distinct values and a first selection", () => {
    const filters = getResultFilters(columns, rows);
    expect(filters.map((f) => [f.friendlyName, f.multiple, f.values, f.current])).toEqual([
      ["country", false, ["NL", "DE"], "NL"],
      ["tag", true, ["a", "b"], ["a"]],
    ]);
  });

  it("applies filters", () => {
    const [country, tag] = getResultFilters(columns, rows);
    expect(applyResultFilters(rows, [country]).map((r) => r.n)).toEqual([1, 3]);
    expect(applyResultFilters(rows, [country, { ...tag, current: ["b"] }]).map((r) => r.n)).toEqual(
      [3],
    );
    expect(applyResultFilters(rows, [{ ...tag, current: ["a", "b"] }]).map((r) => r.n)).toEqual([
      1, 2, 3,
    ]);
    expect(applyResultFilters(rows, [])).toHaveLength(3);
  });
});
