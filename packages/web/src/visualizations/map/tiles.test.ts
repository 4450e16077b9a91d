import { describe, expect, it } from "vitest";
import { DEFAULT_TILE_URL } from "./markers";
import {
  fillTemplate,
  latToTileY,
  resolveTileUrl,
  tileAttribution,
  tileYToLat,
  visibleTiles,
  zoomFor,
} from "./tiles";

describe("map tiles", () => {
  it("lets the host replace or turn off Redash's default tile server", () => {
    expect(resolveTileUrl(DEFAULT_TILE_URL, DEFAULT_TILE_URL)).toBe(DEFAULT_TILE_URL);
    expect(resolveTileUrl(DEFAULT_TILE_URL, "https://tiles.example/{z}/{x}/{y}.png")).toBe(
      "https://tiles.example/{z}/{x}/{y}.png",
    );
    expect(resolveTileUrl(DEFAULT_TILE_URL, "")).toBeNull();
    expect(resolveTileUrl("", null)).toBeNull();
    // A server chosen in the editor is kept.
    expect(resolveTileUrl("//{s}.tile.opentopomap.org/{z}/{x}/{y}.png", "")).toBe(
      "//{s}.tile.opentopomap.org/{z}/{x}/{y}.png",
    );
  });

  it("fills Leaflet templates", () => {
    expect(fillTemplate(DEFAULT_TILE_URL, 3, 4, 2, "https:")).toBe(
      "https://a.tile.openstreetmap.org/3/4/2.png",
    );
    expect(fillTemplate("http://h/x={x}&y={y}&z={z}{r}", 1, 1, 0, "https:")).toBe(
      "http://h/x=1&y=0&z=1",
    );
  });

  it("converts between latitude and Web Mercator tile rows", () => {
    expect(latToTileY(0, 1)).toBeCloseTo(1);
    expect(latToTileY(85.0511287798, 0)).toBeCloseTo(0);
    expect(tileYToLat(0, 0)).toBeCloseTo(85.0511, 3);
    expect(tileYToLat(latToTileY(51.5, 7), 7)).toBeCloseTo(51.5);
  });

  it("covers the view at a zoom near 256 px per tile, within a tile budget", () => {
    const world = { west: -180, east: 180, north: 85, south: -85, widthPx: 1024 };
    expect(zoomFor(world)).toBe(2);
    const tiles = visibleTiles(world, "https://t/{z}/{x}/{y}.png", "https:");
    expect(tiles).toHaveLength(16);
    expect(tiles[0]).toMatchObject({ z: 2, x: 0, y: 0, url: "https://t/2/0/0.png", west: -180 });
    const europe = { west: -10, east: 30, north: 60, south: 35, widthPx: 1200 };
    const few = visibleTiles(europe, "https://t/{z}/{x}/{y}.png", "https:", 6);
    expect(few.length).toBeLessThanOrEqual(6);
    expect(few.length).toBeGreaterThan(0);
  });

  it("credits the tile source", () => {
    expect(tileAttribution(DEFAULT_TILE_URL)).toBe("© OpenStreetMap contributors");
    expect(tileAttribution("https://{s}.tiles.example.com/{z}/{x}/{y}.png")).toBe(
      "Tiles: tiles.example.com",
    );
  });
});
