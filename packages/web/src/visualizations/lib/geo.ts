// Bundled map outlines for MAP and CHOROPLETH, registered with ECharts on first use.
// Countries: Natural Earth 1:110m (world-atlas) with ISO codes added; USA: Census states
// (us-atlas), already in the Albers-USA projection (Alaska and Hawaii moved); Japan: SVG outlines
// from @svg-maps/japan (see japan.ts).
import { registerMap } from "echarts/core";
import type { Feature, FeatureCollection, Geometry } from "geojson";
import type { GeometryCollection, Topology } from "topojson-specification";
import { loadJapan } from "./japan";
import type { GeoProperties, SvgRegions } from "./mapRegions";

export type GeoCollection = FeatureCollection<Geometry, GeoProperties>;

export interface MapDefinition {
  key: string;
  name: string;
  /** GeoJSON properties that can be matched (value → editor label). */
  fields: { value: string; label: string }[];
  /** Coordinates are already projected (screen space): draw with an identity projection. */
  projected?: boolean;
  load(): Promise<GeoCollection | null>;
  /** For maps drawn from SVG (no coordinates): the document and its regions. */
  loadSvg?(): Promise<SvgRegions>;
  /** Credit line the license asks for, shown under the map. */
  attribution?: string;
}

/** A registered map's regions; `name` is what ECharts matches `series.data[].name` against. */
export interface LoadedMap {
  regions: { name: string; properties: GeoProperties }[];
}

// USPS abbreviation and ANSI (GNIS) code of each state, keyed by the FIPS id us-atlas gives its
// features. No npm package ships the ANSI codes, so they are listed here as the Census Bureau
// publishes them (state.txt: STATE, STUSAB, STATENS); the test checks every us-atlas id has one.
export const US_STATES: Record<string, { usps: string; ns: string }> = {
  "01": { usps: "AL", ns: "01779775" },
  "02": { usps: "AK", ns: "01785533" },
  "04": { usps: "AZ", ns: "01779777" },
  "05": { usps: "AR", ns: "00068085" },
  "06": { usps: "CA", ns: "01779778" },
  "08": { usps: "CO", ns: "01779779" },
  "09": { usps: "CT", ns: "01779780" },
  "10": { usps: "DE", ns: "01779781" },
  "11": { usps: "DC", ns: "01702382" },
  "12": { usps: "FL", ns: "00294478" },
  "13": { usps: "GA", ns: "01705317" },
  "15": { usps: "HI", ns: "01779782" },
  "16": { usps: "ID", ns: "01779783" },
  "17": { usps: "IL", ns: "01779784" },
  "18": { usps: "IN", ns: "00448508" },
  "19": { usps: "IA", ns: "01779785" },
  "20": { usps: "KS", ns: "00481813" },
  "21": { usps: "KY", ns: "01779786" },
  "22": { usps: "LA", ns: "01629543" },
  "23": { usps: "ME", ns: "01779787" },
  "24": { usps: "MD", ns: "01714934" },
  "25": { usps: "MA", ns: "00606926" },
  "26": { usps: "MI", ns: "01779789" },
  "27": { usps: "MN", ns: "00662849" },
  "28": { usps: "MS", ns: "01779790" },
  "29": { usps: "MO", ns: "01779791" },
  "30": { usps: "MT", ns: "00767982" },
  "31": { usps: "NE", ns: "01779792" },
  "32": { usps: "NV", ns: "01779793" },
  "33": { usps: "NH", ns: "01779794" },
  "34": { usps: "NJ", ns: "01779795" },
  "35": { usps: "NM", ns: "00897535" },
  "36": { usps: "NY", ns: "01779796" },
  "37": { usps: "NC", ns: "01027616" },
  "38": { usps: "ND", ns: "01779797" },
  "39": { usps: "OH", ns: "01085497" },
  "40": { usps: "OK", ns: "01102857" },
  "41": { usps: "OR", ns: "01155107" },
  "42": { usps: "PA", ns: "01779798" },
  "44": { usps: "RI", ns: "01219835" },
  "45": { usps: "SC", ns: "01779799" },
  "46": { usps: "SD", ns: "01785534" },
  "47": { usps: "TN", ns: "01325873" },
  "48": { usps: "TX", ns: "01779801" },
  "49": { usps: "UT", ns: "01455989" },
  "50": { usps: "VT", ns: "01779802" },
  "51": { usps: "VA", ns: "01779803" },
  "53": { usps: "WA", ns: "01779804" },
  "54": { usps: "WV", ns: "01779805" },
  "55": { usps: "WI", ns: "01779806" },
  "56": { usps: "WY", ns: "01779807" },
  "72": { usps: "PR", ns: "01779808" },
};

async function topoToGeo(topo: Topology, object: string): Promise<GeoCollection> {
  const { feature } = await import("topojson-client");
  const fc = feature(topo, topo.objects[object] as GeometryCollection) as FeatureCollection<
    Geometry,
    Record<string, unknown> | null
  >;
  return {
    type: "FeatureCollection",
    features: fc.features.map(
      (f) =>
        ({
          ...f,
          properties: Object.fromEntries(
            Object.entries(f.properties ?? {}).map(([k, v]) => [k, String(v)]),
          ),
        }) as Feature<Geometry, GeoProperties>,
    ),
  };
}

/**
 * Rings that cross the antimeridian would be drawn as lines across the whole map. A ring that
 * crosses it twice (Fiji, eastern Russia) is drawn east of 180°; one that crosses it once goes
 * round a pole (Antarctica) and is closed along that pole instead.
 */
