import { describe, expect, it } from "vitest";
import {
  emptyParameterNames,
  executionValue,
  executionValues,
  missingValuesMessage,
  normalizeParameterValue,
  parseDateValue,
} from "./normalize";
import type { ParameterDefinition } from "./types";

const def = (type: string, extra: Partial<ParameterDefinition> = {}): ParameterDefinition => ({
  name: "p",
  type,
  ...extra,
});
const n = (d: ParameterDefinition, v: unknown) => normalizeParameterValue(d, v);
const now = new Date(Date.UTC(2024, 4, 15, 10, 20, 30));

describe("normalizeParameterValue (spec 1 §5)", () => {
  it("number: non-numeric becomes empty", () => {
    expect(n(def("number"), "42")).toBe(42);
    expect(n(def("number"), " 3.5 ")).toBe(3.5);
    expect(n(def("number"), 7)).toBe(7);
    expect(n(def("number"), "abc")).toBeNull();
    expect(n(def("number"), "")).toBeNull();
    expect(n(def("number"), null)).toBeNull();
    expect(n(def("number"), Number.NaN)).toBeNull();
  });

  it("text: empty string becomes empty", () => {
    expect(n(def("text"), "")).toBeNull();
    expect(n(def("text"), undefined)).toBeNull();
    expect(n(def("text"), "a b")).toBe("a b");
    expect(n(def("text"), 5)).toBe("5");
    // Unknown types behave as text.
    expect(n(def("whatever"), "x")).toBe("x");
  });

  it("enum: one of the options, else the first", () => {
    const d = def("enum", { enumOptions: "a\nb\nc" });
    expect(n(d, "b")).toBe("b");
    expect(n(d, "z")).toBe("a");
    expect(n(d, null)).toBe("a");
    expect(n(d, ["b"])).toBe("a");
    expect(n(def("enum", { enumOptions: "" }), "a")).toBeNull();
  });

  it("enum multi: keeps only valid values; empty gives none", () => {
    const d = def("enum", { enumOptions: ["a", "b", "c"], multiValuesOptions: {} });
    expect(n(d, ["c", "z", "a", "c"])).toEqual(["c", "a"]);
    expect(n(d, "b")).toEqual(["b"]);
    expect(n(d, ["z"])).toBeNull();
    expect(n(d, [])).toBeNull();
  });

  it("query: single takes one value, multi wraps", () => {
    expect(n(def("query"), ["x", "y"])).toBe("x");
    expect(n(def("query"), 3)).toBe(3);
    expect(n(def("query"), [])).toBeNull();
    expect(n(def("query"), null)).toBeNull();
    const multi = def("query", { multiValuesOptions: { separator: "," } });
    expect(n(multi, "x")).toEqual(["x"]);
    expect(n(multi, ["x", 2])).toEqual(["x", 2]);
  });

  it("dates: invalid becomes empty, formats by type, dynamic kept", () => {
    expect(n(def("date"), "2024-05-01 13:14:15")).toBe("2024-05-01");
    expect(n(def("datetime-local"), "2024-05-01 13:14:15")).toBe("2024-05-01 13:14");
    expect(n(def("datetime-with-seconds"), "2024-05-01 13:14:15")).toBe("2024-05-01 13:14:15");
    expect(n(def("date"), "nonsense")).toBeNull();
    expect(n(def("date"), "")).toBeNull();
    expect(n(def("date"), null)).toBeNull();
    expect(n(def("date"), "d_now")).toBe("d_now");
    expect(n(def("date"), "d_last_week")).toBeNull();
  });

  it("dates: an impossible date (an address typo) is empty, not rolled over into another date", () => {
    expect(n(def("date"), "2026-13-45")).toBeNull();
    expect(n(def("date"), "2026-02-30")).toBeNull();
    expect(n(def("datetime-local"), "2026-01-05 25:00")).toBeNull();
    expect(n(def("date"), "2026-01-05T10:30")).toBe("2026-01-05");
    expect(n(def("date-range"), { start: "2026-01-01", end: "2026-01-32" })).toBeNull();
    expect(parseDateValue("2026-13-45")).toBeNull();
    expect(parseDateValue("2026-01-05 10:30:15")?.format("HH:mm:ss")).toBe("10:30:15");
  });

  it("date ranges: two valid dates or {start,end}, else empty", () => {
    const d = def("date-range");
    expect(n(d, ["2024-01-01", "2024-01-31 10:00"])).toEqual({
      start: "2024-01-01",
      end: "2024-01-31",
    });
    expect(n(d, { start: "2024-01-01", end: "2024-02-01" })).toEqual({
      start: "2024-01-01",
      end: "2024-02-01",
    });
    expect(n(def("datetime-range"), { start: "2024-01-01", end: "2024-02-01 10:11:12" })).toEqual({
      start: "2024-01-01 00:00",
      end: "2024-02-01 10:11",
    });
    expect(n(d, ["2024-01-01"])).toBeNull();
    expect(n(d, { start: "2024-01-01", end: "bad" })).toBeNull();
    expect(n(d, "2024-01-01")).toBeNull();
    expect(n(d, "d_last_7_days")).toBe("d_last_7_days");
  });
});

describe("execution values", () => {
  const utc = { utc: true };
  it("resolves dynamic values against now", () => {
    expect(executionValue(def("date"), "d_yesterday", now, utc)).toBe("2024-05-14");
    expect(executionValue(def("date-range"), "d_last_month", now, utc)).toEqual({
      start: "2024-04-01",
      end: "2024-04-30",
    });
    expect(executionValue(def("date"), "2024-01-02", now, utc)).toBe("2024-01-02");
  });

  it("uses the current time for empty useCurrentDateTime dates", () => {
    expect(
      executionValue(def("datetime-local", { useCurrentDateTime: true }), null, now, utc),
    ).toBe("2024-05-15 10:20");
    expect(executionValue(def("date"), null, now, utc)).toBeNull();
  });

  it("builds the parameters object, falling back to saved values and skipping empties", () => {
    const defs = [
      def("number", { name: "a", value: 1 }),
      def("text", { name: "b" }),
      def("date", { name: "c", value: "d_now" }),
    ];
    expect(executionValues(defs, { a: "5" }, now, utc)).toEqual({ a: 5, c: "2024-05-15" });
    expect(emptyParameterNames(defs, { a: "x" })).toEqual(["a", "b"]);
    expect(missingValuesMessage(["a", "b"])).toBe("missing value(s) for a, b parameter(s).");
  });
});
