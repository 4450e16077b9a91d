import { describe, expect, it } from "vitest";
import {
  DRILL_DOWN_TRAIL_MAX,
  crumbTitle,
  drillDownBackState,
  drillDownTrailState,
  readDrillDownTrail,
} from "./drillDownTrail";

const sales = { title: "Sales overview", path: "/dashboards/1-sales?p_year=2024" };
const region = { title: "Region detail", path: "/dashboards/2-region?p_region=EU" };

describe("readDrillDownTrail", () => {
  it.each([null, undefined, "x", 3, {}, { drillDownTrail: "x" }, { drillDownTrail: {} }])(
    "is none for %j",
    (state) => expect(readDrillDownTrail(state)).toBeNull(),
  );

  it("is an empty trail for an empty list", () => {
    expect(readDrillDownTrail({ drillDownTrail: [] })).toEqual([]);
  });

  it("keeps crumbs with app paths only, in order", () => {
    const state = {
      key: "abc",
      drillDownTrail: [
        sales,
        { title: "Evil", path: "https://evil.example/" },
        { title: "Evil", path: "//evil.example/" },
        { title: "Evil", path: "/\\evil.example/" },
        { title: "Relative", path: "queries/1" },
        null,
        { title: 5, path: "/queries/3" },
        region,
      ],
    };
    expect(readDrillDownTrail(state)).toEqual([
      sales,
      { title: "/queries/3", path: "/queries/3" },
      region,
    ]);
  });
});

describe("drillDownTrailState", () => {
  it("starts a trail from a page reached without one", () => {
    expect(drillDownTrailState(null, sales)).toEqual({ drillDownTrail: [sales] });
    expect(drillDownTrailState({ other: 1 }, sales)).toEqual({ drillDownTrail: [sales] });
  });

  it("adds the page left to the trail it was reached with", () => {
    expect(drillDownTrailState({ drillDownTrail: [sales] }, region)).toEqual({
      drillDownTrail: [sales, region],
    });
  });

  it("keeps the latest pages of a long trail", () => {
    let state: unknown = null;
    for (let i = 0; i < DRILL_DOWN_TRAIL_MAX + 3; i++)
      state = drillDownTrailState(state, { title: `P${i}`, path: `/queries/${i}` });
    const trail = readDrillDownTrail(state) ?? [];
    expect(trail).toHaveLength(DRILL_DOWN_TRAIL_MAX);
    expect(trail[0].title).toBe("P3");
    expect(trail.at(-1)?.title).toBe(`P${DRILL_DOWN_TRAIL_MAX + 2}`);
  });
});

describe("drillDownBackState", () => {
  it("keeps the crumbs before the one gone back to", () => {
    expect(drillDownBackState([sales, region], 1)).toEqual({ drillDownTrail: [sales] });
    expect(drillDownBackState([sales, region], 0)).toEqual({ drillDownTrail: [] });
  });
});

describe("crumbTitle", () => {
  it("drops the product name from the tab title", () => {
    expect(crumbTitle("Sales overview | Sightline", "Sightline")).toBe("Sales overview");
    expect(crumbTitle("Sightline", "Sightline")).toBe("Sightline");
    expect(crumbTitle("A | B", "Sightline")).toBe("A | B");
  });
});
