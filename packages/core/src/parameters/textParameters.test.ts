import { describe, expect, it } from "vitest";
import type { ParameterDefinition } from "./types";
import { parameterNamesInText, parametersForText, textParameter } from "./textParameters";

describe("parameterNamesInText", () => {
  it("finds {{ name }} with or without spaces, once each, in order", () => {
    expect(parameterNamesInText("SELECT '{{ foo }}' AS x, {{bar}}, {{ foo }}")).toEqual([
      "foo",
      "bar",
    ]);
  });

  it("reads a range's {{ name.start }} and {{ name.end }} as one name", () => {
    expect(parameterNamesInText("where d between '{{ span.start }}' and '{{ span.end }}'")).toEqual(
      ["span"],
    );
  });

  it("finds unescaped tags, sections and names inside sections", () => {
    expect(parameterNamesInText("{{{ raw }}} {{#on}} and x = {{ v }}{{/on}}")).toEqual([
      "raw",
      "on",
      "v",
    ]);
  });

  it("finds none in plain text and ignores comments and the current item", () => {
    expect(parameterNamesInText("select '}}' from t")).toEqual([]);
    expect(parameterNamesInText("{{! a note }} {{ . }}")).toEqual([]);
  });

  it("is null while a tag is unclosed", () => {
    expect(parameterNamesInText("select {{ fo")).toBeNull();
    expect(parameterNamesInText("{{#open}} x")).toBeNull();
  });
});

describe("parametersForText", () => {
  const number: ParameterDefinition = { name: "n", title: "Count", type: "number", value: 3 };

  it("adds a text parameter titled with its name for a new name", () => {
    expect(parametersForText("SELECT '{{ foo }}' AS x", [])).toEqual([
      { name: "foo", title: "foo", type: "text", value: null, global: false },
    ]);
    expect(textParameter("span").type).toBe("text");
  });

  it("keeps the settings of names that stay and removes names no longer written", () => {
    const old: ParameterDefinition = { name: "old", title: "Old", type: "text", value: "a" };
    expect(parametersForText("select {{ n }}, {{ m }}", [old, number])).toEqual([
      number,
      textParameter("m"),
    ]);
  });

  it("returns the same list when the text names exactly the parameters it has", () => {
    const list = [number];
    expect(parametersForText("select {{ n }} * 2", list)).toBe(list);
  });

  it("leaves the list alone while the template does not parse", () => {
    const list = [number];
    expect(parametersForText("select {{ n }} + {{ ", list)).toBe(list);
  });
});
