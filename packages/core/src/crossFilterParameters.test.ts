import { describe, expect, it } from "vitest";
import type { CrossFilter } from "./crossFilter";
import {
  applyCrossFilterParameters,
  crossFilterParameterValue,
  splitWidgetCrossFilters,
} from "./crossFilterParameters";
import type { ParameterDefinition } from "./parameters/types";

const country: CrossFilter = { column: "country", values: ["FR", "DE"], widget: 1 };
const year: CrossFilter = { column: "year", type: "integer", values: [2024], widget: 2 };

describe("splitting a widget's filters into row filters and parameter values", () => {
  it("a filter mapped to one of the widget's parameters sets it instead of filtering rows", () => {
    const split = splitWidgetCrossFilters(5, [country, year], { year: { "5": "yr" } });
    expect(split.rowFilters).toEqual([country]);
    expect(split.parameterValues).toEqual({ yr: [2024] });
  });

  it("other widgets' mappings do not count, and the source widget is left alone", () => {
    expect(splitWidgetCrossFilters(6, [year], { year: { "5": "yr" } })).toEqual({
      rowFilters: [year],
      parameterValues: {},
    });
    expect(splitWidgetCrossFilters(2, [year], { year: { "2": "yr" } })).toEqual({
      rowFilters: [],
      parameterValues: {},
    });
  });
});

const text: ParameterDefinition = { name: "t", type: "text" };
const num: ParameterDefinition = { name: "n", type: "number" };
const date: ParameterDefinition = { name: "d", type: "date" };
const range: ParameterDefinition = { name: "r", type: "date-range" };
const multi: ParameterDefinition = {
  name: "m",
  type: "enum",
  enumOptions: "FR\nDE\nIT",
  multiValuesOptions: {},
};
const single: ParameterDefinition = { name: "s", type: "enum", enumOptions: ["FR", "DE"] };

describe("a parameter's value from selected values", () => {
  it("single-value parameters take the latest value, typed for the parameter", () => {
    expect(crossFilterParameterValue(text, ["FR", "DE"])).toBe("DE");
    expect(crossFilterParameterValue(num, [3, 2024])).toBe(2024);
    expect(crossFilterParameterValue(single, ["DE"])).toBe("DE");
    expect(crossFilterParameterValue(date, ["2024-03-05"])).toBe("2024-03-05");
    expect(crossFilterParameterValue(date, ["2024-03-05T10:00:00.000Z"])).toBe("2024-03-05");
  });

  it("a multi-value dropdown takes every value; a date range the clicked day", () => {
    expect(crossFilterParameterValue(multi, ["FR", "DE"])).toEqual(["FR", "DE"]);
    expect(crossFilterParameterValue(range, ["2024-03-05"])).toEqual({
      start: "2024-03-05",
      end: "2024-03-05",
    });
  });

  it("nothing usable gives null: only nulls, or a value the dropdown does not offer", () => {
    expect(crossFilterParameterValue(text, [null])).toBeNull();
    expect(crossFilterParameterValue(single, ["ES"])).toBeNull();
  });
});

describe("applying parameter values to a widget's values", () => {
  const values = { t: "a", n: 1 };
  it("overrides the mapped parameters in a copy", () => {
    const out = applyCrossFilterParameters(values, [text, num], { n: [7] });
    expect(out).toEqual({ t: "a", n: 7 });
    expect(values).toEqual({ t: "a", n: 1 });
  });

  it("returns the same object when nothing applies (so the widget does not run again)", () => {
    expect(applyCrossFilterParameters(values, [text, num], {})).toBe(values);
    expect(applyCrossFilterParameters(values, [text, num], { gone: ["x"] })).toBe(values);
    expect(applyCrossFilterParameters(values, [text, num], { t: [null] })).toBe(values);
  });
});
