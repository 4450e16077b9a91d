// /dashboards/{id}-{slug} and the legacy /dashboard/{slug} (spec 3 §2): the header, the grid of
// widgets, and edit mode (layout, text boxes, widgets) for those who may edit.
import { AppstoreAddOutlined, FileTextOutlined, PlusOutlined } from "@ant-design/icons";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Checkbox, Skeleton, Typography } from "antd";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useParams, useSearchParams } from "react-router";
import type { Query, Visualization } from "@sightline/core";
import {
  archiveDashboard,
  createWidget,
  dashboardIdFromPath,
  deleteWidget,
  getDashboard,
  getDashboardTags,
  saveDashboard,
  saveWidget,
  setDashboardFavorite,
  type DashboardDetail,
  type DashboardSaveBody,
  type DashboardWidget,
  type ParameterMapping,
} from "../../api/dashboards";
import { isApiError } from "../../api/errors";
import { ErrorScreen } from "../../app/ErrorScreen";
import { notify } from "../../app/notifications";
import { hasPermission, isAdmin } from "../../app/permissions";
import { useSession } from "../../app/session";
import { AddWidgetDialog } from "./AddWidgetDialog";
import { DashboardGrid } from "./DashboardGrid";
import { DashboardHeader } from "./DashboardHeader";
import { DashboardWidgetCard } from "./DashboardWidget";
import { DrillDownBreadcrumbs } from "./drillDown/DrillDownBreadcrumbs";
import { placeNewWidget, widgetPositions } from "./widgetSize";
import { useLeaveWarning } from "../queries/useLeaveWarning";
import { refreshInterval } from "./refreshInterval";
import { TextboxDialog } from "./TextboxDialog";
import { WidgetParametersDialog } from "./WidgetParametersDialog";
import { useLayoutSaver } from "./useLayoutSaver";
import { useSerialSaves } from "./useSerialSaves";
import { isWidgetGone, widgetErrorText } from "./widgetSaveError";
import { useDashboardAddress } from "./useDashboardAddress";
import { DashboardFilterBar } from "./DashboardFilterBar";
import { CrossFilterSettingsButton } from "./crossFilter/CrossFilterSettingsDialog";
import { useWidgetCrossFilterSwitch } from "./crossFilter/useDashboardCrossFilter";
import { useDashboardFiltering } from "./useDashboardFiltering";
import styles from "./DashboardPage.module.css";

export const CONFLICT_MESSAGE = "It seems like the dashboard has been modified by another user. ";
export const CONFLICT_DESCRIPTION = "Please copy/backup your changes and reload this page.";

/** What the route names: an id (from "12-sales") or, on the legacy route, a slug. */
function useDashboardKey(): { key: string; legacy: boolean } {
  const { dashboardId, dashboardSlug } = useParams();
  if (dashboardSlug !== undefined) return { key: dashboardSlug, legacy: true };
  const id = dashboardIdFromPath(dashboardId ?? "");
  return { key: id === null ? (dashboardId ?? "") : String(id), legacy: false };
}

export default function DashboardPage() {
  const { key, legacy } = useDashboardKey();
  const dashboard = useQuery({
    queryKey: ["dashboard", legacy ? "slug" : "id", key],
    queryFn: () => getDashboard(key, legacy),
    retry: false,
    refetchOnWindowFocus: false,
  });
  if (dashboard.isError) return <ErrorScreen error={dashboard.error} />;
  if (dashboard.isPending) return <Skeleton active paragraph={{ rows: 8 }} />;
  return <LoadedDashboard key={dashboard.data.id} initial={dashboard.data} />;
}

