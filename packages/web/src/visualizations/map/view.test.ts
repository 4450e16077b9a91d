import { describe, expect, it } from "vitest";
import { mercator } from "../lib/geo";
import { getMapOptions } from "./markers";
import {
  fitView,
  fromLeafletBounds,
  pointsBox,
  sameBounds,
  toLeafletBounds,
  viewBox,
  worldLayoutSize,
} from "./view";

const AREA = { width: 800, height: 400 };
const EUROPE = { _southWest: { lat: 34, lng: -12 }, _northEast: { lat: 61, lng: 25 } };

describe("marker map view", () => {
  it("shows saved bounds whole, filling the drawing area in one direction", () => {
    const box = fromLeafletBounds(EUROPE);
    const shown = viewBox(fitView(box, AREA), AREA);
    expect(shown.west).toBeLessThanOrEqual(box.west + 1e-9);
    expect(shown.east).toBeGreaterThanOrEqual(box.east - 1e-9);
    expect(shown.south).toBeLessThanOrEqual(box.south + 1e-9);
    expect(shown.north).toBeGreaterThanOrEqual(box.north - 1e-9);
    // Tight: Europe is taller than the wide area allows, so latitudes fit exactly.
    expect(shown.north).toBeCloseTo(61, 6);
    expect(shown.south).toBeCloseTo(34, 6);
    expect(shown.east - shown.west).toBeGreaterThan(37);
    // Centred on the box in Mercator.
    const mid = (mercator.project([0, 34])[1]! + mercator.project([0, 61])[1]!) / 2;
    expect(fitView(box, AREA).center[1]).toBeCloseTo(mid, 9);
  });

  it("saves the view it shows, and draws the saved view the same again", () => {
    const moved = { center: [0.4, -0.9], zoom: 5.3 };
    const saved = toLeafletBounds(viewBox(moved, AREA));
    expect(Object.keys(saved)).toEqual(["_southWest", "_northEast"]);
    expect(saved._southWest.lat).toBeLessThan(saved._northEast.lat);
    expect(saved._southWest.lng).toBeLessThan(saved._northEast.lng);
    // The stored shape is what getMapOptions accepts (Redash's Leaflet bounds).
    expect(getMapOptions({ bounds: saved }).bounds).toEqual(saved);
    const again = fitView(fromLeafletBounds(saved), AREA);
    expect(again.zoom).toBeCloseTo(moved.zoom, 4);
    expect(again.center[0]).toBeCloseTo(moved.center[0]!, 6);
    expect(again.center[1]).toBeCloseTo(moved.center[1]!, 6);
  });

  it("brings back a view that reaches past the drawn world (beyond 85°)", () => {
    const moved = { center: [-0.3, -2.6], zoom: 1.7 };
    const shown = viewBox(moved, AREA);
    expect(shown.north).toBeGreaterThan(85);
    const again = fitView(fromLeafletBounds(toLeafletBounds(shown)), AREA);
    expect(again.zoom).toBeCloseTo(moved.zoom, 4);
    expect(again.center[1]).toBeCloseTo(moved.center[1]!, 5);
  });

  it("puts the world in the area at zoom 1", () => {
    const world = viewBox({ center: [0, 0], zoom: 1 }, { width: 600, height: 600 });
    expect(world.west).toBeCloseTo(-180, 0);
    expect(world.east).toBeCloseTo(180, 0);
    expect(worldLayoutSize({ width: 800, height: 400 })).toBeCloseTo(
      (400 * (2 * Math.PI)) / (2 * mercator.project([0, -85])[1]!),
      6,
    );
  });

  it("fits the markers with a margin, and one marker at the closest zoom", () => {
    const box = pointsBox([
      { lat: 40.71, lon: -74.01 },
      { lat: 47.61, lon: -122.33 },
      { lat: 30.27, lon: -97.74 },
    ])!;
    const shown = viewBox(fitView(box, AREA, { fill: 0.8 }), AREA);
    expect(shown.west).toBeLessThan(-122.33);
    expect(shown.east).toBeGreaterThan(-74.01);
    expect(pointsBox([])).toBeNull();
    const one = fitView({ south: 10, north: 10, west: 20, east: 20 }, AREA, { maxZoom: 40 });
    expect(one.zoom).toBe(40);
  });

  it("compares bounds by value", () => {
    expect(sameBounds(EUROPE, structuredClone(EUROPE))).toBe(true);
    expect(sameBounds(EUROPE, null)).toBe(false);
    expect(sameBounds(null, null)).toBe(true);
  });
});
