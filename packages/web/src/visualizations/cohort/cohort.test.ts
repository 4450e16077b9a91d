import { describe, expect, it } from "vitest";
import { buildCohort, colorStep, getCohortOptions } from "./cohort";

const columns = ["date", "day_number", "total", "value"].map((name) => ({ name, type: null }));
const d = (day: number) => new Date(Date.UTC(2024, 0, day));

describe("cohort", () => {
  const rows = [
    { date: d(1), day_number: 0, total: 100, value: 100 },
    { date: d(1), day_number: 1, total: 100, value: 40 },
    { date: d(1), day_number: 2, total: 100, value: 20 },
    { date: d(3), day_number: 0, total: 50, value: 50 },
  ];
  it("builds a diagonal triangle with missing buckets and zero-filled gaps", () => {
    const c = buildCohort({ columns, rows }, getCohortOptions({}));
    expect(c.rows.map((r) => r.label)).toEqual([
      "January 1, 2024",
      "January 2, 2024",
      "January 3, 2024",
    ]);
    expect(c.rows[0].values).toEqual([100, 40, 20]);
    expect(c.rows[1]).toMatchObject({ total: 0, values: [0, 0, undefined] });
    expect(c.rows[2].values).toEqual([50, undefined, undefined]);
  });
  it("shows data as is in simple mode", () => {
    const c = buildCohort({ columns, rows }, getCohortOptions({ mode: "simple" }));
    expect(c.rows[2].values).toEqual([50, null, null]);
  });
  it("labels weekly and monthly buckets", () => {
    expect(
      buildCohort({ columns, rows }, getCohortOptions({ timeInterval: "weekly" })).rows[0].label,
    ).toBe("Week of Jan 1, 2024");
    expect(
      buildCohort({ columns, rows }, getCohortOptions({ timeInterval: "monthly" })).rows[0].label,
    ).toBe("January 2024");
  });
  it("reports missing columns instead of failing", () => {
    const c = buildCohort({ columns: columns.slice(0, 2), rows }, getCohortOptions({}));
    expect(c.rows).toEqual([]);
    expect(c.notices[0]).toContain("total");
  });
  it("splits 0-100 % into colour steps", () => {
    expect(colorStep(0, 7)).toBe(0);
    expect(colorStep(100, 7)).toBe(6);
    expect(colorStep(50, 4)).toBe(2);
  });
});
