// The one bar above a dashboard's grid (UI.md, Dashboards): the dashboard's parameters, its
// dashboard-level filters and the active cross-filters as removable tags, side by side and
// wrapping onto more lines on a narrow screen. Nothing shows while none of them has anything.
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
}

export function DashboardFilterBar({ parameters, filters, crossFilters }: DashboardFilterBarProps) {
  const { params } = parameters;
  return (
    <div className={styles.bar} data-testid="dashboard-filter-bar">
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
