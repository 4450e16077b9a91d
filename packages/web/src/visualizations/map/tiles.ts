// Raster map tiles (Web Mercator, the slippy-map {z}/{x}/{y} scheme) under the MAP markers.
// Tiles are plain images: when the server cannot be reached they simply do not draw, and the
// bundled world outline beneath them stays visible.
import { DEFAULT_TILE_URL } from "./markers";

export interface Tile {
  z: number;
  x: number;
  y: number;
  url: string;
  west: number;
  east: number;
  north: number;
  south: number;
}

export interface Viewport {
  west: number;
  east: number;
  north: number;
  south: number;
  /** Width of the drawing area, CSS pixels. */
  widthPx: number;
}

const TILE_PX = 256;
const MAX_ZOOM = 18;
const MAX_LAT = 85.0511287798;

/**
 * The tile template to draw: Redash's default (stored or filled in) stands for the host's
 * default tile server, which may be another server or none; any other stored URL is used as is.
 */
export function resolveTileUrl(
  stored: string,
  hostDefault: string | null | undefined,
): string | null {
  const url = stored === DEFAULT_TILE_URL || !stored ? (hostDefault ?? "") : stored;
  return url.trim() ? url.trim() : null;
}

/** Fills a Leaflet-style template; a protocol-relative URL takes the page's protocol. */
export function fillTemplate(
  template: string,
  z: number,
  x: number,
  y: number,
  protocol: string,
): string {
  const url = template
    .replace(/\{s\}/g, "abc"[(x + y) % 3]!)
    .replace(/\{z\}/g, String(z))
    .replace(/\{x\}/g, String(x))
    .replace(/\{y\}/g, String(y))
    .replace(/\{r\}/g, "");
  return url.startsWith("//") ? `${protocol}${url}` : url;
}

export function lonToTileX(lon: number, z: number): number {
  return ((lon + 180) / 360) * 2 ** z;
}

export function latToTileY(lat: number, z: number): number {
  const r = (Math.max(-MAX_LAT, Math.min(MAX_LAT, lat)) * Math.PI) / 180;
  return ((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * 2 ** z;
}

export function tileYToLat(y: number, z: number): number {
  return (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / 2 ** z))) * 180) / Math.PI;
}

/** The zoom at which tiles show near their natural 256 px for this view. */
export function zoomFor(view: Viewport): number {
  const span = Math.max(1e-6, Math.min(360, view.east - view.west));
  const worldPx = (view.widthPx * 360) / span;
  return Math.max(0, Math.min(MAX_ZOOM, Math.round(Math.log2(worldPx / TILE_PX))));
}

/** Tiles covering the view, at most `max` (the zoom steps down until they fit). */
export function visibleTiles(view: Viewport, template: string, protocol: string, max = 64): Tile[] {
  for (let z = zoomFor(view); z >= 0; z--) {
    const n = 2 ** z;
    const clampX = (v: number) => Math.max(0, Math.min(n - 1, Math.floor(v)));
    const x0 = clampX(lonToTileX(Math.max(-180, view.west), z));
    const x1 = clampX(lonToTileX(Math.min(180, view.east), z));
    const y0 = clampX(latToTileY(view.north, z));
    const y1 = clampX(latToTileY(view.south, z));
    if ((x1 - x0 + 1) * (y1 - y0 + 1) > max) continue;
    const tiles: Tile[] = [];
    for (let x = x0; x <= x1; x++) {
      for (let y = y0; y <= y1; y++) {
        tiles.push({
          z,
          x,
          y,
          url: fillTemplate(template, z, x, y, protocol),
          west: (x / n) * 360 - 180,
          east: ((x + 1) / n) * 360 - 180,
          north: tileYToLat(y, z),
          south: tileYToLat(y + 1, z),
        });
      }
    }
    return tiles;
  }
  return [];
}

/** Credit line for the tile source (OpenStreetMap's licence asks for it). */
export function tileAttribution(template: string): string {
  if (/openstreetmap/i.test(template)) return "© OpenStreetMap contributors";
  const host = /^(?:[a-z]+:)?\/\/([^/]+)/i.exec(template)?.[1];
  return host ? `Tiles: ${host.replace("{s}.", "")}` : "";
}
