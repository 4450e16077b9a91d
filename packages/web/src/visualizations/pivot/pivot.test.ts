import { describe, expect, it } from "vitest";
import { getPivotOptions, pivot, pivotInput, pivotRecords, pivotToTsv } from "./pivot";

const records = [
  { region: "EU", year: "2023", sales: "10", cost: "5" },
  { region: "EU", year: "2024", sales: "20", cost: "5" },
  { region: "US", year: "2023", sales: "30", cost: "10" },
  { region: "US", year: "2023", sales: "40", cost: "10" },
];
const base = {
  rows: ["region"],
  cols: ["year"],
  vals: ["sales"],
  aggregatorName: "Count",
  valueFilter: {},
  rowOrder: "key_a_to_z",
  colOrder: "key_a_to_z",
};

describe("pivot", () => {
  it("keeps the inverted controls flag and library keys", () => {
    const o = getPivotOptions({ controls: { enabled: true }, menuLimit: 10, extra: 1 });
    expect(o.controls.enabled).toBe(true);
    expect(o.menuLimit).toBe(10);
    expect(o.extra).toBe(1);
    expect(o.rendererOptions.table.rowTotals).toBe(true);
  });
  it("counts by rows and columns with totals", () => {
    const p = pivot(records, base);
    expect(p.rowKeys).toEqual([["EU"], ["US"]]);
    expect(p.colKeys).toEqual([["2023"], ["2024"]]);
    expect(p.value(["US"], ["2023"])).toBe(2);
    expect(p.value(["US"], ["2024"])).toBeNull();
    expect(p.rowTotal(["EU"])).toBe(2);
    expect(p.grandTotal()).toBe(4);
  });
  it("sums, averages, takes medians and ratios", () => {
    expect(pivot(records, { ...base, aggregatorName: "Sum" }).value(["US"], ["2023"])).toBe(70);
    expect(pivot(records, { ...base, aggregatorName: "Average" }).rowTotal(["US"])).toBe(35);
    expect(pivot(records, { ...base, aggregatorName: "Median" }).grandTotal()).toBe(25);
    expect(
      pivot(records, {
        ...base,
        aggregatorName: "Sum over Sum",
        vals: ["sales", "cost"],
      }).grandTotal(),
    ).toBe(100 / 30);
    expect(
      pivot(records, {
        ...base,
        aggregatorName: "Count Unique Values",
        vals: ["cost"],
      }).grandTotal(),
    ).toBe(2);
    expect(
      pivot(records, { ...base, aggregatorName: "Sample Standard Deviation" }).rowTotal(["EU"]),
    ).toBeCloseTo(Math.sqrt(50));
  });
  it("computes fractions of the total, rows and columns", () => {
    const total = pivot(records, { ...base, aggregatorName: "Sum as Fraction of Total" });
    expect(total.value(["US"], ["2023"])).toBe(0.7);
    expect(total.format(0.7)).toBe("70.0%");
    const rows = pivot(records, { ...base, aggregatorName: "Count as Fraction of Rows" });
    expect(rows.value(["EU"], ["2024"])).toBe(0.5);
    expect(rows.rowTotal(["EU"])).toBe(1);
  });
  it("excludes values listed in valueFilter and sorts by value", () => {
    const p = pivot(records, { ...base, valueFilter: { year: { "2024": true } } });
    expect(p.colKeys).toEqual([["2023"]]);
    const byValue = pivot(records, { ...base, aggregatorName: "Sum", rowOrder: "value_z_to_a" });
    expect(byValue.rowKeys).toEqual([["US"], ["EU"]]);
  });
  it("formats dates and booleans in records and exports TSV", () => {
    const recs = pivotRecords(
      {
        columns: [
          { name: "d", type: "date" },
          { name: "b", type: "boolean" },
          { name: "n", type: null },
        ],
        rows: [{ d: new Date(Date.UTC(2024, 1, 3)), b: true, n: null }],
      },
      { dateFormat: "DD/MM/YYYY", dateTimeFormat: "DD/MM/YYYY HH:mm" },
    );
    expect(recs[0]).toEqual({ d: "03/02/2024", b: "true", n: "null" });
    expect(pivotToTsv(pivot(records, base), base).split("\n")[1]).toBe("EU\t1\t1");
  });
});

describe("pivot of dates and whole numbers", () => {
  const data = {
    columns: [
      { name: "day", type: "date" },
      { name: "region", type: "string" },
      { name: "units", type: "integer" },
      { name: "amount", type: "float" },
    ],
    rows: [
      { day: "2024-01-02", region: "EU", units: 3, amount: 1.25 },
      { day: "2023-12-31", region: "EU", units: 4, amount: 2 },
      { day: "2024-02-01", region: "US", units: 5, amount: 3 },
      { day: null, region: "US", units: 1, amount: 1 },
    ],
  };
  const formats = { dateFormat: "DD/MM/YYYY", dateTimeFormat: "DD/MM/YYYY HH:mm" };
  const options = {
    rows: ["day"],
    cols: ["region"],
    vals: ["units"],
    aggregatorName: "Sum",
    valueFilter: {},
    rowOrder: "key_a_to_z",
    colOrder: "key_a_to_z",
  };

  it("orders rows and columns of dates by date, not by the shown text", () => {
    const { records, order } = pivotInput(data, formats);
    expect(pivot(records, options, order).rowKeys).toEqual([
      ["31/12/2023"],
      ["02/01/2024"],
      ["01/02/2024"],
      ["null"],
    ]);
    const byColumn = pivot(records, { ...options, rows: ["region"], cols: ["day"] }, order);
    expect(byColumn.colKeys.map((k) => k[0])).toEqual([
      "31/12/2023",
      "02/01/2024",
      "01/02/2024",
      "null",
    ]);
  });

  it("shows sums of whole numbers without decimals, and of fractions with them", () => {
    const { records, order } = pivotInput(data, formats);
    const units = pivot(records, options, order);
    expect(units.format(units.grandTotal())).toBe("13");
    const amounts = pivot(records, { ...options, vals: ["amount"] }, order);
    expect(amounts.format(amounts.grandTotal())).toBe("7.25");
    expect(amounts.format(amounts.rowTotal(["31/12/2023"]))).toBe("2.00");
    const big = pivot([{ day: "x", region: "EU", units: "12000" }], {
      ...options,
      rows: ["region"],
      cols: [],
    });
    expect(big.format(big.grandTotal())).toBe("12,000");
  });
});
