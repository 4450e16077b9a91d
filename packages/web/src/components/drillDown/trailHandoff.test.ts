// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from "vitest";
import { HANDOFF_MS, handedOffTrail, handOffTrail } from "./trailHandoff";

const trail = [{ title: "Sales overview", path: "/dashboards/1-sales?p_year=2026" }];

describe("a drill-down trail handed to a new tab", () => {
  beforeEach(() => localStorage.clear());

  it("is found by the address it was left for, however that address is encoded", () => {
    handOffTrail("/dashboards/2-detail?p_country=New Zealand", trail, 1000);
    expect(handedOffTrail("/dashboards/2-detail?p_country=New%20Zealand", 1500)).toEqual(trail);
    expect(handedOffTrail("/dashboards/2-detail?p_country=FR", 1500)).toBeNull();
    // Two tabs opened on the same address both find it.
    expect(handedOffTrail("/dashboards/2-detail?p_country=New%20Zealand", 2000)).toEqual(trail);
  });

  it("waits only half a minute, and the next hand-off drops stale ones", () => {
    handOffTrail("/queries/5?p_a=1", trail, 1000);
    expect(handedOffTrail("/queries/5?p_a=1", 1000 + HANDOFF_MS)).toBeNull();
    handOffTrail("/queries/6", trail, 1000 + HANDOFF_MS);
    expect(JSON.parse(localStorage.getItem("sightline.drillDownTrails")!)).toHaveLength(1);
  });

  it("reads nothing from storage it did not write: bad JSON, foreign paths, no crumbs", () => {
    localStorage.setItem("sightline.drillDownTrails", "{not json");
    expect(handedOffTrail("/queries/5", 1000)).toBeNull();
    localStorage.setItem(
      "sightline.drillDownTrails",
      JSON.stringify([
        { path: "/queries/5", at: 1000, trail: [{ title: "Evil", path: "https://evil.example" }] },
        { path: "/queries/6", at: 1000, trail: [] },
        { path: "/queries/7", at: "soon", trail },
      ]),
    );
    expect(handedOffTrail("/queries/5", 1000)).toBeNull();
    expect(handedOffTrail("/queries/6", 1000)).toBeNull();
    expect(handedOffTrail("/queries/7", 1000)).toBeNull();
  });
});
