import { describe, expect, it } from "vitest";
import { refusal } from "../../testing/refusal";
import { MAX_JSON_LENGTH, readChanges, readName, readVersion } from "./bodyFields";

describe("dashboard body fields", () => {
  it("name: a non-blank string of at most 100 characters", () => {
    expect(readName("Sales")).toBe("Sales");
    expect(readName("x".repeat(100))).toBe("x".repeat(100));
    expect(refusal(() => readName("  "))).toBe("name is required and must be a string.");
    expect(refusal(() => readName(5))).toBe("name is required and must be a string.");
    expect(refusal(() => readName(undefined))).toBe("name is required and must be a string.");
    expect(refusal(() => readName("x".repeat(101)))).toBe("name must be at most 100 characters.");
  });

  it("a save takes only the keys present, and ignores unknown ones", () => {
    expect(readChanges({})).toEqual({});
    expect(readChanges({ id: 4, widgets: [], user: {} })).toEqual({});
    expect(
      readChanges({
        name: "Board",
        layout: null,
        tags: ["a", "", null],
        is_draft: false,
        is_archived: true,
        dashboard_filters_enabled: true,
        options: { refresh: 60 },
      }),
    ).toEqual({
      name: "Board",
      layout: [],
      tags: ["a"],
      is_draft: false,
      is_archived: true,
      dashboard_filters_enabled: true,
      options: { refresh: 60 },
    });
    expect(readChanges({ layout: [[1, 2]] })).toEqual({ layout: [[1, 2]] });
  });

  it("a save refuses wrong values, naming the field", () => {
    expect(refusal(() => readChanges({ is_draft: "no" }))).toBe("is_draft must be true or false.");
    expect(refusal(() => readChanges({ dashboard_filters_enabled: 1 }))).toBe(
      "dashboard_filters_enabled must be true or false.",
    );
    expect(refusal(() => readChanges({ options: [] }))).toBe("options must be an object.");
    expect(refusal(() => readChanges({ options: null }))).toBe("options must be an object.");
    expect(refusal(() => readChanges({ tags: "a" }))).toBe("tags must be a list of strings.");
    const big = "x".repeat(MAX_JSON_LENGTH);
    expect(refusal(() => readChanges({ layout: [big] }))).toBe("layout is too large.");
    expect(refusal(() => readChanges({ options: { big } }))).toBe("options is too large.");
  });

  it("version: absent or null means last write wins; otherwise a whole number", () => {
    expect(readVersion({})).toBeUndefined();
    expect(readVersion({ version: null })).toBeUndefined();
    expect(readVersion({ version: 3 })).toBe(3);
    for (const version of ["3", 1.5, Number.MAX_SAFE_INTEGER + 1]) {
      expect(refusal(() => readVersion({ version }))).toBe("version must be a whole number.");
    }
  });
});
