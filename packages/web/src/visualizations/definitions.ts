// The catalogue of visualization types (catalogue 1.1), in the order the editor offers them.
import { lazy, type ComponentType } from "react";
import { BoxplotEditor } from "./boxplot/Editor";
import { ChartEditor } from "./chart/Editor";
import { getChartOptions, newChartOptions } from "./chart/options";
import { choroplethDefaults, getChoroplethOptions } from "./choropleth/choropleth";
import { CohortEditor } from "./cohort/Editor";
import { CohortRenderer } from "./cohort/Renderer";
import { cohortDefaults, getCohortOptions } from "./cohort/cohort";
import { CounterEditor } from "./counter/Editor";
import { CounterRenderer } from "./counter/Renderer";
import { counterDefaults, getCounterOptions } from "./counter/counter";
import { DetailsEditor } from "./details/Editor";
import { DetailsRenderer } from "./details/Renderer";
import { FunnelEditor } from "./funnel/Editor";
import { FunnelRenderer } from "./funnel/Renderer";
import { funnelDefaults, getFunnelOptions } from "./funnel/funnel";
import { asObject } from "./lib/merge";
import { MapEditor } from "./map/Editor";
import { getMapOptions, mapDefaults } from "./map/markers";
import { PivotEditor } from "./pivot/Editor";
import { getPivotOptions, pivotDefaults } from "./pivot/pivot";
import type { VisualizationDefinition } from "./registry";
import type { EditorProps, RendererProps } from "./types";
import { SankeyEditor } from "./sankey/Editor";
import { SunburstEditor } from "./sunburst/Editor";
import { getDetailsOptions, getTableOptions } from "./table/columns";
import { TableEditor } from "./table/Editor";
import { TableRenderer } from "./table/Renderer";
import { WordCloudEditor } from "./wordcloud/Editor";
import { getWordCloudOptions, wordCloudDefaults } from "./wordcloud/wordcloud";

const passThrough = (stored: Record<string, unknown>) => asObject(stored);

/**
 * Types drawn with ECharts (and the choropleth's editor, which reads its maps) load on first use:
 * ECharts is about a megabyte of script that a query page showing a table never needs. The
 * renderer and the editor wait for them in a Suspense boundary.
 */
function lazyNamed<Props>(
  load: () => Promise<Record<string, unknown>>,
  name: string,
): ComponentType<Props> {
  return lazy(async () => ({ default: (await load())[name] as ComponentType<Props> }));
}

const BoxplotRenderer = lazyNamed<RendererProps>(
  () => import("./boxplot/Renderer"),
  "BoxplotRenderer",
);
const ChartRenderer = lazyNamed<RendererProps>(() => import("./chart/Renderer"), "ChartRenderer");
const ChoroplethRenderer = lazyNamed<RendererProps>(
  () => import("./choropleth/Renderer"),
  "ChoroplethRenderer",
);
const MapRenderer = lazyNamed<RendererProps>(() => import("./map/Renderer"), "MapRenderer");
const PivotRenderer = lazyNamed<RendererProps>(() => import("./pivot/Renderer"), "PivotRenderer");
const SankeyRenderer = lazyNamed<RendererProps>(
  () => import("./sankey/Renderer"),
  "SankeyRenderer",
);
const SunburstRenderer = lazyNamed<RendererProps>(
  () => import("./sunburst/Renderer"),
  "SunburstRenderer",
);
const WordCloudRenderer = lazyNamed<RendererProps>(
  () => import("./wordcloud/Renderer"),
  "WordCloudRenderer",
);
const ChoroplethEditor = lazyNamed<EditorProps>(
  () => import("./choropleth/Editor"),
  "ChoroplethEditor",
);

