// Whether the menu of click actions is open over the visualization, for EChart to hide its
// tooltip meanwhile (it would sit beside the menu, repeating the value). VisualizationRenderer
// provides it.
import { createContext, useContext } from "react";

export const DatumMenuOpen = createContext(false);

export const useDatumMenuOpen = (): boolean => useContext(DatumMenuOpen);
