// CHOROPLETH bounds: Redash stores the saved view as Leaflet's `[[south, west], [north, east]]`
// (unset: the whole map is fitted). Here they become the map series' layout, and the view the
// user pans to in the editor preview becomes bounds again.
import { MAPS } from "../lib/geo";

export type StoredBounds = [[number, number], [number, number]];

export interface LatLngBox {
  south: number;
  west: number;
  north: number;
  east: number;
}

export interface Size {
  width: number;
  height: number;
}

/** ECharts draws GeoJSON without a projection as longitude/latitude, x squeezed by this. */
export const GEOJSON_ASPECT_SCALE = 0.75;

/**
 * Maps whose outlines are in longitude/latitude, where bounds mean what they mean in Redash.
 * The USA map is pre-projected (Albers, Alaska and Hawaii moved) and Japan is drawn from SVG:
 * neither has latitudes and longitudes to show, so they are always fitted whole.
 */
export function supportsBounds(mapType: string): boolean {
  const def = MAPS.find((m) => m.key === mapType);
  return !!def && !def.projected && !def.loadSvg;
}

const isPair = (v: unknown): v is [number, number] =>
  Array.isArray(v) && v.length >= 2 && Number.isFinite(v[0]) && Number.isFinite(v[1]);

/** The stored bounds as a box, or null when unset, malformed or without area. */
export function parseBounds(value: unknown): LatLngBox | null {
  if (!Array.isArray(value) || !isPair(value[0]) || !isPair(value[1])) return null;
  const [[lat1, lng1], [lat2, lng2]] = value as StoredBounds;
  const box = {
    south: Math.min(lat1, lat2),
    north: Math.max(lat1, lat2),
    west: Math.min(lng1, lng2),
    east: Math.max(lng1, lng2),
  };
  return box.north > box.south && box.east > box.west ? box : null;
}

const round = (v: number) => Math.round(v * 1e6) / 1e6;

export function toStoredBounds(box: LatLngBox): StoredBounds {
  return [
    [round(box.south), round(box.west)],
    [round(box.north), round(box.east)],
  ];
}

/**
 * The map series' layout that shows the box whole and as large as it fits the drawing area
 * (Leaflet's fitBounds): the box is the map's bounding rectangle, laid out at the middle with its
 * longer side (after the aspect scale) fitted to the area.
 */
export function boundsLayout(
  box: LatLngBox,
  size: Size,
): { boundingCoords: number[][]; layoutCenter: string[]; layoutSize: number } {
  const aspect = ((box.east - box.west) * GEOJSON_ASPECT_SCALE) / (box.north - box.south);
  const layoutSize =
    aspect >= 1
      ? Math.min(size.width, size.height * aspect)
      : Math.min(size.height, size.width / aspect);
  return {
    boundingCoords: [
      [box.west, box.north],
      [box.east, box.south],
    ],
    layoutCenter: ["50%", "50%"],
    layoutSize: Math.max(1, layoutSize),
  };
}

/** The box between two corners given as [longitude, latitude] in any order. */
export function cornersBox(a: number[], b: number[]): LatLngBox | null {
  const [x1, y1, x2, y2] = [a[0], a[1], b[0], b[1]];
  if (![x1, y1, x2, y2].every((v) => Number.isFinite(v))) return null;
  return {
    south: Math.min(y1!, y2!),
    north: Math.max(y1!, y2!),
    west: Math.min(x1!, x2!),
    east: Math.max(x1!, x2!),
  };
}

type Position = number[];
interface GeometryLike {
  type: string;
  coordinates?: unknown;
  geometries?: GeometryLike[];
}

/** Longitude/latitude extent of GeoJSON features, rounded outwards to 0.01°. */
export function extentOf(features: readonly { geometry: GeometryLike | null }[]): LatLngBox | null {
  let west = Infinity;
  let east = -Infinity;
  let south = Infinity;
  let north = -Infinity;
  const visit = (c: unknown) => {
    if (!Array.isArray(c)) return;
    if (typeof c[0] === "number") {
      const [lng, lat] = c as Position;
      west = Math.min(west, lng!);
      east = Math.max(east, lng!);
      south = Math.min(south, lat!);
      north = Math.max(north, lat!);
    } else c.forEach(visit);
  };
  const walk = (g: GeometryLike | null) => {
    if (!g) return;
    if (g.type === "GeometryCollection") g.geometries?.forEach(walk);
    else visit(g.coordinates);
  };
  features.forEach((f) => walk(f.geometry));
  if (!Number.isFinite(west)) return null;
  return {
    south: Math.floor(south * 100) / 100,
    west: Math.floor(west * 100) / 100,
    north: Math.ceil(north * 100) / 100,
    east: Math.ceil(east * 100) / 100,
  };
}
