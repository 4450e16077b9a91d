// What a map's regions are, as the map loaders give them: geo.ts (the registry of maps) and each
// map drawn from SVG (japan.ts) share these, so neither has to import the other for them.

/** A region's properties as the choropleth matches them (all strings). */
export type GeoProperties = Record<string, string>;

/** A map drawn from an SVG document: the document and its regions. */
export interface SvgRegions {
  svg: string;
  regions: { name: string; properties: GeoProperties }[];
}
