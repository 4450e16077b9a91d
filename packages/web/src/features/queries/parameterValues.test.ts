import { describe, expect, it } from "vitest";
import type { ParameterDefinition } from "@sightline/core";
import {
  changedNames,
  initialValues,
  missingValuesRefusal,
  numberInputText,
  withParameterUrl,
} from "./parameterValues";

const defs: ParameterDefinition[] = [
  { name: "n", type: "number", value: 5 },
  { name: "range", type: "date-range", value: "d_last_7_days" },
  { name: "kind", type: "enum", enumOptions: "a\nb", value: "a" },
];

describe("parameter values", () => {
  it("starts from the saved defaults, the address wins", () => {
    const values = initialValues(
      defs,
      new URLSearchParams("p_n=abc&p_range=2024-01-01--2024-01-31"),
    );
    expect(values).toEqual({
      n: null,
      range: { start: "2024-01-01", end: "2024-01-31" },
      kind: "a",
    });
  });

  it("counts only real changes", () => {
    const applied = { n: 5, range: "d_last_7_days", kind: "a" };
    expect(changedNames(defs, applied, { n: "5", kind: "b" })).toEqual(["kind"]);
    expect(changedNames(defs, { n: null }, { n: "abc" })).toEqual(["n"]);
    expect(changedNames(defs, { n: null }, { n: "" })).toEqual([]);
  });

  it("writes p_ keys, ranges as start--end, removes empty ones", () => {
    const search = withParameterUrl(new URLSearchParams("p_n=1&x=y"), defs, {
      n: "",
      range: { start: "2024-01-01", end: "2024-01-02" },
      kind: "b",
    });
    expect(search.get("p_n")).toBeNull();
    expect(search.get("p_range")).toBe("2024-01-01--2024-01-02");
    expect(search.get("p_kind")).toBe("b");
    expect(search.get("x")).toBe("y");
  });

  it("keeps only what can be part of a number in a Number box", () => {
    expect(numberInputText("abc")).toBe("");
    expect(numberInputText("12a")).toBe("12");
    expect(numberInputText("-1.5e3")).toBe("-1.5e3");
  });

  it("refuses a run with a missing value, with the spec's message", () => {
    expect(missingValuesRefusal(defs, { n: "abc", range: "d_last_7_days", kind: "a" })).toBe(
      "missing value(s) for n parameter(s).",
    );
    expect(missingValuesRefusal(defs, { n: 1, range: "d_last_7_days", kind: "a" })).toBeNull();
  });
});
