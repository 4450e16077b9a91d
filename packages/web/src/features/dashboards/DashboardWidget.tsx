// One widget card of the grid (UI.md, Dashboards): a visualization of a query's result, a text
// box, or a locked card for a widget whose data source the viewer cannot see.
import {
  DeleteOutlined,
  EditOutlined,
  ExpandOutlined,
  LockOutlined,
  MoreOutlined,
  SyncOutlined,
} from "@ant-design/icons";
import { Alert, Button, Dropdown, Modal, Spin, Tooltip } from "antd";
import type { MenuProps } from "antd";
import { memo, useEffect, useMemo, useRef, useState } from "react";
import { Link } from "react-router";
import { readWidgetCrossFilterOptions, type ParameterDefinition } from "@sightline/core";
import { ParametersPanel } from "../queries/ParametersPanel";
import type { DashboardWidget as Widget, WidgetOptions } from "../../api/dashboards";
import { resultDownloadUrl } from "../../api/queries";
import { useNow } from "../admin/TimeAgo";
import { widgetFooterText } from "./widgetFooter";
import { useVisualizationFormats } from "../../app/visualizationFormats";
import { VisualizationRenderer, buildFilters, type ResultFilter } from "../../visualizations";
import { normalizeData } from "../../visualizations/lib/normalize";
import { applySelection } from "./dashboardFilters";
import {
  NO_CROSS_FILTER_ROWS,
  useCrossFilterParameterValues,
  useWidgetCrossFilter,
  type WidgetDatumClickHandler,
} from "./crossFilter/useWidgetCrossFilter";
import type { DashboardCrossFilter } from "./crossFilter/widgetCrossFilter";
import { WidgetFilterMark } from "./crossFilter/WidgetFilterMark";
import { useWidgetDrillDown } from "./drillDown/useWidgetDrillDown";
import { useWidgetClickActions } from "../../components/drillDown/widgetClickActions";
import { markdownHtml } from "./markdown";
import { useWidgetResult } from "./useWidgetResult";
import { usePaintTurn } from "./paintTurns";
import { useSpinning } from "./useSpinning";
import styles from "./DashboardWidget.module.css";

export const RESTRICTED_TEXT =
  "This widget requires access to a data source you don't have access to.";
export const WIDGET_NAME_LENGTH = 20;

/** A widget's name, cut at 20 characters (spec 3 §9). */
export function widgetName(widget: Widget): string {
  const name = widget.visualization
    ? (widget.visualization.query?.name ?? widget.visualization.name)
    : (widget.text ?? "").replace(/\s+/g, " ").trim();
  return name.length > WIDGET_NAME_LENGTH ? `${name.slice(0, WIDGET_NAME_LENGTH)}…` : name;
}

export interface WidgetProps {
  widget: Widget;
  editing: boolean;
  canViewQuery: boolean;
  /** Parameter values of the widget's query, by name. */
  values: Record<string, unknown>;
  refreshToken: number;
  onRemove: (widget: Widget) => void;
  onEditText: (widget: Widget) => void;
  onEditParameters: (widget: Widget) => void;
  /** The widget's own parameters (mapped to neither the dashboard nor a static value). */
  ownParameters: ParameterDefinition[];
  onApplyOwn: (widget: Widget, values: Record<string, unknown>) => void;
  /** The dashboard's filter selection, when dashboard-level filters are on. */
  dashboardFilters?: readonly ResultFilter[];
  /** Reports the filters the widget's result offers (dashboard-level filters are built from them). */
  onFiltersFound?: (widgetId: number, filters: ResultFilter[]) => void;
  /** Reports when the widget's query starts and stops running (the dashboard's Refresh spins). */
  onRunningChange?: (widgetId: number, running: boolean) => void;
  /** The public page: no widget menu and no refresh button (spec 3, public dashboard page). */
  readOnly?: boolean;
  /** The dashboard's cross-filters (issue 19); undefined when cross-filtering is off. */
  crossFilter?: DashboardCrossFilter;
  /** Where clicks on the widget's values (bars, slices, cells...) go. */
  onDatumClick?: WidgetDatumClickHandler;
  /** Edit mode: switches the widget's cross-filtering on or off. */
  onCrossFilterToggle?: (widget: Widget, enabled: boolean) => void;
  /** Keeps the widget's options saved by a setting (drill-down); without it none is offered. */
  onOptionsSaved?: (widgetId: number, options: WidgetOptions) => void;
}

/** The one wording of removing a widget: its menu item and its confirmation. */
export const REMOVE_WIDGET = "Remove from Dashboard";

function confirmRemove(widget: Widget, onRemove: (widget: Widget) => void) {
  Modal.confirm({
    title: REMOVE_WIDGET,
    content: `Are you sure you want to remove "${widgetName(widget)}" from the dashboard?`,
    okText: "Remove",
    okButtonProps: { danger: true },
    cancelText: "Cancel",
    onOk: () => onRemove(widget),
  });
}

