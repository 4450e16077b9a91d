// The data and records every visualization receives, and the host settings that shape formatting.

export interface QueryResultColumn {
  name: string;
  friendly_name?: string;
  type: string | null;
}

export type Row = Record<string, unknown>;

export interface QueryResultData {
  columns: QueryResultColumn[];
  rows: Row[];
  truncated?: boolean;
}

export interface VisualizationSpec {
  id?: number;
  type: string;
  name: string;
  description?: string | null;
  options: Record<string, unknown>;
}

export type Options = Record<string, unknown>;

/** Application-wide settings (catalogue 1.3). */
export interface VisualizationFormats {
  dateFormat: string;
  dateTimeFormat: string;
  integerFormat: string;
  floatFormat: string;
  thousandsSeparator: string;
  decimalSeparator: string;
  nullValue: string;
  booleanValues: [string, string];
  tableCellMaxJSONSize: number;
  allowCustomJSVisualizations: boolean;
  hidePlotlyModeBar: boolean;
  choroplethAvailableMaps: string[];
  /**
   * The default tile server of MAP visualizations (a {z}/{x}/{y} template), used in place of
   * Redash's OpenStreetMap default; empty for none (markers over the bundled world outline).
   */
  mapTileUrl: string;
}

export const DEFAULT_FORMATS: Readonly<VisualizationFormats> = {
  dateFormat: "DD/MM/YYYY",
  dateTimeFormat: "DD/MM/YYYY HH:mm",
  integerFormat: "0,0",
  floatFormat: "0,0.00",
  thousandsSeparator: ",",
  decimalSeparator: ".",
  nullValue: "null",
  booleanValues: ["false", "true"],
  tableCellMaxJSONSize: 50000,
  allowCustomJSVisualizations: false,
  hidePlotlyModeBar: false,
  choroplethAvailableMaps: ["countries", "usa", "subdiv_japan"],
  mapTileUrl: "//{s}.tile.openstreetmap.org/{z}/{x}/{y}.png",
};

export function resolveFormats(partial?: Partial<VisualizationFormats>): VisualizationFormats {
  const out = { ...DEFAULT_FORMATS };
  for (const [k, v] of Object.entries(partial ?? {})) {
    if (v !== undefined && v !== null) (out as Record<string, unknown>)[k] = v;
  }
  return out;
}

export type RenderContext = "query" | "widget" | "embed";

/** What each type's renderer receives. Data is already normalized and filtered. */
export interface RendererProps {
  name: string;
  options: Options;
  data: QueryResultData;
  formats: VisualizationFormats;
  context: RenderContext;
  onOptionsChange?: (options: Options) => void;
  hideToolbox?: boolean;
}

/** What each type's editor receives: the filled-in options, and a way to merge changes in. */
export interface EditorProps {
  options: Options;
  data: QueryResultData;
  formats: VisualizationFormats;
  onOptionsChange: (changes: Options) => void;
  /** Replace the whole options object (for keys that are replaced, not merged). */
  onReplaceOptions: (options: Options) => void;
}
