import { describe, expect, it } from "vitest";
import {
  GEOJSON_ASPECT_SCALE,
  boundsLayout,
  cornersBox,
  extentOf,
  parseBounds,
  supportsBounds,
  toStoredBounds,
} from "./bounds";
import { getChoroplethOptions } from "./choropleth";

describe("choropleth bounds", () => {
  it("reads Redash's [[south, west], [north, east]] and nothing else", () => {
    expect(
      parseBounds([
        [35, -10],
        [60, 30],
      ]),
    ).toEqual({ south: 35, west: -10, north: 60, east: 30 });
    // Corners in either order, as Leaflet accepts them.
    expect(
      parseBounds([
        [60, 30],
        [35, -10],
      ]),
    ).toEqual({ south: 35, west: -10, north: 60, east: 30 });
    expect(parseBounds(undefined)).toBeNull();
    expect(parseBounds(null)).toBeNull();
    expect(
      parseBounds({ _southWest: { lat: 1, lng: 2 }, _northEast: { lat: 3, lng: 4 } }),
    ).toBeNull();
    expect(
      parseBounds([
        [35, "x"],
        [60, 30],
      ]),
    ).toBeNull();
    expect(
      parseBounds([
        [35, 10],
        [35, 30],
      ]),
    ).toBeNull(); // no area
  });

  it("keeps stored bounds through the options' defaults", () => {
    const o = getChoroplethOptions(
      {
        bounds: [
          [35, -10],
          [60, 30],
        ],
      },
      ["countries"],
    );
    expect(o.bounds).toEqual([
      [35, -10],
      [60, 30],
    ]);
    expect(getChoroplethOptions({}, ["countries"]).bounds).toBeUndefined();
  });

  it("lays the bounds out as the whole view, as large as they fit", () => {
    const box = { south: 35, west: -10, north: 60, east: 30 };
    const wide = { width: 900, height: 300 };
    const layout = boundsLayout(box, wide);
    expect(layout.boundingCoords).toEqual([
      [-10, 60],
      [30, 35],
    ]);
    expect(layout.layoutCenter).toEqual(["50%", "50%"]);
    // 40° × 0.75 wide and 25° tall: taller than the 3:1 area allows, so the height fills it.
    const aspect = (40 * GEOJSON_ASPECT_SCALE) / 25;
    expect(layout.layoutSize).toBeCloseTo(300 * aspect, 9);
    const tall = boundsLayout(box, { width: 300, height: 900 });
    expect(tall.layoutSize).toBeCloseTo(300, 9);
    const narrow = boundsLayout(
      { south: 0, west: 0, north: 60, east: 10 },
      { width: 900, height: 300 },
    );
    expect(narrow.layoutSize).toBe(300); // the longer side is the height
  });

  it("saves the panned view in the stored shape", () => {
    const box = cornersBox([-20.1234567, 70.5], [40, 30])!;
    expect(toStoredBounds(box)).toEqual([
      [30, -20.123457],
      [70.5, 40],
    ]);
    expect(cornersBox([Number.NaN, 1], [2, 3])).toBeNull();
  });

  it("applies to the countries map only: USA and Japan have no latitudes to show", () => {
    expect(supportsBounds("countries")).toBe(true);
    expect(supportsBounds("usa")).toBe(false);
    expect(supportsBounds("subdiv_japan")).toBe(false);
    expect(supportsBounds("nope")).toBe(false);
  });

  it("measures a map's extent for the empty fields", () => {
    const extent = extentOf([
      {
        geometry: {
          type: "Polygon",
          coordinates: [
            [
              [-10.004, 35],
              [30.001, 35],
              [30, 60.5],
              [-10, 35],
            ],
          ],
        },
      },
      {
        geometry: {
          type: "MultiPolygon",
          coordinates: [
            [
              [
                [100, -5],
                [101, -5],
                [100, -4],
                [100, -5],
              ],
            ],
          ],
        },
      },
      { geometry: null },
    ]);
    expect(extent).toEqual({ south: -5, west: -10.01, north: 60.5, east: 101 });
    expect(extentOf([])).toBeNull();
  });
});
