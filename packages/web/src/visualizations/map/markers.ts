// MAP (markers): options with legacy rewrites, points and groups, and grid clustering.
import { asObject, mergeOptions } from "../lib/merge";
import { toNumber } from "../lib/numberFormat";
import { renderTemplate, valueText } from "../lib/template";
import { D3_CATEGORY_10 } from "../palette";
import type { Options, QueryResultData, Row } from "../types";

export const DEFAULT_TILE_URL = "//{s}.tile.openstreetmap.org/{z}/{x}/{y}.png";

export const TILE_SERVERS: { label: string; url: string }[] = [
  { label: "OpenStreetMap", url: DEFAULT_TILE_URL },
  { label: "OpenStreetMap BW", url: "//{s}.tiles.wmflabs.org/bw-mapnik/{z}/{x}/{y}.png" },
  { label: "OpenStreetMap DE", url: "//{s}.tile.openstreetmap.de/tiles/osmde/{z}/{x}/{y}.png" },
  { label: "OpenStreetMap FR", url: "//{s}.tile.openstreetmap.fr/osmfr/{z}/{x}/{y}.png" },
  { label: "OpenStreetMap Hot", url: "//{s}.tile.openstreetmap.fr/hot/{z}/{x}/{y}.png" },
  { label: "Thunderforest", url: "//{s}.tile.thunderforest.com/cycle/{z}/{x}/{y}.png" },
  { label: "Thunderforest Spinal", url: "//{s}.tile.thunderforest.com/spinal-map/{z}/{x}/{y}.png" },
  { label: "OpenMapSurfer", url: "//korona.geog.uni-heidelberg.de/tiles/roads/x={x}&y={y}&z={z}" },
  { label: "Stamen Toner", url: "//stamen-tiles-{s}.a.ssl.fastly.net/toner/{z}/{x}/{y}.png" },
  {
    label: "Stamen Toner Background",
    url: "//stamen-tiles-{s}.a.ssl.fastly.net/toner-background/{z}/{x}/{y}.png",
  },
  {
    label: "Stamen Toner Lite",
    url: "//stamen-tiles-{s}.a.ssl.fastly.net/toner-lite/{z}/{x}/{y}.png",
  },
  { label: "OpenTopoMap", url: "//{s}.tile.opentopomap.org/{z}/{x}/{y}.png" },
];

export interface MapOptions extends Options {
  latColName: string;
  lonColName: string;
  classify: string | null;
  groups: Record<string, { color?: string }>;
  mapTileUrl: string;
  clusterMarkers: boolean;
  customizeMarkers: boolean;
  iconShape: string;
  iconFont: string;
  foregroundColor: string;
  backgroundColor: string;
  borderColor: string;
  tooltip: { enabled: boolean; template: string };
  popup: { enabled: boolean; template: string };
  bounds: {
    _southWest: { lat: number; lng: number };
    _northEast: { lat: number; lng: number };
  } | null;
}

export const mapDefaults = (): MapOptions => ({
  latColName: "lat",
  lonColName: "lon",
  classify: null,
  groups: {},
  mapTileUrl: DEFAULT_TILE_URL,
  clusterMarkers: true,
  customizeMarkers: false,
  iconShape: "marker",
  iconFont: "circle",
  foregroundColor: "#ffffff",
  backgroundColor: "#356AFF",
  borderColor: "#356AFF",
  tooltip: { enabled: false, template: "" },
  popup: { enabled: true, template: "" },
  bounds: null,
});

export function getMapOptions(stored: Options | null | undefined): MapOptions {
  const o = mergeOptions(mapDefaults(), asObject(stored));
  if (o.classify === "none" || typeof o.classify !== "string" || !o.classify) o.classify = null;
  if (!o.mapTileUrl || typeof o.mapTileUrl !== "string") o.mapTileUrl = DEFAULT_TILE_URL;
  if (!validBounds(o.bounds)) o.bounds = null;
  o.groups = asObject(o.groups) as MapOptions["groups"];
  o.tooltip = { ...mapDefaults().tooltip, ...asObject(o.tooltip) };
  o.popup = { ...mapDefaults().popup, ...asObject(o.popup) };
  return o;
}

/** Leaflet's saved view: both corners with numeric coordinates. */
function validBounds(b: unknown): b is NonNullable<MapOptions["bounds"]> {
  const corner = (c: unknown) => {
    const { lat, lng } = asObject(c);
    return typeof lat === "number" && typeof lng === "number";
  };
  const { _southWest, _northEast } = asObject(b);
  return corner(_southWest) && corner(_northEast);
}

export interface MarkerPoint {
  lat: number;
  lon: number;
  row: Row;
}

export interface MarkerGroup {
  name: string;
  color: string;
  points: MarkerPoint[];
}

export function markerGroups(
  data: QueryResultData,
  o: MapOptions,
): { groups: MarkerGroup[]; notices: string[] } {
  const notices: string[] = [];
  const names = new Set(data.columns.map((c) => c.name));
  for (const c of [o.latColName, o.lonColName])
    if (!names.has(c))
      notices.push(
        `Column "${c}" is not in the result: choose the latitude and longitude columns.`,
      );
  if (notices.length) return { groups: [], notices };
  const byGroup = new Map<string, MarkerPoint[]>();
  let skipped = 0;
  for (const row of data.rows) {
    const lat = toNumber(row[o.latColName]);
    const lon = toNumber(row[o.lonColName]);
    if (lat === null || lon === null) {
      skipped++;
      continue;
    }
    const g = o.classify ? String(row[o.classify] ?? "null") : "All";
    (byGroup.get(g) ?? byGroup.set(g, []).get(g)!).push({ lat, lon, row });
  }
  if (skipped) notices.push(`${skipped} row${skipped > 1 ? "s" : ""} without coordinates skipped.`);
  const groups = [...byGroup.entries()].map(([name, points], i) => ({
    name,
    color:
      o.groups[name]?.color ||
      (o.classify ? D3_CATEGORY_10[i % 10] : o.customizeMarkers ? o.backgroundColor : "#356AFF"),
    points,
  }));
  return { groups, notices };
}

export interface Cluster {
  lat: number;
  lon: number;
  count: number;
  points: MarkerPoint[];
}

/** Groups points into square cells of `cellDegrees`; a cell's marker sits at its points' mean. */
export function clusterPoints(points: readonly MarkerPoint[], cellDegrees: number): Cluster[] {
  const cells = new Map<string, MarkerPoint[]>();
  for (const p of points) {
    const key = `${Math.floor(p.lon / cellDegrees)}:${Math.floor(p.lat / cellDegrees)}`;
    (cells.get(key) ?? cells.set(key, []).get(key)!).push(p);
  }
  return [...cells.values()].map((ps) => ({
    lat: ps.reduce((s, p) => s + p.lat, 0) / ps.length,
    lon: ps.reduce((s, p) => s + p.lon, 0) / ps.length,
    count: ps.length,
    points: ps,
  }));
}

/** Tooltip/popup text; the defaults are "lat, lon" and, for popups, every other column too. */
export function markerText(
  template: string,
  p: MarkerPoint,
  o: MapOptions,
  kind: "tooltip" | "popup",
): string {
  if (template)
    return renderTemplate(template, (k) => (k in p.row ? valueText(p.row[k]) : undefined));
  const head = `${p.lat}, ${p.lon}`;
  if (kind === "tooltip") return head;
  const rest = Object.entries(p.row)
    .filter(([k]) => k !== o.latColName && k !== o.lonColName)
    .map(([k, v]) => `<strong>${k}:</strong> ${valueText(v)}`);
  return [head, ...rest].join("<br>");
}
