import { describe, expect, it } from "vitest";
import { counterDefaults, counterView, getCounterOptions } from "./counter/counter";
import { chartDefaults } from "./chart/options";
import { numberedName, optionsForData } from "./newVisualization";

const sales = {
  columns: [
    { name: "region", type: "string" },
    { name: "month", type: "date" },
    { name: "orders", type: "integer" },
    { name: "revenue", type: "float" },
  ],
  rows: [{ region: "EU", month: "2024-01-01", orders: 155, revenue: 1.5 }],
};

describe("optionsForData", () => {
  it("counts the first numeric column in a new counter", () => {
    const options = optionsForData("COUNTER", counterDefaults(), sales);
    expect(options.counterColName).toBe("orders");
    expect(counterView(sales, getCounterOptions(options), "Counter").valueText).toBe("155");
  });

  it("draws a new chart's first numeric column over its first date column", () => {
    expect(optionsForData("CHART", chartDefaults(), sales).columnMapping).toEqual({
      month: "x",
      orders: "y",
    });
    const noDates = { ...sales, columns: sales.columns.filter((c) => c.name !== "month") };
    expect(optionsForData("CHART", chartDefaults(), noDates).columnMapping).toEqual({
      region: "x",
      orders: "y",
    });
  });

  it("infers types the result does not give and leaves defaults without a fitting column", () => {
    const untyped = {
      columns: [
        { name: "day", type: null },
        { name: "n", type: null },
      ],
      rows: [{ day: "2024-01-01", n: 3 }],
    };
    expect(optionsForData("CHART", chartDefaults(), untyped).columnMapping).toEqual({
      day: "x",
      n: "y",
    });
    const text = { columns: [{ name: "name", type: "string" }], rows: [{ name: "a" }] };
    expect(optionsForData("CHART", chartDefaults(), text)).toEqual(chartDefaults());
    expect(optionsForData("COUNTER", counterDefaults(), text)).toEqual(counterDefaults());
  });
});

describe("numberedName", () => {
  it("numbers a name the query already has", () => {
    expect(numberedName("Chart", ["Table"])).toBe("Chart");
    expect(numberedName("Chart", ["Chart"])).toBe("Chart 2");
    expect(numberedName("Chart", ["Chart", "Chart 2", "Chart 4"])).toBe("Chart 3");
  });
});
