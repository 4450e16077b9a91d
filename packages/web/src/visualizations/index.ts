// Public API of the visualizations package: the query workspace and dashboards mount these.
import { DEFINITIONS } from "./definitions";
import type { Options } from "./types";

export type {
  QueryResultData,
  QueryResultColumn,
  VisualizationSpec,
  VisualizationFormats,
  RenderContext,
  DatumAction,
  DatumClick,
  DatumSelection,
} from "./types";
export { DEFAULT_FORMATS } from "./types";
export { VisualizationRenderer, type VisualizationRendererProps } from "./VisualizationRenderer";
export {
  VisualizationEditor,
  optionsForSave,
  type VisualizationEditorProps,
} from "./VisualizationEditor";
export { ResultFilters, type ResultFiltersProps } from "./ResultFilters";
export { buildFilters, filterData, type ResultFilter } from "./resultFilters";
export { SIGHTLINE_PALETTE } from "./palette";
export { SignedInLinksContext } from "./signedInLinks";

export const visualizationTypes: {
  type: string;
  name: string;
  isDeprecated?: boolean;
  defaultOptions(): Options;
  defaultName: string;
  size?: { cols?: number; rows?: number; minCols?: number; minRows?: number; autoHeight?: boolean };
}[] = DEFINITIONS.map((d) => ({
  type: d.type,
  name: d.name,
  isDeprecated: d.isDeprecated,
  defaultOptions: d.defaultOptions,
  defaultName: d.defaultName,
  size: d.size,
}));
export { numberedName, optionsForData } from "./newVisualization";
