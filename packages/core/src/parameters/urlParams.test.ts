import { describe, expect, it } from "vitest";
import type { ParameterDefinition } from "./types";
import {
  collectParametersFromQueryString,
  decodeParameterValue,
  encodeParameterValue,
  parameterUrlKey,
  parametersFromUrlParams,
  parametersToUrlParams,
} from "./urlParams";

const defs: ParameterDefinition[] = [
  { name: "n", type: "number" },
  { name: "t", type: "text" },
  { name: "r", type: "date-range" },
  { name: "e", type: "enum", enumOptions: "a\nb\nc", multiValuesOptions: { separator: "," } },
  { name: "q", type: "query", queryId: 3 },
];

describe("parameter keys", () => {
  it("uses p_ and p_w<id>_ prefixes", () => {
    expect(parameterUrlKey("x")).toBe("p_x");
    expect(parameterUrlKey("x", 12)).toBe("p_w12_x");
  });
});

describe("encoding values", () => {
  it("writes ranges as start--end and lists as JSON", () => {
    expect(encodeParameterValue(defs[2], { start: "2024-01-01", end: "2024-01-31" })).toBe(
      "2024-01-01--2024-01-31",
    );
    expect(encodeParameterValue(defs[2], "d_last_7_days")).toBe("d_last_7_days");
    expect(encodeParameterValue(defs[3], ["a", "c"])).toBe('["a","c"]');
    expect(encodeParameterValue(defs[0], 5)).toBe("5");
    expect(encodeParameterValue(defs[1], "")).toBeNull();
  });

  it("round-trips through the address", () => {
    const values = {
      n: 5,
      t: "héllo & bye",
      r: { start: "2024-01-01", end: "2024-01-31" },
      e: ["b"],
      q: "7",
    };
    const params = parametersToUrlParams(defs, values, 4);
    expect(params).toEqual({
      p_w4_n: "5",
      p_w4_t: "héllo & bye",
      p_w4_r: "2024-01-01--2024-01-31",
      p_w4_e: '["b"]',
      p_w4_q: "7",
    });
    const search = new URLSearchParams(params as Record<string, string>);
    expect(parametersFromUrlParams(defs, new URLSearchParams(search.toString()), 4)).toEqual(
      values,
    );
    expect(parametersFromUrlParams(defs, search)).toEqual({});
  });

  it("maps empty values to null so the key is removed", () => {
    expect(parametersToUrlParams([defs[0]], { n: "abc" })).toEqual({ p_n: null });
  });
});

describe("decoding values", () => {
  it("accepts plain values for multi parameters and old range keys", () => {
    expect(decodeParameterValue(defs[3], "b")).toEqual(["b"]);
    expect(decodeParameterValue(defs[3], "[not json")).toBeNull();
    expect(decodeParameterValue(defs[2], "d_this_year")).toBe("d_this_year");
    expect(decodeParameterValue(defs[2], "garbage")).toBeNull();
    expect(
      parametersFromUrlParams([defs[2]], { "p_r.start": "2024-01-01", "p_r.end": "2024-02-01" }),
    ).toEqual({ r: { start: "2024-01-01", end: "2024-02-01" } });
    expect(parametersFromUrlParams([defs[0]], { p_n: ["3", "4"] })).toEqual({ n: 3 });
  });

  it("collects raw p_ values for the server", () => {
    expect(collectParametersFromQueryString({ p_param: "1", p_: "x", api_key: "k" })).toEqual({
      param: "1",
    });
    expect(collectParametersFromQueryString(new URLSearchParams("p_a=1&p_a=2&p_b=x"))).toEqual({
      a: "1",
      b: "x",
    });
  });
});
