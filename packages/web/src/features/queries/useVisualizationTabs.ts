// The results' tabs (Table and the query's visualizations): the open one is in the address's
// hash, so a link or a reload shows the same tab.
import { useLocation, useNavigate } from "react-router";
import type { Visualization } from "@sightline/core";

export interface VisualizationTabs {
  /** The open tab's key: a visualization's id, or "table" when the hash names none. */
  selectedTab: string;
  selectTab: (key: string) => void;
  /** The open tab's visualization, else the first one (what embedding and dashboards take). */
  current: Visualization | undefined;
}

export function useVisualizationTabs(
  visualizations: Visualization[] | undefined,
): VisualizationTabs {
  const navigate = useNavigate();
  const location = useLocation();
  const selectedTab = location.hash.replace(/^#/, "") || "table";
  const selectTab = (key: string) =>
    navigate({ hash: key, search: location.search }, { replace: true });
  const current =
    (visualizations ?? []).find((v) => String(v.id) === selectedTab) ?? visualizations?.[0];
  return { selectedTab, selectTab, current };
}
