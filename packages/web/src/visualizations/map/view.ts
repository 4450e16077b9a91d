// The MAP view on the ECharts geo component, in Web Mercator: the layout that puts the world at
// zoom 1, the centre and zoom that fit a latitude/longitude box (saved bounds or the markers),
// and the Leaflet-shaped bounds Redash saves for the view the user moved to.
import { mercator } from "../lib/geo";
import type { MapOptions } from "./markers";

export type LeafletBounds = NonNullable<MapOptions["bounds"]>;

export interface LatLngBox {
  south: number;
  west: number;
  north: number;
  east: number;
}

export interface GeoView {
  /** Projected (Web Mercator) units, as the geo component takes its centre with a projection. */
  center: number[];
  zoom: number;
}

export interface Size {
  width: number;
  height: number;
}

/** The box the geo component lays out at zoom 1 (its `boundingCoords`): the Mercator world. */
export const WORLD_COORDS: number[][] = [
  [-180, 85],
  [180, -85],
];

/**
 * Web Mercator as the outline is drawn (lib/geo's `mercator`), but without its clamp at 85°: a
 * view may reach beyond the drawn world (Leaflet's may too), and must come back the same.
 */
function project([lon, lat]: number[]): [number, number] {
  const phi = (Math.max(-89.9, Math.min(89.9, lat!)) * Math.PI) / 180;
  return [(lon! / 180) * Math.PI, -Math.log(Math.tan(Math.PI / 4 + phi / 2))];
}

const [worldLeft, worldTop] = project(WORLD_COORDS[0]!);
const [worldRight, worldBottom] = project(WORLD_COORDS[1]!);
const WORLD_WIDTH = worldRight - worldLeft;
const WORLD_HEIGHT = worldBottom - worldTop;

/**
 * The geo component's `layoutSize` in pixels (with `layoutCenter` at the middle): the world
 * contained in the drawing area. ECharts gives this size to the longer side of the world box.
 */
export function worldLayoutSize(size: Size): number {
  const aspect = WORLD_WIDTH / WORLD_HEIGHT;
  const longer =
    aspect >= 1
      ? Math.min(size.width, size.height * aspect)
      : Math.min(size.height, size.width / aspect);
  return Math.max(1, longer);
}

/** Pixels per projected unit at zoom 1. */
function unitPixels(size: Size): number {
  const aspect = WORLD_WIDTH / WORLD_HEIGHT;
  return worldLayoutSize(size) / (aspect >= 1 ? WORLD_WIDTH : WORLD_HEIGHT);
}

/**
 * Centre and zoom that show the whole box as large as it fits (Leaflet's fitBounds without zoom
 * steps). `fill` below 1 leaves a margin; a box without extent (one marker) takes `maxZoom`.
 */
export function fitView(
  box: LatLngBox,
  size: Size,
  {
    fill = 1,
    minZoom = 0.25,
    maxZoom = 65536,
  }: { fill?: number; minZoom?: number; maxZoom?: number } = {},
): GeoView {
  const [x0, y0] = project([box.west, box.north]);
  const [x1, y1] = project([box.east, box.south]);
  const unit = unitPixels(size);
  const width = Math.abs(x1 - x0) * unit;
  const height = Math.abs(y1 - y0) * unit;
  const zoom = Math.min(
    width > 0 ? (size.width * fill) / width : Infinity,
    height > 0 ? (size.height * fill) / height : Infinity,
  );
  return {
    center: [(x0 + x1) / 2, (y0 + y1) / 2],
    zoom: Math.max(minZoom, Math.min(maxZoom, Number.isFinite(zoom) ? zoom : maxZoom)),
  };
}

/** The latitude/longitude box a view shows in a drawing area of this size. */
export function viewBox(view: GeoView, size: Size): LatLngBox {
  const scale = unitPixels(size) * view.zoom;
  const [cx, cy] = view.center as [number, number];
  const halfX = size.width / 2 / scale;
  const halfY = size.height / 2 / scale;
  const [west, north] = mercator.unproject([cx - halfX, cy - halfY]) as [number, number];
  const [east, south] = mercator.unproject([cx + halfX, cy + halfY]) as [number, number];
  return { south, west, north, east };
}

/** The box of some points, or null without any. */
export function pointsBox(points: readonly { lat: number; lon: number }[]): LatLngBox | null {
  if (points.length === 0) return null;
  const lats = points.map((p) => p.lat);
  const lons = points.map((p) => p.lon);
  return {
    south: Math.min(...lats),
    north: Math.max(...lats),
    west: Math.min(...lons),
    east: Math.max(...lons),
  };
}

export function fromLeafletBounds(b: LeafletBounds): LatLngBox {
  return {
    south: Math.min(b._southWest.lat, b._northEast.lat),
    north: Math.max(b._southWest.lat, b._northEast.lat),
    west: Math.min(b._southWest.lng, b._northEast.lng),
    east: Math.max(b._southWest.lng, b._northEast.lng),
  };
}

const round = (v: number) => Math.round(v * 1e6) / 1e6;

/** What Redash stores for a view: Leaflet's LatLngBounds as JSON (to about 10 cm). */
export function toLeafletBounds(box: LatLngBox): LeafletBounds {
  return {
    _southWest: { lat: round(box.south), lng: round(box.west) },
    _northEast: { lat: round(box.north), lng: round(box.east) },
  };
}

export function sameBounds(a: LeafletBounds | null, b: LeafletBounds | null): boolean {
  if (!a || !b) return a === b;
  return (
    a._southWest.lat === b._southWest.lat &&
    a._southWest.lng === b._southWest.lng &&
    a._northEast.lat === b._northEast.lat &&
    a._northEast.lng === b._northEast.lng
  );
}
