// What narrows a dashboard's data, alike on the dashboard page and the public page: the
// parameters, the dashboard-level filters (while the dashboard has them on) and the cross-filters,
// as the filter bar's props and the props every widget card takes from them.
import { useSearchParams } from "react-router";
import type { DashboardWidget } from "../../api/dashboards";
import { useVisualizationFormats } from "../../app/visualizationFormats";
import { resolveFormats } from "../../visualizations/types";
import type { DashboardFilterBarProps } from "./DashboardFilterBar";
import type { WidgetProps } from "./DashboardWidget";
import { useDashboardCrossFilter } from "./crossFilter/useDashboardCrossFilter";
import { ownParameters, useDashboardParameters } from "./useDashboardParameters";
import { useWidgetReports } from "./useWidgetReports";
import { widgetParameterValues } from "./widgetParameters";

type FilteringWidgetProps = Pick<
  WidgetProps,
  | "values"
  | "ownParameters"
  | "onApplyOwn"
  | "dashboardFilters"
  | "onFiltersFound"
  | "onRunningChange"
  | "crossFilter"
  | "onDatumClick"
>;

export function useDashboardFiltering(
  widgets: readonly DashboardWidget[],
  options: { globalParamOrder?: unknown },
  filtersOn: boolean,
) {
  const [search] = useSearchParams();
  const formats = resolveFormats(useVisualizationFormats());
  const reports = useWidgetReports();
  const parameters = useDashboardParameters(widgets, options.globalParamOrder);
  const crossFilter = useDashboardCrossFilter(options);

  const filterBar: DashboardFilterBarProps = {
    parameters,
    filters: filtersOn
      ? { filters: reports.filterSelection, onChange: reports.setFilterSelection, formats }
      : undefined,
    crossFilters: crossFilter.bar,
  };

  const widgetProps = (widget: DashboardWidget): FilteringWidgetProps => ({
    values: widgetParameterValues(
      widget,
      widget.visualization?.query?.options.parameters ?? [],
      parameters.values,
      search,
    ),
    ownParameters: ownParameters(widget),
    onApplyOwn: parameters.applyWidgetValues,
    dashboardFilters: filtersOn ? reports.filterSelection : undefined,
    onFiltersFound: reports.onFiltersFound,
    onRunningChange: reports.onRunningChange,
    crossFilter: crossFilter.state,
    onDatumClick: crossFilter.onDatumClick,
  });

  return { reports, parameters, crossFilter, filterBar, widgetProps };
}
