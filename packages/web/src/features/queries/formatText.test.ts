import { describe, expect, it } from "vitest";
import { canFormat, formatQueryText } from "./formatText";

describe("format", () => {
  it("formats SQL with upper-case keywords", () => {
    expect(formatQueryText("select a,b from t where x=1", "sql")).toBe(
      "SELECT\n  a,\n  b\nFROM\n  t\nWHERE\n  x = 1",
    );
  });
  it("re-indents JSON and throws on bad JSON", () => {
    expect(formatQueryText('{"a":1}', "json")).toBe('{\n  "a": 1\n}');
    expect(() => formatQueryText("{", "json")).toThrow();
  });
  it("supports sql and json only", () => {
    expect([canFormat("sql"), canFormat("json"), canFormat("python")]).toEqual([true, true, false]);
  });
});
