import { Alert, Spin } from "antd";
import { memo, Suspense, useEffect, useMemo, useState } from "react";
import { VisualizationErrorBoundary } from "./components/ErrorBoundary";
import { DatumMenuOpen } from "./components/datumMenuOpen";
import { clickHint, useDatumClicks } from "./components/useDatumClicks";
import { RenderContextValue } from "./components/renderContextValue";
import { findDefinition } from "./definitions";
import { asObject } from "./lib/merge";
import { normalizeData } from "./lib/normalize";
import { ResultFilters } from "./ResultFilters";
import { buildFilters, filterData, type ResultFilter } from "./resultFilters";
import {
  resolveFormats,
  type DatumAction,
  type DatumClick,
  type DatumSelection,
  type Options,
  type QueryResultData,
  type RenderContext,
  type VisualizationFormats,
  type VisualizationSpec,
} from "./types";

export interface VisualizationRendererProps {
  visualization: VisualizationSpec;
  data: QueryResultData;
  context?: RenderContext;
  onOptionsChange?: (options: Options) => void;
  formats?: Partial<VisualizationFormats>;
  hideToolbox?: boolean;
  /** Hide the result filter bar (the editor preview draws its own). */
  hideFilters?: boolean;
  /** Filter selections controlled from outside (dashboard-level filters). */
  filters?: ResultFilter[];
  onFiltersChange?: (filters: ResultFilter[]) => void;
  /** Clicks on values (bars, slices, points, regions, cells); see RendererProps. */
  onDatumClick?: (click: DatumClick) => void;
  /**
   * What a click on a value does, said in the tooltip; with several, a click offers them in a
   * menu. Takes the place of onDatumClick. Keep the array the same between renders.
   */
  datumActions?: readonly DatumAction[];
  /** Values the visualization highlights; see RendererProps. */
  selection?: DatumSelection;
}

/**
 * Normalizes the data, shows the result filters and draws the visualization inside an error
 * boundary. Memoised: a dashboard re-rendering for a cross-filter leaves unaffected widgets be.
 */
export const VisualizationRenderer = memo(function VisualizationRenderer(
  props: VisualizationRendererProps,
) {
  const { visualization, context = "query", hideToolbox, onOptionsChange } = props;
  const formats = useMemo(() => resolveFormats(props.formats), [props.formats]);
  const data = useMemo(() => normalizeData(props.data), [props.data]);
  const [ownFilters, setOwnFilters] = useState<ResultFilter[]>(() => buildFilters(data));
  // New rows without filter columns keep the same (empty) list: no second render.
  useEffect(() => {
    const next = buildFilters(data);
    setOwnFilters((current) => (current.length === 0 && next.length === 0 ? current : next));
  }, [data]);
  const filters = props.filters ?? ownFilters;
  const setFilters = props.onFiltersChange ?? setOwnFilters;
  const filtered = useMemo(() => filterData(data, filters), [data, filters]);
  const definition = findDefinition(visualization?.type);
  const options = useMemo(() => asObject(visualization?.options), [visualization?.options]);
  const { onDatumClick, datumActions } = props;
  const actions = useMemo(
    () =>
      datumActions ??
      (onDatumClick ? [{ key: "click", label: () => "", hint: "", run: onDatumClick }] : undefined),
    [datumActions, onDatumClick],
  );
  const clicks = useDatumClicks(actions);
  const hint = useMemo(() => clickHint(actions), [actions]);
  // A new visualization or new rows give a broken renderer another chance.
  const resetKey = useMemo(() => ({}), [visualization, filtered]);

  if (!definition) {
    return (
      <div className="sightline-visualization">
        <Alert
          type="warning"
          showIcon
          title={`Unknown visualization type: ${String(visualization?.type)}`}
        />
      </div>
    );
  }
  const { Renderer } = definition;
  return (
    <div
      className="sightline-visualization"
      style={{ height: "100%", display: "flex", flexDirection: "column" }}
    >
      {props.hideFilters ? null : (
        <ResultFilters filters={filters} onChange={setFilters} formats={formats} />
      )}
      <div {...clicks.wrapperProps} style={{ flex: 1, minHeight: 0, position: "relative" }}>
        <VisualizationErrorBoundary resetKey={resetKey}>
          {/* Chart types load their drawing code on first use (definitions.ts). */}
          <Suspense fallback={<Spin />}>
            <RenderContextValue.Provider value={context}>
              <DatumMenuOpen.Provider value={clicks.menuOpen}>
                <Renderer
                  name={visualization.name}
                  options={options}
                  data={filtered}
                  formats={formats}
                  context={context}
                  onOptionsChange={onOptionsChange}
                  hideToolbox={hideToolbox}
                  onDatumClick={clicks.onDatumClick}
                  clickHint={hint}
                  selection={props.selection}
                />
              </DatumMenuOpen.Provider>
            </RenderContextValue.Provider>
          </Suspense>
        </VisualizationErrorBoundary>
        {clicks.menu}
      </div>
    </div>
  );
});
