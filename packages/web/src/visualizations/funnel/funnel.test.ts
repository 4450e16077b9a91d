import { describe, expect, it } from "vitest";
import { buildFunnel, formatFunnelPercent, getFunnelOptions } from "./funnel";

const data = {
  columns: [
    { name: "step", type: "string" },
    { name: "n", type: "integer" },
    { name: "ord", type: "integer" },
  ],
  rows: [
    { step: "Visit", n: 1000, ord: 1 },
    { step: "Buy", n: 100, ord: 3 },
    { step: "Cart", n: 400, ord: 2 },
    { step: "Bad", n: "x", ord: 4 },
  ],
};

describe("funnel", () => {
  it("clears column names missing from the result", () => {
    const o = getFunnelOptions({ stepCol: { colName: "gone" }, valueCol: { colName: "n" } }, data);
    expect(o.stepCol.colName).toBeNull();
    expect(o.stepCol.displayAs).toBe("Steps");
    expect(buildFunnel(data, o, "")).toEqual([]);
  });
  it("sorts by value and computes % max and % previous before the limit", () => {
    const o = getFunnelOptions(
      { stepCol: { colName: "step" }, valueCol: { colName: "n" }, itemsLimit: 3 },
      data,
    );
    const steps = buildFunnel(data, o, "");
    expect(steps.map((s) => s.step)).toEqual(["Visit", "Cart", "Buy"]);
    expect(steps.map((s) => s.pctMax)).toEqual([100, 40, 10]);
    expect(steps.map((s) => s.pctPrevious)).toEqual([100, 40, 25]);
  });
  it("supports custom sorting and treats invalid values as 0", () => {
    const o = getFunnelOptions(
      {
        stepCol: { colName: "step" },
        valueCol: { colName: "n" },
        autoSort: false,
        sortKeyCol: { colName: "ord", reverse: true },
      },
      data,
    );
    const steps = buildFunnel(data, o, "");
    expect(steps.map((s) => s.step)).toEqual(["Bad", "Buy", "Cart", "Visit"]);
    expect(steps[0].value).toBe(0);
  });
  it("shows percentages outside the range as <min or >max", () => {
    const o = getFunnelOptions({}, data);
    expect(formatFunnelPercent(0.001, o, String)).toBe("<0.01");
    expect(formatFunnelPercent(5000, o, String)).toBe(">1000");
    expect(formatFunnelPercent(50, o, String)).toBe("50");
  });
});