export const DashboardWidgetCard = memo(function DashboardWidgetCard(props: WidgetProps) {
  const { widget } = props;
  if (widget.restricted) return <RestrictedWidget {...props} />;
  if (widget.visualization) return <VisualizationWidget {...props} />;
  return <TextboxWidget {...props} />;
});

function RestrictedWidget(props: WidgetProps) {
  return (
    <div className={styles.card} data-testid="widget" data-widget-type="restricted">
      <div className={styles.restricted}>
        <LockOutlined style={{ fontSize: 24 }} />
        <span>{RESTRICTED_TEXT}</span>
        {props.editing && (
          <Button size="small" danger onClick={() => confirmRemove(props.widget, props.onRemove)}>
            {REMOVE_WIDGET}
          </Button>
        )}
      </div>
    </div>
  );
}

function TextboxWidget(props: WidgetProps) {
  const { widget, editing } = props;
  const html = useMemo(() => markdownHtml(widget.text ?? ""), [widget.text]);
  const items: MenuProps["items"] = [
    { key: "edit", icon: <EditOutlined />, label: "Edit", onClick: () => props.onEditText(widget) },
    {
      key: "remove",
      icon: <DeleteOutlined />,
      danger: true,
      label: REMOVE_WIDGET,
      onClick: () => confirmRemove(widget, props.onRemove),
    },
  ];
  return (
    <div
      className={styles.card}
      style={{ position: "relative" }}
      data-testid="widget"
      data-widget-type="textbox"
    >
      <div className={styles.text} dangerouslySetInnerHTML={{ __html: html }} />
      {editing && (
        <Dropdown menu={{ items }} trigger={["click"]}>
          <Button
            className={`${styles.menu} ${styles.textMenu} no-drag`}
            type="text"
            size="small"
            icon={<MoreOutlined />}
            aria-label="Widget menu"
          />
        </Dropdown>
      )}
    </div>
  );
}

