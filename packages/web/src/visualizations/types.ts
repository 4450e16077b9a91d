// The data and records every visualization receives, and the host settings that shape formatting.
import type { DrillDownTargetSource } from "../components/drillDown/drillDownTargets";

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
  dateFormat: "YYYY-MM-DD",
  dateTimeFormat: "YYYY-MM-DD HH:mm",
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

/**
 * A click on one value of a visualization: a bar, slice, point, map region or marker, funnel step,
 * table cell. Hosts use it for cross-filtering and drill-down (issue 19).
 */
export interface DatumClick {
  /** The result column the clicked value is a value of (a chart's category/x column, a cell's column). */
  column: string;
  /** The clicked value, as it is in the result's rows. */
  value: unknown;
  /**
   * The values known for the clicked element: the whole row for a table cell or a point drawn from
   * one row; for an aggregated element (a bar summing rows, a region) the columns it stands for
   * (e.g. x, series and the bar's summed y value). Undefined when nothing more is known.
   */
  row?: Readonly<Row>;
  /** Ctrl (or ⌘ on a Mac) was held: add to the selection rather than replace it. */
  additive: boolean;
}

/**
 * One thing a click on a value can do, as the host offers it (open a drill-down target,
 * cross-filter the dashboard). With one action a click does it; with several a click offers them
 * in a small menu.
 */
export interface DatumAction {
  /** Stable and unique among the actions offered together. */
  key: string;
  /** The menu item, e.g. "Open Country detail", "Filter by country: Italy". */
  label: (click: DatumClick) => string;
  /** What a click does, after "Click to" in the tooltip: "open Country detail". */
  hint: string;
  run: (click: DatumClick) => void;
}

/**
 * The values a visualization highlights (its own cross-filter selection): elements of a listed
 * column whose value is not selected are dimmed; elements of other columns are drawn as usual.
 */
export interface DatumSelection {
  /** The columns that have selected values. */
  columns: readonly string[];
  /** Whether a value of one of those columns is selected (dates and numbers compare by value). */
  has(column: string, value: unknown): boolean;
}

/** What each type's renderer receives. Data is already normalized and filtered. */
export interface RendererProps {
  name: string;
  options: Options;
  data: QueryResultData;
  formats: VisualizationFormats;
  context: RenderContext;
  onOptionsChange?: (options: Options) => void;
  hideToolbox?: boolean;
  /**
   * Called when the user clicks a value. Renderers without it behave as before: no pointer cursor,
   * no click handling.
   */
  onDatumClick?: (click: DatumClick) => void;
  /** What a click does, for the tooltip ("Click to open Country detail"); only with onDatumClick. */
  clickHint?: string;
  /** Values to highlight; undefined or no columns: nothing is highlighted or dimmed. */
  selection?: DatumSelection;
}

/** What each type's editor receives: the filled-in options, and a way to merge changes in. */
export interface EditorProps {
  options: Options;
  data: QueryResultData;
  formats: VisualizationFormats;
  onOptionsChange: (changes: Options) => void;
  /** Replace the whole options object (for keys that are replaced, not merged). */
  onReplaceOptions: (options: Options) => void;
  /**
   * Where link columns find the dashboards and queries they may open, handed in by the host;
   * without it a link column offers its URL template only.
   */
  drillDownTargets?: DrillDownTargetSource;
}
