// The one bar above a dashboard's grid (UI.md, Dashboards): the dashboard's parameters, its
// dashboard-level filters and the active cross-filters as removable tags, side by side and
// wrapping onto more lines on a narrow screen. Nothing shows while none of them has anything.
// While cross-filters are set the bar sticks to the top of the screen (under the top bar), so the
// filters a click set stay in view however far down the click was.
import { ResultFilters, type ResultFiltersProps } from "../../visualizations";
import { ParametersPanel } from "../queries/ParametersPanel";
import CrossFilterBar, { type CrossFilterBarProps } from "./crossFilter/CrossFilterBar";
import type { DashboardParameterState } from "./useDashboardParameters";
import styles from "./DashboardFilterBar.module.css";

export interface DashboardFilterBarProps {
  parameters: DashboardParameterState;
  /** The dashboard-level filters' selection; undefined while they are off. */
  filters?: ResultFiltersProps;
  crossFilters: CrossFilterBarProps;
  /** How far from the top of the scrolling area the bar sticks (the top bar's height), in px. */
  stickyTop?: number;
}

export function DashboardFilterBar({
  parameters,
  filters,
  crossFilters,
  stickyTop = 0,
}: DashboardFilterBarProps) {
  const { params } = parameters;
  const sticky = crossFilters.filters.length > 0;
  return (
    <div
      className={sticky ? `${styles.bar} ${styles.sticky}` : styles.bar}
      style={sticky ? { top: stickyTop } : undefined}
      data-testid="dashboard-filter-bar"
      data-sticky={sticky}
    >
      {params.length > 0 && (
        <div className={styles.parameters} data-testid="dashboard-parameters">
          <ParametersPanel
            parameters={params}
            applied={parameters.values}
            pending={parameters.pending}
            onPendingChange={parameters.setPending}
            onApply={parameters.apply}
            parentQueryId={params[0]?.parentQueryId}
          />
        </div>
      )}
      {filters && filters.filters.length > 0 && (
        <div className={styles.filters} data-testid="dashboard-filters">
          <ResultFilters {...filters} />
        </div>
      )}
      <CrossFilterBar {...crossFilters} />
    </div>
  );
}
