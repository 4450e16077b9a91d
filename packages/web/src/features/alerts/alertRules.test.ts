import { describe, expect, it } from "vitest";
import {
  COLUMN_TYPE_HINT,
  THRESHOLD_TYPE_HINT,
  alertName,
  canEditAlert,
  chooseColumn,
  defaultAlertName,
  rearmMode,
  rearmParts,
  rearmSeconds,
  rearmText,
  selectorLabel,
  selectorOf,
  thresholdHint,
  topRowValueText,
  thresholdValue,
  usesCustomTemplate,
  withoutMuted,
} from "./alertRules";

describe("alert form rules", () => {
  it("leaves the muted flag out of an edit's options, and the options given alone", () => {
    const options = { column: "n", op: ">", value: 1, muted: true };
    expect(withoutMuted(options)).toEqual({ column: "n", op: ">", value: 1 });
    expect(options.muted).toBe(true);
  });

  it("reads the first row unless the alert names min or max (reference §9.1)", () => {
    expect(selectorOf({})).toBe("first");
    expect(selectorOf({ selector: "min" })).toBe("min");
    expect(selectorOf({ selector: "max" })).toBe("max");
    expect(selectorLabel({})).toBe("First row");
    expect(selectorLabel({ selector: "max" })).toBe("Maximum");
  });

  it("builds the default name from query, column, operator and value", () => {
    expect(defaultAlertName(undefined, { op: ">", value: 1 })).toBe("New Alert");
    expect(defaultAlertName("Orders", { column: "count", op: ">=", value: 10 })).toBe(
      "Orders: count >= 10",
    );
    expect(alertName("  Mine  ", "Orders", { column: "n", op: ">", value: 1 })).toBe("Mine");
    expect(alertName("   ", "Orders", { column: "n", op: ">", value: 1 })).toBe("Orders: n > 1");
  });

  it("keeps the chosen column when the result has it, else takes the first", () => {
    expect(chooseColumn("b", ["a", "b"])).toBe("b");
    expect(chooseColumn("c", ["a", "b"])).toBe("a");
    expect(chooseColumn(undefined, ["a"])).toBe("a");
    expect(chooseColumn("a", [])).toBeUndefined();
  });

  it("hints at thresholds and values that ordering operators cannot compare", () => {
    expect(thresholdHint(">", "abc", 5)).toBe(THRESHOLD_TYPE_HINT);
    expect(thresholdHint("<=", 3, "text")).toBe(COLUMN_TYPE_HINT);
    expect(thresholdHint(">", "3", "4.5")).toBeNull();
    expect(thresholdHint(">", 3, undefined)).toBeNull();
    expect(thresholdHint("==", "abc", "text")).toBeNull();
    expect(thresholdHint("!=", "abc", 5)).toBeNull();
  });

  it("sends numeric thresholds as numbers", () => {
    expect(thresholdValue("12.5")).toBe(12.5);
    expect(thresholdValue("abc")).toBe("abc");
    expect(thresholdValue("")).toBe("");
    expect(thresholdValue(" 1.50 ")).toBe(1.5);
    expect(thresholdValue("1e3")).toBe(1000);
    expect(thresholdValue("-0.000125")).toBe(-0.000125);
    expect(thresholdValue("0x10")).toBe(16);
    expect(thresholdValue("9007199254740991")).toBe(9007199254740991);
    // More digits than a double keeps: sent as typed, not rounded.
    expect(thresholdValue("12345678901234567890")).toBe("12345678901234567890");
    expect(thresholdValue("9007199254740993")).toBe("9007199254740993");
    expect(thresholdValue("0.12345678901234567891")).toBe("0.12345678901234567891");
    // Not finite: sent as typed, for the server to refuse with its reason.
    expect(thresholdValue("1e400")).toBe("1e400");
  });

  it("reads rearm as once, each time or an interval in the largest whole unit", () => {
    expect(rearmMode(0)).toBe("once");
    expect(rearmMode(null)).toBe("once");
    expect(rearmMode(1)).toBe("each");
    expect(rearmMode(3600)).toBe("interval");
    expect(rearmParts(3600)).toEqual({ count: 1, unit: "hour" });
    expect(rearmParts(1209600)).toEqual({ count: 2, unit: "week" });
    expect(rearmParts(90)).toEqual({ count: 90, unit: "second" });
    expect(rearmSeconds(3, "day")).toBe(259200);
    expect(rearmText(7200)).toBe("At most every 2 hours");
    expect(rearmText(0)).toBe("Just once, until back to normal");
  });

  it("knows custom templates and who may edit", () => {
    expect(usesCustomTemplate({ custom_subject: "Hi" })).toBe(true);
    expect(usesCustomTemplate({ op: ">" })).toBe(false);
    expect(canEditAlert(2, { user: { id: 2 } }, false)).toBe(true);
    expect(canEditAlert(3, { user: { id: 2 } }, false)).toBe(false);
    expect(canEditAlert(3, { user: { id: 2 } }, true)).toBe(true);
  });
});

describe("topRowValueText", () => {
  it("shows the chosen column's value in the top row, or unknown", () => {
    expect(topRowValueText({ orders: 145, month: "Feb" }, "orders")).toBe("145");
    expect(topRowValueText({ ok: false }, "ok")).toBe("false");
    expect(topRowValueText({ orders: null }, "orders")).toBe("unknown");
    expect(topRowValueText({ orders: 1 }, "other")).toBe("unknown");
    expect(topRowValueText(undefined, "orders")).toBe("unknown");
    expect(topRowValueText({ orders: 1 }, undefined)).toBe("unknown");
  });
});