function VisualizationWidget(props: WidgetProps) {
  const { widget, editing } = props;
  const visualization = widget.visualization!;
  const query = visualization.query;
  // A cross-filter mapped to one of the query's parameters sets it (and the widget runs again).
  const values = useCrossFilterParameterValues(widget, props.values, props.crossFilter);
  const { state, result, refresh, running } = useWidgetResult(query, values, props.refreshToken);
  const cross = useWidgetCrossFilter(widget, result?.data, props.crossFilter, props.onDatumClick);
  const drill = useWidgetDrillDown(widget, {
    editing,
    readOnly: props.readOnly,
    columns: result?.data.columns,
    onSaved: props.onOptionsSaved,
  });
  // A click opens the drill-down link or cross-filters; with both, a menu offers either.
  const clickActions = useWidgetClickActions(drill.link, drill.onDatumClick, cross.onDatumClick);
  const formats = useVisualizationFormats();
  const { onRunningChange } = props;
  useEffect(() => {
    onRunningChange?.(widget.id, running);
  }, [running, onRunningChange]);
  useEffect(() => () => onRunningChange?.(widget.id, false), [onRunningChange]);
  const [expanded, setExpanded] = useState(false);
  const [pending, setPending] = useState<Record<string, unknown>>({});
  const now = useNow();

  const spec = useMemo(
    () => ({
      id: visualization.id,
      type: visualization.type,
      name: visualization.name,
      options: visualization.options,
    }),
    [visualization],
  );
  // With dashboard-level filters, the widget offers its filters to the dashboard's bar and shows
  // the rows its selection keeps.
  const ownFilters = useMemo(
    () => (result ? buildFilters(normalizeData(result.data)) : []),
    [result],
  );
  const { onFiltersFound } = props;
  useEffect(() => {
    if (result) onFiltersFound?.(widget.id, ownFilters);
  }, [ownFilters, onFiltersFound]);
  const selection = props.dashboardFilters;
  const controlled = useMemo(
    () => (selection ? applySelection(ownFilters, selection) : undefined),
    [ownFilters, selection],
  );

  const failed = state?.status === "failed";
  // Widgets draw one per frame, so a dashboard's results arriving together do not freeze it.
  const painted = usePaintTurn(result !== null);
  const bodyRef = useRef<HTMLDivElement>(null);
  const spinning = useSpinning(bodyRef);
  const body = failed ? (
    <div className={styles.center}>
      {/* A database's message keeps its lines (the caret under the error's position). */}
      <Alert
        className={styles.error}
        type="error"
        showIcon
        title={`Error running query: ${state.error ?? ""}`}
      />
    </div>
  ) : cross.filteredOut ? (
    <div
      className={styles.center}
      style={{ color: "var(--ant-color-text-secondary)" }}
      data-testid="cross-filter-empty"
    >
      {NO_CROSS_FILTER_ROWS}
    </div>
  ) : result && painted ? (
    <VisualizationRenderer
      visualization={spec}
      data={cross.data ?? result.data}
      context="widget"
      formats={formats}
      hideToolbox
      filters={controlled}
      hideFilters={controlled !== undefined}
      datumActions={clickActions}
      selection={cross.selection}
    />
  ) : (
    <div className={styles.center}>
      <Spin />
    </div>
  );

  const items: MenuProps["items"] = [];
  if (result && query) {
    for (const [format, label] of [
      ["csv", "Download as CSV File"],
      ["tsv", "Download as TSV File"],
      ["xlsx", "Download as Excel File"],
    ] as const) {
      items.push({
        key: format,
        label: (
          <a href={resultDownloadUrl(query.id, result.id, format)} download>
            {label}
          </a>
        ),
      });
    }
  }
  if (query && props.canViewQuery) {
    if (items.length > 0) items.push({ type: "divider" });
    items.push({
      key: "view",
      label: <Link to={`/queries/${query.id}#${visualization.id}`}>View Query</Link>,
    });
  }
  if (editing) {
    items.push({ type: "divider" });
    if ((query?.options.parameters ?? []).length > 0) {
      items.push({
        key: "parameters",
        label: "Edit Parameters",
        onClick: () => props.onEditParameters(widget),
      });
    }
    if (props.crossFilter && props.onCrossFilterToggle) {
      const on = readWidgetCrossFilterOptions(widget.options).enabled;
      items.push({
        key: "crossFilter",
        label: on ? "Turn Off Cross-filtering" : "Turn On Cross-filtering",
        onClick: () => props.onCrossFilterToggle?.(widget, !on),
      });
    }
    if (drill.menuItem) items.push(drill.menuItem);
    items.push({
      key: "remove",
      icon: <DeleteOutlined />,
      danger: true,
      label: REMOVE_WIDGET,
      onClick: () => confirmRemove(widget, props.onRemove),
    });
  }

  const title = (
    <div className={styles.title}>
      {query && props.canViewQuery ? (
        <Link to={`/queries/${query.id}#${visualization.id}`} className="no-drag">
          {query.name}
        </Link>
      ) : (
        <span>{query?.name ?? visualization.name}</span>
      )}
      {visualization.name && visualization.name !== "Table" && (
        <span className={styles.subtitle}> – {visualization.name}</span>
      )}
    </div>
  );

  return (
    <div className={styles.card} data-testid="widget" data-widget-type="visualization">
      <div className={styles.header}>
        {title}
        {cross.reach && <WidgetFilterMark reach={cross.reach} />}
        {items.length > 0 && !props.readOnly && (
          <Dropdown menu={{ items }} trigger={["click"]}>
            <Button
              className={`${styles.menu} no-drag`}
              type="text"
              size="small"
              icon={<MoreOutlined />}
              aria-label="Widget menu"
            />
          </Dropdown>
        )}
      </div>
      {props.ownParameters.length > 0 && (
        <div className={`${styles.ownParameters} no-drag`}>
          <ParametersPanel
            parameters={props.ownParameters}
            applied={props.values}
            pending={pending}
            onPendingChange={setPending}
            onApply={() => {
              props.onApplyOwn(widget, { ...props.values, ...pending });
              setPending({});
            }}
            parentQueryId={query?.id}
          />
        </div>
      )}
      <div className={styles.body} ref={bodyRef}>
        {body}
      </div>
      <div className={styles.footer} data-testid="widget-footer">
        <span
          style={failed ? { color: "var(--ant-color-error)" } : undefined}
          title={result ? new Date(result.retrieved_at).toLocaleString() : undefined}
        >
          {widgetFooterText(result?.retrieved_at, failed, now, !!result && painted && !spinning)}
        </span>
        <span className="no-drag">
          {!props.readOnly && (
            <Tooltip title="Refresh">
              <Button
                type="text"
                size="small"
                aria-label="Refresh"
                icon={<SyncOutlined spin={running} />}
                onClick={refresh}
                disabled={running}
              />
            </Tooltip>
          )}
          <Tooltip title="Expand">
            <Button
              type="text"
              size="small"
              aria-label="Expand"
              icon={<ExpandOutlined />}
              onClick={() => setExpanded(true)}
            />
          </Tooltip>
        </span>
      </div>
      <Modal
        open={expanded}
        width="95%"
        title={title}
        onCancel={() => setExpanded(false)}
        footer={<Button onClick={() => setExpanded(false)}>Close</Button>}
        destroyOnHidden
      >
        <div style={{ height: "70vh", display: "flex", flexDirection: "column" }}>{body}</div>
      </Modal>
      {drill.dialog}
    </div>
  );
}
