import { describe, expect, it } from "vitest";
import { refusal } from "../../testing/refusal";
import { readBool, readNullableId, readOptions, readSchedule, readText } from "./bodyFields";

describe("query body fields", () => {
  it("options: an object (none is {}), with valid parameters and a boolean auto limit", () => {
    expect(readOptions(undefined)).toEqual({});
    expect(readOptions(null)).toEqual({});
    expect(readOptions({ apply_auto_limit: true })).toEqual({ apply_auto_limit: true });
    expect(refusal(() => readOptions([]))).toBe("options must be an object.");
    expect(refusal(() => readOptions("x"))).toBe("options must be an object.");
    expect(refusal(() => readOptions({ apply_auto_limit: "yes" }))).toBe(
      "options.apply_auto_limit must be true or false.",
    );
    expect(refusal(() => readOptions({ parameters: "n" }))).toMatch(/parameters/);
  });

  it("schedule: null for none, else checked by the core rule", () => {
    expect(readSchedule(undefined)).toBeNull();
    expect(readSchedule(null)).toBeNull();
    const daily = { interval: 86400, time: "10:00", day_of_week: null, until: null };
    expect(readSchedule(daily)).toEqual(daily);
    expect(refusal(() => readSchedule({ interval: 0 }))).toMatch(/interval/);
  });

  it("texts, flags and ids name the field they refuse", () => {
    expect(readText("x", "name", false)).toBe("x");
    expect(readText(null, "description", true)).toBeNull();
    expect(refusal(() => readText(null, "name", false))).toBe("name must be a string.");
    expect(readBool(false, "is_draft")).toBe(false);
    expect(refusal(() => readBool("false", "is_draft"))).toBe("is_draft must be true or false.");
    expect(readNullableId(null, "latest_query_data_id")).toBeNull();
    expect(readNullableId("12", "latest_query_data_id")).toBe(12);
    expect(refusal(() => readNullableId(-1, "latest_query_data_id"))).toBe(
      "latest_query_data_id is required and must be an id.",
    );
  });
});
