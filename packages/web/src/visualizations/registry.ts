// Every visualization type: its stored key, display name, defaults, option fill-in, renderer and
// editor. The app looks types up here and nowhere else.
import type { ComponentType } from "react";
import type {
  EditorProps,
  Options,
  QueryResultData,
  RendererProps,
  VisualizationFormats,
} from "./types";

export interface VisualizationDefinition {
  type: string;
  name: string;
  isDeprecated?: boolean;
  defaultName: string;
  defaultOptions(): Options;
  /** Fills defaults the way the renderer sees them; the editor saves this. */
  getOptions(stored: Options, data: QueryResultData, formats: VisualizationFormats): Options;
  Renderer: ComponentType<RendererProps>;
  Editor: ComponentType<EditorProps>;
  /** Widget size on the dashboard grid: 6 columns, 50 px rows (Redash's hints for its 6-column grid). */
  size?: { cols?: number; rows?: number; minCols?: number; minRows?: number; autoHeight?: boolean };
}
