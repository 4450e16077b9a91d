import { describe, expect, it } from "vitest";
import { MAPS, US_STATES, unwrapRing } from "./geo";

describe("bundled USA map", () => {
  it("gives every us-atlas state its USPS abbreviation and 8-digit ANSI code", async () => {
    const geo = (await MAPS.find((m) => m.key === "usa")!.load())!;
    expect(geo.features).toHaveLength(51); // 50 states and DC
    for (const f of geo.features) {
      expect(f.properties.fips_code).toMatch(/^\d{2}$/);
      expect(f.properties.usps_abbrev, f.properties.name).toMatch(/^[A-Z]{2}$/);
      expect(f.properties.ns_code, f.properties.name).toMatch(/^\d{8}$/);
    }
    const byName = new Map(geo.features.map((f) => [f.properties.name, f.properties]));
    expect(byName.get("California")).toMatchObject({
      fips_code: "06",
      geoid: "06",
      usps_abbrev: "CA",
      ns_code: "01779778",
    });
    expect(byName.get("District of Columbia")).toMatchObject({
      usps_abbrev: "DC",
      ns_code: "01702382",
    });
  });

  it("has no code twice", () => {
    const ns = Object.values(US_STATES).map((s) => s.ns);
    const usps = Object.values(US_STATES).map((s) => s.usps);
    expect(new Set(ns).size).toBe(ns.length);
    expect(new Set(usps).size).toBe(usps.length);
  });
});

describe("bundled world map", () => {
  it("leaves no ring crossing the map from one side to the other", async () => {
    const geo = (await MAPS.find((m) => m.key === "countries")!.load())!;
    for (const f of geo.features) {
      const g = f.geometry;
      const polygons =
        g.type === "Polygon" ? [g.coordinates] : g.type === "MultiPolygon" ? g.coordinates : [];
      for (const ring of polygons.flat()) {
        for (let k = 1; k < ring.length; k++)
          // (Along a pole the edge is the map's top or bottom border.)
          if (Math.abs(ring[k]![1]!) !== 90)
            expect(
              Math.abs(ring[k]![0]! - ring[k - 1]![0]!),
              f.properties.name,
            ).toBeLessThanOrEqual(180);
      }
    }
  });

  it("closes a ring round the pole along the pole", () => {
    const ring = unwrapRing([
      [170, -70],
      [179, -72],
      [-179, -72],
      [-170, -70],
      [0, -75],
      [170, -70],
    ]);
    expect(ring).toContainEqual([180, -90]);
    expect(ring).toContainEqual([-180, -90]);
  });
});