export function unwrapRing(ring: number[][]): number[][] {
  const jumps: number[] = [];
  for (let k = 1; k < ring.length; k++)
    if (Math.abs(ring[k]![0]! - ring[k - 1]![0]!) > 180) jumps.push(k);
  if (jumps.length === 0) return ring;
  if (jumps.length % 2 === 0) return ring.map(([lon, lat]) => [lon! < 0 ? lon! + 360 : lon!, lat!]);
  const out: number[][] = [];
  ring.forEach((point, k) => {
    if (jumps.includes(k)) {
      const [fromLon, fromLat] = ring[k - 1]!;
      const pole = fromLat! < 0 ? -90 : 90;
      out.push([Math.sign(fromLon!) * 180, pole], [-Math.sign(fromLon!) * 180, pole]);
    }
    out.push(point);
  });
  return out;
}

function unwrapGeometry(g: Geometry): Geometry {
  if (g.type === "Polygon") return { ...g, coordinates: g.coordinates.map(unwrapRing) };
  if (g.type === "MultiPolygon")
    return { ...g, coordinates: g.coordinates.map((p) => p.map(unwrapRing)) };
  return g;
}

async function loadCountries(): Promise<GeoCollection> {
  const [topo, countries, en] = await Promise.all([
    import("world-atlas/countries-110m.json"),
    import("i18n-iso-countries"),
    import("i18n-iso-countries/langs/en.json"),
  ]);
  const iso = countries.default ?? countries;
  iso.registerLocale(en.default ?? en);
  const geo = await topoToGeo(topo.default as unknown as Topology, "countries");
  for (const f of geo.features) {
    f.geometry = unwrapGeometry(f.geometry);
    const n3 = String(f.id ?? "").padStart(3, "0");
    const p = f.properties;
    p.iso_n3 = f.id === undefined ? "" : n3;
    p.iso_a2 = iso.numericToAlpha2(n3) ?? "";
    p.iso_a3 = iso.numericToAlpha3(n3) ?? "";
    p.name_long = (p.iso_a2 && iso.getName(p.iso_a2, "en", { select: "official" })) || p.name;
    p.abbrev = p.name;
  }
  return geo;
}

async function loadUsa(): Promise<GeoCollection> {
  const topo = await import("us-atlas/states-albers-10m.json");
  const geo = await topoToGeo(topo.default as unknown as Topology, "states");
  for (const f of geo.features) {
    const fips = String(f.id ?? "");
    Object.assign(f.properties, {
      fips_code: fips,
      geoid: fips,
      usps_abbrev: US_STATES[fips]?.usps ?? "",
      ns_code: US_STATES[fips]?.ns ?? "",
    });
  }
  return geo;
}

export const MAPS: MapDefinition[] = [
  {
    key: "countries",
    name: "Countries",
    fields: [
      { value: "name", label: "Short name" },
      { value: "name_long", label: "Full name" },
      { value: "abbrev", label: "Abbreviated name" },
      { value: "iso_a2", label: "ISO code (2 letters)" },
      { value: "iso_a3", label: "ISO code (3 letters)" },
      { value: "iso_n3", label: "ISO code (3 digits)" },
    ],
    load: loadCountries,
  },
  {
    key: "usa",
    name: "USA",
    projected: true,
    fields: [
      { value: "name", label: "Name" },
      { value: "ns_code", label: "National Standard ANSI Code (8-character)" },
      { value: "geoid", label: "Geographic ID" },
      { value: "usps_abbrev", label: "USPS Abbreviation" },
      { value: "fips_code", label: "FIPS Code (2-character)" },
    ],
    load: loadUsa,
  },
  {
    key: "subdiv_japan",
    name: "Japan/Prefectures",
    fields: [
      "name",
      "name_alt",
      "name_local",
      "iso_3166_2",
      "postal",
      "type",
      "type_en",
      "region",
      "region_code",
    ].map((v) => ({ value: v, label: v })),
    // No permissively licensed GeoJSON of the prefectures exists on npm: drawn from SVG instead.
    load: async () => null,
    loadSvg: loadJapan,
    attribution: "Map: svg-maps (CC BY 4.0)",
  },
];

const cache = new Map<string, Promise<LoadedMap | null>>();

async function loadAndRegister(def: MapDefinition): Promise<LoadedMap | null> {
  const name = `sightline-${def.key}`;
  if (def.loadSvg) {
    const { svg, regions } = await def.loadSvg();
    registerMap(name, { svg });
    return { regions };
  }
  const geo = await def.load();
  if (!geo) return null;
  registerMap(name, geo as unknown as Parameters<typeof registerMap>[1]);
  return {
    regions: geo.features.map((f, i) => ({
      name: f.properties.name ?? `r${i}`,
      properties: f.properties,
    })),
  };
}

/** Loads a map once and registers it with ECharts under `sightline-<key>`. */
export function loadMap(key: string): Promise<LoadedMap | null> {
  let p = cache.get(key);
  if (!p) {
    const def = MAPS.find((m) => m.key === key);
    p = def ? loadAndRegister(def) : Promise.resolve(null);
    cache.set(key, p);
  }
  return p;
}

/** Web Mercator, matching map tiles; y grows downward as ECharts expects of a projection. */
export const mercator = {
  project: ([lon, lat]: number[]): number[] => {
    const clamped = Math.max(-85, Math.min(85, lat));
    return [(lon / 180) * Math.PI, -Math.log(Math.tan(Math.PI / 4 + (clamped * Math.PI) / 360))];
  },
  unproject: ([x, y]: number[]): number[] => [
    (x * 180) / Math.PI,
    ((2 * Math.atan(Math.exp(-y)) - Math.PI / 2) * 180) / Math.PI,
  ],
};

export const identityProjection = { project: (p: number[]) => p, unproject: (p: number[]) => p };