export const DEFINITIONS: VisualizationDefinition[] = [
  {
    type: "CHART",
    name: "Chart",
    defaultName: "Chart",
    defaultOptions: () => newChartOptions(),
    getOptions: (stored, _data, formats) => getChartOptions(stored, formats),
    Renderer: ChartRenderer,
    Editor: ChartEditor,
    size: { cols: 3, rows: 8, minCols: 1, minRows: 5 },
  },
  {
    type: "TABLE",
    name: "Table",
    defaultName: "Table",
    defaultOptions: () => ({}),
    getOptions: (stored, data, formats) => getTableOptions(stored, data.columns, formats),
    Renderer: TableRenderer,
    Editor: TableEditor,
    size: { cols: 3, rows: 14, minCols: 2, autoHeight: true },
  },
  {
    type: "COUNTER",
    name: "Counter",
    defaultName: "Counter",
    defaultOptions: counterDefaults,
    getOptions: (stored) => getCounterOptions(stored),
    Renderer: CounterRenderer,
    Editor: CounterEditor,
    size: { cols: 2, rows: 5 },
  },
  {
    type: "PIVOT",
    name: "Pivot Table",
    defaultName: "Pivot Table",
    defaultOptions: pivotDefaults,
    getOptions: (stored) => getPivotOptions(stored),
    Renderer: PivotRenderer,
    Editor: PivotEditor,
    size: { cols: 3, rows: 10, minCols: 2 },
  },
  {
    type: "MAP",
    name: "Map (Markers)",
    defaultName: "Map (Markers)",
    defaultOptions: mapDefaults,
    getOptions: (stored) => getMapOptions(stored),
    Renderer: MapRenderer,
    Editor: MapEditor,
    size: { cols: 3, rows: 8, minCols: 2 },
  },
  {
    type: "CHOROPLETH",
    name: "Map (Choropleth)",
    defaultName: "Map (Choropleth)",
    defaultOptions: choroplethDefaults,
    getOptions: (stored, _data, formats) =>
      getChoroplethOptions(stored, formats.choroplethAvailableMaps),
    Renderer: ChoroplethRenderer,
    Editor: ChoroplethEditor,
    size: { cols: 3, rows: 8, minCols: 2 },
  },
  {
    type: "COHORT",
    name: "Cohort",
    defaultName: "Cohort",
    defaultOptions: cohortDefaults,
    getOptions: (stored) => getCohortOptions(stored),
    Renderer: CohortRenderer,
    Editor: CohortEditor,
    size: { rows: 8, autoHeight: true },
  },
  {
    type: "FUNNEL",
    name: "Funnel",
    defaultName: "Funnel",
    defaultOptions: funnelDefaults,
    getOptions: (stored, data) => getFunnelOptions(stored, data),
    Renderer: FunnelRenderer,
    Editor: FunnelEditor,
    size: { rows: 10 },
  },
  {
    type: "SANKEY",
    name: "Sankey",
    defaultName: "Sankey",
    defaultOptions: () => ({}),
    getOptions: passThrough,
    Renderer: SankeyRenderer,
    Editor: SankeyEditor,
    size: { rows: 7 },
  },
  {
    type: "SUNBURST_SEQUENCE",
    name: "Sunburst Sequence",
    defaultName: "Sunburst Sequence",
    defaultOptions: () => ({}),
    getOptions: passThrough,
    Renderer: SunburstRenderer,
    Editor: SunburstEditor,
    size: { rows: 7 },
  },
  {
    type: "WORD_CLOUD",
    name: "Word Cloud",
    defaultName: "Word Cloud",
    defaultOptions: wordCloudDefaults,
    getOptions: (stored) => getWordCloudOptions(stored),
    Renderer: WordCloudRenderer,
    Editor: WordCloudEditor,
    size: { rows: 8 },
  },
  {
    type: "DETAILS",
    name: "Details View",
    defaultName: "Details View",
    defaultOptions: () => ({}),
    getOptions: (stored, data, formats) => getDetailsOptions(stored, data.columns, formats),
    Renderer: DetailsRenderer,
    Editor: DetailsEditor,
    size: { cols: 2, rows: 2, autoHeight: true },
  },
  {
    type: "BOXPLOT",
    name: "Boxplot (Deprecated)",
    isDeprecated: true,
    defaultName: "Boxplot",
    defaultOptions: () => ({}),
    getOptions: passThrough,
    Renderer: BoxplotRenderer,
    Editor: BoxplotEditor,
    size: { rows: 8, minRows: 5 },
  },
];

export function findDefinition(type: string | undefined): VisualizationDefinition | undefined {
  return DEFINITIONS.find((d) => d.type === type);
}
