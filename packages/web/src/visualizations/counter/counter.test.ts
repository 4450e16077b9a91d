import { describe, expect, it } from "vitest";
import { counterView, getCounterOptions, rowIndex } from "./counter";

const data = {
  columns: [
    { name: "counter", type: "float" },
    { name: "target", type: "float" },
  ],
  rows: [
    { counter: 1234.567, target: 1000 },
    { counter: 5, target: 10 },
    { counter: "n/a", target: null },
  ],
};

describe("counter", () => {
  it("rounds to integers by default (the Redash quirk)", () => {
    const v = counterView(data, getCounterOptions({}), "Name");
    expect(v.valueText).toBe("1,235");
    expect(v.label).toBe("Name");
    expect(v.tooltip).toBe("1,234.567");
  });
  it("uses decimals, separators, prefix and suffix", () => {
    const v = counterView(
      data,
      getCounterOptions({
        stringDecimal: 2,
        stringDecChar: ",",
        stringThouSep: " ",
        stringPrefix: "$",
        stringSuffix: "!",
      }),
      "x",
    );
    expect(v.valueText).toBe("$1 234,57!");
  });
  it("counts rows from the top, from the bottom and wraps", () => {
    expect(rowIndex(1, 3)).toBe(0);
    expect(rowIndex(0, 3)).toBe(0);
    expect(rowIndex(-1, 3)).toBe(2);
    expect(rowIndex(4, 3)).toBe(0);
    expect(counterView(data, getCounterOptions({ rowNumber: -1 }), "x").valueText).toBe("n/a");
  });
  it("compares with the target and formats it", () => {
    const v = counterView(data, getCounterOptions({ targetColName: "target" }), "x");
    expect(v.trend).toBe("positive");
    expect(v.targetText).toBe("1000");
    const below = counterView(
      data,
      getCounterOptions({
        targetColName: "target",
        rowNumber: 2,
        targetRowNumber: 2,
        formatTargetValue: true,
      }),
      "x",
    );
    expect(below.trend).toBe("negative");
    expect(below.targetText).toBe("10");
  });
  it("counts rows and handles empty data and missing columns", () => {
    expect(
      counterView({ columns: [], rows: [] }, getCounterOptions({ countRow: true }), "x").valueText,
    ).toBe("0");
    expect(counterView({ columns: [], rows: [] }, getCounterOptions({}), "x").empty).toBe(true);
    expect(
      counterView(
        { columns: [{ name: "a", type: null }], rows: [{ a: 1 }] },
        getCounterOptions({}),
        "x",
      ).notices[0],
    ).toContain("counter");
  });
  it("keeps unknown keys (shallow spread)", () => {
    expect(getCounterOptions({ foo: 1 }).foo).toBe(1);
  });
});
