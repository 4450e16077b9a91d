// The page's side of cross-filtering (issue 19): the dashboard's settings, the filters in the
// address, what each widget receives, clicks turned into filters, and the editors' settings
// saved as extra `options` keys (Redash ignores them).
import {
  crossFilterColumn,
  crossFilterValue,
  readDashboardCrossFilterOptions,
  readWidgetCrossFilterOptions,
  type DashboardCrossFilterOptions,
} from "@sightline/core";
import { useCallback, useMemo, useRef } from "react";
import { saveWidget, type DashboardWidget } from "../../../api/dashboards";
import { notify } from "../../../app/notifications";
import { widgetErrorText } from "../widgetSaveError";
import type { CrossFilterBarProps } from "./CrossFilterBar";
import { useCrossFilters } from "./useCrossFilters";
import type { WidgetDatumClickHandler } from "./useWidgetCrossFilter";
import type { DashboardCrossFilter } from "./widgetCrossFilter";

export interface DashboardCrossFilterControls {
  settings: DashboardCrossFilterOptions;
  /** For each widget; undefined when the dashboard has cross-filtering off. */
  state: DashboardCrossFilter | undefined;
  /** Stable: a click in a widget selects (or unselects) its value. */
  onDatumClick: WidgetDatumClickHandler;
  bar: CrossFilterBarProps;
  /** Each widget's result columns, as far as loaded (for the settings dialog's suggestions). */
  knownColumns: ReadonlyMap<number, readonly string[]>;
}

const NO_FILTERS: never[] = [];

export function useDashboardCrossFilter(dashboardOptions: unknown): DashboardCrossFilterControls {
  const settings = useMemo(
    () => readDashboardCrossFilterOptions(dashboardOptions),
    [dashboardOptions],
  );
  const cross = useCrossFilters();
  // A dashboard with cross-filtering off ignores any `cf` in its address.
  const filters = settings.enabled ? cross.filters : NO_FILTERS;
  // Filled as widgets load; read when the settings dialog opens (no re-render needed).
  const known = useRef(new Map<number, readonly string[]>());
  const onColumns = useCallback((widgetId: number, columns: readonly string[]) => {
    known.current.set(widgetId, columns);
  }, []);
  const state = useMemo(
    () =>
      settings.enabled
        ? { filters, mappings: settings.mappings, parameters: settings.parameters, onColumns }
        : undefined,
    [settings, filters, onColumns],
  );

  const latest = useRef({ settings, toggle: cross.toggle });
  latest.current = { settings, toggle: cross.toggle };
  const onDatumClick = useCallback<WidgetDatumClickHandler>((widget, click) => {
    const { settings, toggle } = latest.current;
    if (!settings.enabled || !readWidgetCrossFilterOptions(widget.options).enabled) return;
    toggle(
      {
        widget: widget.id,
        column: crossFilterColumn(widget.id, click.column, settings.mappings),
        type: click.columnType,
        value: crossFilterValue(click.value, click.columnType),
      },
      { add: click.additive },
    );
  }, []);

  return {
    settings,
    state,
    onDatumClick,
    knownColumns: known.current,
    bar: {
      filters,
      onRemove: cross.remove,
      onClear: cross.clear,
      onRemoveLast: cross.removeLast,
    },
  };
}

/** Edit mode: a widget's cross-filtering switched on or off, saved in its options. */
export function useWidgetCrossFilterSwitch(
  setWidgets: (update: (current: DashboardWidget[]) => DashboardWidget[]) => void,
) {
  return useCallback(
    async (widget: DashboardWidget, enabled: boolean) => {
      const current = readWidgetCrossFilterOptions(widget.options);
      if (current.enabled === enabled) return;
      const raw = widget.options.crossFilter;
      const previous = raw && typeof raw === "object" && !Array.isArray(raw) ? raw : {};
      const options = { ...widget.options, crossFilter: { ...previous, enabled } };
      try {
        await saveWidget(widget.id, { text: widget.text ?? "", options });
        setWidgets((all) => all.map((w) => (w.id === widget.id ? { ...w, options } : w)));
      } catch (error) {
        notify.error("Widget could not be saved", widgetErrorText(error));
      }
    },
    [setWidgets],
  );
}