function LoadedDashboard({ initial }: { initial: DashboardDetail }) {
  const session = useSession();
  const config = session.client_config;
  const queryClient = useQueryClient();
  const [search, setSearch] = useSearchParams();
  const [dashboard, setDashboard] = useState(initial);
  const [widgets, setWidgets] = useState<DashboardWidget[]>(initial.widgets ?? []);
  const [conflict, setConflict] = useState(false);
  const [refreshToken, setRefreshToken] = useState(0);
  const [addingWidget, setAddingWidget] = useState(false);
  const [textbox, setTextbox] = useState<{ widget?: DashboardWidget } | null>(null);
  const [leaving, setLeaving] = useState(false);
  const [editingParameters, setEditingParameters] = useState<DashboardWidget | null>(null);
  const filtersOn = dashboard.dashboard_filters_enabled;
  const filtering = useDashboardFiltering(widgets, dashboard.options, filtersOn);
  const { reports, parameters, crossFilter } = filtering;
  const { params } = parameters;
  const switchWidgetCrossFilter = useWidgetCrossFilterSwitch(setWidgets);

  const canEdit = !!dashboard.can_edit && !dashboard.is_archived;
  const editing = canEdit && search.has("edit");
  const canManagePermissions =
    canEdit &&
    !!config.showPermissionsControl &&
    (isAdmin(session.user) || session.user.id === dashboard.user_id);
  const fullscreen = search.has("fullscreen");
  const allowedIntervals = config.dashboardRefreshIntervals ?? [];
  const refreshSeconds = refreshInterval(search.get("refresh"), allowedIntervals);
  const canViewQuery = hasPermission(session.user, "view_query");
  const tags = useQuery({ queryKey: ["dashboards", "tags"], queryFn: getDashboardTags });

  // Flags are set on the address as it is when they are set, not as it was when the handler was
  // made: Done Editing sets one after awaiting a save, while parameters may have been applied.
  const latestSearch = useRef({ search, setSearch });
  latestSearch.current = { search, setSearch };
  const setFlag = useCallback((name: string, value: string | null) => {
    const { search: current, setSearch: set } = latestSearch.current;
    const next = new URLSearchParams(current);
    if (value === null) next.delete(name);
    else next.set(name, value);
    set(next, { replace: true });
  }, []);

  const showAddressOf = useDashboardAddress();

  const saver = useLayoutSaver(widgets, (saved) =>
    setWidgets((current) =>
      current.map((w) => {
        const fresh = saved.find((s) => s.id === w.id);
        return fresh ? { ...w, options: fresh.options, updated_at: fresh.updated_at } : w;
      }),
    ),
  );
  const positions = useMemo(() => {
    const out = widgetPositions(widgets);
    for (const [id, position] of saver.pending) if (out.has(id)) out.set(id, position);
    return out;
  }, [widgets, saver.pending]);

  // Auto-refresh every N seconds while the page is open.
  useEffect(() => {
    if (refreshSeconds === null) return;
    const id = setInterval(() => setRefreshToken((t) => t + 1), refreshSeconds * 1000);
    return () => clearInterval(id);
  }, [refreshSeconds]);

  // Leaving the page with layout changes not saved yet asks first (spec 3 §4).
  useLeaveWarning(editing, () => saver.pending.size > 0 || saver.status !== "saved");

  const serialSave = useSerialSaves(dashboard.version);
  async function save(changes: DashboardSaveBody) {
    try {
      const saved = await serialSave((version) =>
        saveDashboard(dashboard.id, { ...changes, version }),
      );
      setDashboard((current) => ({
        ...current,
        ...saved,
        widgets: current.widgets,
        can_edit: current.can_edit,
      }));
      if (changes.name !== undefined) showAddressOf(saved);
      queryClient.invalidateQueries({ queryKey: ["dashboards"] });
    } catch (error) {
      if (isApiError(error) && error.status === 409) {
        setConflict(true);
        // The conflict message asks the user to copy their changes: the typed title stays shown.
        const typed = changes.name;
        if (typed !== undefined) setDashboard((current) => ({ ...current, name: typed }));
      } else if (isApiError(error) && error.status === 403)
        notify.error("Dashboard update failed", "Permission Denied.");
      else notify.error("Dashboard update failed", error instanceof Error ? error.message : "");
    }
  }

  async function archive() {
    try {
      const archived = await archiveDashboard(dashboard.id);
      setDashboard((current) => ({
        ...current,
        ...archived,
        is_archived: true,
        widgets: current.widgets,
      }));
      setFlag("edit", null);
      queryClient.invalidateQueries({ queryKey: ["dashboards"] });
    } catch (error) {
      notify.error("Dashboard update failed", error instanceof Error ? error.message : "");
    }
  }

  async function doneEditing() {
    setLeaving(true);
    // Done Editing waits for a save in flight and leaves once everything is saved.
    const ok = await saver.flush();
    setLeaving(false);
    if (ok) setFlag("edit", null);
  }

  const existingPositions = () => [...positions.values()];

  async function addVisualization(
    visualization: Visualization,
    query: Query,
    parameterMappings: Record<string, ParameterMapping>,
  ) {
    try {
      const widget = await createWidget({
        dashboard_id: dashboard.id,
        visualization_id: visualization.id,
        text: "",
        width: 1,
        options: {
          isHidden: false,
          position: placeNewWidget(existingPositions(), visualization.type),
          parameterMappings,
        },
      });
      // The answer's visualization may come without its query: the dialog has it.
      const visualizationWithQuery = { ...visualization, query, ...widget.visualization };
      if (!visualizationWithQuery.query) visualizationWithQuery.query = query;
      setWidgets((current) => [...current, { ...widget, visualization: visualizationWithQuery }]);
    } catch (error) {
      notify.error("Widget could not be added", error instanceof Error ? error.message : "");
      throw error;
    }
  }

  async function saveTextbox(text: string, widget?: DashboardWidget) {
    if (widget) {
      try {
        const saved = await saveWidget(widget.id, { text, options: widget.options });
        setWidgets((current) =>
          current.map((w) => (w.id === widget.id ? { ...w, text: saved.text ?? text } : w)),
        );
      } catch (error) {
        notify.error("Widget could not be saved", widgetErrorText(error));
        throw error;
      }
      return;
    }
    try {
      const created = await createWidget({
        dashboard_id: dashboard.id,
        visualization_id: null,
        text,
        width: 1,
        options: { isHidden: false, position: placeNewWidget(existingPositions()) },
      });
      setWidgets((current) => [...current, created]);
    } catch (error) {
      notify.error("Widget could not be added", error instanceof Error ? error.message : "");
      throw error;
    }
  }

  const removeWidget = useCallback(async (widget: DashboardWidget) => {
    try {
      await deleteWidget(widget.id);
      setWidgets((current) => current.filter((w) => w.id !== widget.id));
    } catch (error) {
      // Removed elsewhere already: what the user asked for is done.
      if (isWidgetGone(error)) setWidgets((current) => current.filter((w) => w.id !== widget.id));
      else notify.error("Widget cannot be updated", widgetErrorText(error));
    }
  }, []);
  const editText = useCallback((widget: DashboardWidget) => setTextbox({ widget }), []);
  const keepOptions = useCallback(
    (id: number, options: DashboardWidget["options"]) =>
      setWidgets((current) => current.map((w) => (w.id === id ? { ...w, options } : w))),
    [],
  );

  async function saveMappings(
    widget: DashboardWidget,
    parameterMappings: Record<string, ParameterMapping>,
  ) {
    const options = { ...widget.options, parameterMappings };
    try {
      await saveWidget(widget.id, { text: widget.text ?? "", options });
      setWidgets((current) => current.map((w) => (w.id === widget.id ? { ...w, options } : w)));
    } catch (error) {
      notify.error("Widget could not be saved", widgetErrorText(error));
      throw error;
    }
  }

  const visible = widgets.filter((w) => !w.options.isHidden);
  const renderWidget = (widget: DashboardWidget) => (
    <DashboardWidgetCard
      widget={widget}
      editing={editing}
      canViewQuery={canViewQuery}
      refreshToken={refreshToken}
      onRemove={removeWidget}
      onEditText={editText}
      onEditParameters={setEditingParameters}
      {...filtering.widgetProps(widget)}
      onCrossFilterToggle={switchWidgetCrossFilter}
      onOptionsSaved={keepOptions}
    />
  );

  return (
    <div className={fullscreen ? styles.fullscreen : styles.page} data-testid="dashboard-page">
      {conflict && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 16 }}
          title={CONFLICT_MESSAGE}
          description={CONFLICT_DESCRIPTION}
        />
      )}
      <DrillDownBreadcrumbs />
      <DashboardHeader
        dashboard={dashboard}
        editing={editing}
        canEdit={canEdit}
        canManagePermissions={canManagePermissions}
        publicUrlsDisabled={!!config.disablePublicUrls}
        publishDisabled={!!config.disablePublish}
        saveStatus={leaving && saver.status === "saved" ? "saving" : saver.status}
        refreshing={reports.anyRunning}
        refreshSeconds={refreshSeconds}
        allowedIntervals={allowedIntervals}
        fullscreen={fullscreen}
        allTags={(tags.data ?? []).map((t) => t.name)}
        onSave={save}
        onFavorite={async (favorite) => {
          await setDashboardFavorite(dashboard.id, favorite);
          setDashboard((current) => ({ ...current, is_favorite: favorite }));
          queryClient.invalidateQueries({ queryKey: ["favorites"] });
        }}
        onRefresh={() => setRefreshToken((t) => t + 1)}
        onRefreshInterval={(seconds) =>
          setFlag("refresh", seconds === null ? null : String(seconds))
        }
        onFullscreen={(on) => setFlag("fullscreen", on ? "" : null)}
        onEdit={() => setFlag("edit", "")}
        onDoneEditing={doneEditing}
        onRetrySave={saver.retry}
        onArchive={archive}
        onPublicUrlChange={(publicUrl) =>
          setDashboard((current) => ({ ...current, public_url: publicUrl ?? undefined }))
        }
      />
      <DashboardFilterBar {...filtering.filterBar} />
      {editing && (
        // Clear of the grid's dashed edit outline, which stands 6 px outside the grid.
        <div className={styles.editOptions}>
          <Checkbox
            checked={filtersOn}
            onChange={(e) => void save({ dashboard_filters_enabled: e.target.checked })}
            data-testid="dashboard-filters-enabled"
          >
            Use Dashboard Level Filters
          </Checkbox>
          <CrossFilterSettingsButton
            settings={crossFilter.settings}
            stored={dashboard.options.crossFilter}
            widgets={widgets}
            knownColumns={crossFilter.knownColumns}
            onSave={(next) => save({ options: { ...dashboard.options, crossFilter: next } })}
          />
        </div>
      )}
      {visible.length === 0 && editing ? null : visible.length === 0 ? (
        // In edit mode an empty grid would be an empty dashed box: the add panel below says
        // what goes here.
        <div className={styles.empty} data-testid="dashboard-empty">
          <Typography.Paragraph type="secondary">This dashboard is empty.</Typography.Paragraph>
          {canEdit && (
            <Button icon={<PlusOutlined />} onClick={() => setFlag("edit", "")}>
              Edit
            </Button>
          )}
        </div>
      ) : (
        <DashboardGrid
          widgets={visible}
          positions={positions}
          editing={editing}
          onPositionsChange={saver.change}
          renderWidget={renderWidget}
        />
      )}
      {editing && (
        <div className={styles.addPanel} data-testid="add-widget-panel">
          <Typography.Text type="secondary">
            Add a text box or a query's visualization to this dashboard.
          </Typography.Text>
          <span className={styles.controls}>
            <Button icon={<FileTextOutlined />} onClick={() => setTextbox({})}>
              Add Textbox
            </Button>
            <Button
              type="primary"
              icon={<AppstoreAddOutlined />}
              onClick={() => setAddingWidget(true)}
            >
              Add Widget
            </Button>
          </span>
        </div>
      )}
      <AddWidgetDialog
        open={addingWidget}
        dashboardParameters={params}
        onAdd={addVisualization}
        onClose={() => setAddingWidget(false)}
      />
      <WidgetParametersDialog
        widget={editingParameters}
        dashboardParameters={params}
        onSave={saveMappings}
        onClose={() => setEditingParameters(null)}
      />
      <TextboxDialog
        open={textbox !== null}
        initialText={textbox?.widget ? (textbox.widget.text ?? "") : undefined}
        onSave={(text) => saveTextbox(text, textbox?.widget)}
        onClose={() => setTextbox(null)}
      />
    </div>
  );
}
