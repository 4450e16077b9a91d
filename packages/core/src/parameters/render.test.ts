import { describe, expect, it } from "vitest";
import {
  QueryTemplateError,
  findMissingParameters,
  joinListValue,
  missingParametersError,
  referencedParameterNames,
  renderQueryText,
  savedParameterValues,
  suppliedParameterNames,
} from "./render";

describe("renderQueryText", () => {
  it("does not HTML-escape", () => {
    expect(renderQueryText("select '{{x}}'", { x: "a<b & 'c'" })).toBe("select 'a<b & 'c''");
  });

  it("renders sections and dotted names", () => {
    expect(renderQueryText("{{#on}}where x = {{v}}{{/on}}", { on: true, v: 2 })).toBe(
      "where x = 2",
    );
    expect(renderQueryText("{{#on}}where{{/on}}", { on: false })).toBe("");
    expect(renderQueryText("{{r.start}}..{{r.end}}", { r: { start: "a", end: "b" } })).toBe("a..b");
  });

  it("joins list values with defaults and stringifies non-strings", () => {
    expect(renderQueryText("in ({{ids}})", { ids: [1, 2, 3] })).toBe("in (1,2,3)");
    expect(joinListValue(["a", "b"], { prefix: '"', suffix: '"', separator: " | " })).toBe(
      '"a" | "b"',
    );
    expect(joinListValue([], null)).toBe("");
  });

  it("leaves unknown names empty and never resolves built-ins", () => {
    expect(renderQueryText("a{{missing}}b{{constructor}}c", {})).toBe("abc");
  });

  it("throws QueryTemplateError on a broken template", () => {
    expect(() => renderQueryText("{{#open}} x", {})).toThrow(QueryTemplateError);
  });

  it("returns a text without tags as it is, whatever the values", () => {
    const text = "select '}}', \"{x}\" from t";
    expect(renderQueryText(text, { x: 1 })).toBe(text);
    expect(referencedParameterNames(text)).toEqual([]);
    expect(findMissingParameters("select 1", { a: 1 })).toEqual([]);
    // An unclosed tag is still a tag, and still refused.
    expect(() => renderQueryText(`${text} -- {{`, {})).toThrow(QueryTemplateError);
  });
});

describe("missing parameters (api-queries §8.4)", () => {
  it("finds none in plain text", () => {
    expect(findMissingParameters("SELECT 1", {})).toEqual([]);
  });

  it("reports unsupplied names once each", () => {
    expect(findMissingParameters("SELECT {{param}} FROM {{table}}", {})).toEqual([
      "param",
      "table",
    ]);
    expect(findMissingParameters("SELECT {{param}}, {{param}}", {})).toEqual(["param"]);
  });

  it("reports section names and nested names", () => {
    expect(findMissingParameters("SELECT {{#test}} {{nested_param}} {{/test}}", {})).toEqual([
      "test",
      "nested_param",
    ]);
  });

  it("object values supply dotted names", () => {
    const text = "SELECT * WHERE a > {{ created_at.start }} AND a < {{ created_at.end }}";
    expect(findMissingParameters(text, { created_at: { start: "x", end: "y" } })).toEqual([]);
    expect(findMissingParameters(text, { created_at: { start: "x" } })).toEqual(["created_at.end"]);
    expect(findMissingParameters(text, { created_at: "x" })).toEqual([
      "created_at.start",
      "created_at.end",
    ]);
  });

  it("lists referenced and supplied names", () => {
    expect(referencedParameterNames("{{{raw}}} {{^inv}}{{inner}}{{/inv}}")).toEqual([
      "raw",
      "inner",
    ]);
    expect(suppliedParameterNames({ a: 1, b: [1], r: { start: 1, end: 2 } })).toEqual([
      "a",
      "b",
      "r.start",
      "r.end",
    ]);
  });

  it("formats the error", () => {
    expect(missingParametersError(["a", "b"])).toBe("Missing parameter value for: a, b");
  });

  it("collects saved defaults", () => {
    expect(
      savedParameterValues([
        { name: "a", type: "number", value: 5 },
        { name: "b", type: "text" },
      ]),
    ).toEqual({ a: 5, b: null });
  });
});
