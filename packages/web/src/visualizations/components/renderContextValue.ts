// Where the visualization being drawn is shown, for drawing code deep inside a renderer (EChart)
// that the renderer's `context` prop does not reach. VisualizationRenderer provides it.
import { createContext, useContext } from "react";
import type { RenderContext } from "../types";

export const RenderContextValue = createContext<RenderContext>("query");

export const useRenderContext = (): RenderContext => useContext(RenderContextValue);
