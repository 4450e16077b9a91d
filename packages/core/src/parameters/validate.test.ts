import { describe, expect, it } from "vitest";
import { renderQueryText } from "./render";
import type { ParameterDefinition } from "./types";
import {
  DetachedDropdownQueryError,
  invalidParametersMessage,
  isValidDateString,
  validateParameters,
} from "./validate";

const param = (type: string, extra: Partial<ParameterDefinition> = {}): ParameterDefinition[] => [
  { name: "bar", type, title: "bar", ...extra },
];

const valid = (schema: ParameterDefinition[], value: unknown, ctx = {}) =>
  validateParameters(schema, { bar: value }, ctx).ok;

describe("validateParameters (api-queries §8.2 model facts)", () => {
  it("accepts everything with an empty schema", () => {
    expect(validateParameters([], { anything: { weird: 1 }, x: null })).toEqual({
      ok: true,
      invalid: [],
    });
  });

  it("rejects names without a definition", () => {
    expect(validateParameters(param("text"), { qux: 7 })).toEqual({ ok: false, invalid: ["qux"] });
  });

  it("text needs a string", () => {
    expect(valid(param("text"), 7)).toBe(false);
    expect(valid(param("text"), "baz")).toBe(true);
    expect(renderQueryText("foo {{bar}}", { bar: "baz" })).toBe("foo baz");
  });

  it("text-pattern must fully match the regex", () => {
    const schema = param("text-pattern", { regex: "a+" });
    expect(valid(schema, "a")).toBe(true);
    expect(valid(schema, "aaa")).toBe(true);
    expect(valid(schema, "b")).toBe(false);
    expect(valid(schema, "ab")).toBe(false);
    expect(valid(param("text-pattern", { regex: "(" }), "(")).toBe(false);
    expect(valid(param("text-pattern"), "a")).toBe(false);
  });

  it("number accepts numbers and numeric strings", () => {
    expect(valid(param("number"), 7)).toBe(true);
    expect(valid(param("number"), "3.14")).toBe(true);
    expect(valid(param("number"), "-1e3")).toBe(true);
    expect(valid(param("number"), "baz")).toBe(false);
    expect(valid(param("number"), "")).toBe(false);
    expect(valid(param("number"), "1; drop table x")).toBe(false);
    expect(valid(param("number"), null)).toBe(false);
    expect(valid(param("number"), true)).toBe(false);
    expect(renderQueryText("foo {{bar}}", { bar: 7 })).toBe("foo 7");
    expect(renderQueryText("foo {{bar}}", { bar: "3.14" })).toBe("foo 3.14");
  });

  it("dates must parse", () => {
    for (const t of ["date", "datetime-local", "datetime-with-seconds"]) {
      expect(valid(param(t), "baz")).toBe(false);
      expect(valid(param(t), null)).toBe(false);
      expect(valid(param(t), "2000-01-01 12:00:00")).toBe(true);
    }
    expect(renderQueryText("foo {{bar}}", { bar: "2000-01-01 12:00:00" })).toBe(
      "foo 2000-01-01 12:00:00",
    );
  });

  it("isValidDateString checks real calendar values", () => {
    expect(isValidDateString("2024-02-29")).toBe(true);
    expect(isValidDateString("2023-02-29")).toBe(false);
    expect(isValidDateString("2024-13-01")).toBe(false);
    expect(isValidDateString("2024-01-01T10:20:30.123Z")).toBe(true);
    expect(isValidDateString("2024-01-01 25:00")).toBe(false);
    expect(isValidDateString("2024-01-01' OR 1=1")).toBe(false);
  });

  it("enum values must be options; lists only with multiValuesOptions", () => {
    const schema = param("enum", { enumOptions: ["bar", "baz"] });
    expect(valid(schema, 7)).toBe(false);
    expect(valid(schema, "shlomo")).toBe(false);
    expect(valid(schema, ["shlomo", "baz"])).toBe(false);
    expect(valid(schema, "baz")).toBe(true);
    expect(valid(schema, ["baz"])).toBe(false);
    const multi = param("enum", {
      enumOptions: "qux\nbaz",
      multiValuesOptions: { prefix: "'", suffix: "'", separator: "," },
    });
    expect(valid(multi, ["qux", "baz"])).toBe(true);
    expect(valid(multi, ["qux", "nope"])).toBe(false);
    expect(renderQueryText("foo {{bar}}", { bar: ["qux", "baz"] }, multi)).toBe("foo 'qux','baz'");
  });

  it("query values must be among the dropdown values", () => {
    const schema = param("query", { queryId: 5 });
    expect(valid(schema, 1, { queryOptions: () => ["1"] })).toBe(true);
    expect(valid(schema, "shlomo", { queryOptions: () => ["baz"] })).toBe(false);
    expect(valid(schema, "baz")).toBe(false);
    const failing = () => {
      throw new Error("no result");
    };
    expect(valid(schema, "baz", { queryOptions: failing })).toBe(false);
  });

  it("passes on a detached dropdown query", () => {
    const detached = () => {
      throw new DetachedDropdownQueryError();
    };
    expect(() => valid(param("query", { queryId: 5 }), "x", { queryOptions: detached })).toThrow(
      DetachedDropdownQueryError,
    );
  });

  it("date ranges need an object with parseable start and end", () => {
    const schema = param("date-range");
    expect(valid(schema, "baz")).toBe(false);
    expect(valid(schema, { start: "2000-01-01", end: "baz" })).toBe(false);
    expect(valid(schema, { start: "2000-01-01 12:00:00", end: "2000-12-31 12:00:00" })).toBe(true);
    expect(
      renderQueryText("foo {{bar.start}} {{bar.end}}", {
        bar: { start: "2000-01-01 12:00:00", end: "2000-12-31 12:00:00" },
      }),
    ).toBe("foo 2000-01-01 12:00:00 2000-12-31 12:00:00");
  });

  it("unknown types are invalid", () => {
    expect(valid(param("burrito"), "x")).toBe(false);
  });

  it("reports all invalid names together, in supplied order", () => {
    const schema: ParameterDefinition[] = [
      { name: "a", type: "number" },
      { name: "b", type: "text" },
      { name: "c", type: "date" },
    ];
    const r = validateParameters(schema, { a: "x", b: "ok", c: "nope", d: 1 });
    expect(r.invalid).toEqual(["a", "c", "d"]);
    expect(invalidParametersMessage(r.invalid)).toBe(
      "The following parameter values are incompatible with their definitions: a, c, d",
    );
  });
});
