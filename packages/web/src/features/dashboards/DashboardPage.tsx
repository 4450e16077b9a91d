// /dashboards/{id}-{slug} and the legacy /dashboard/{slug} (spec 3 §2): the header, the grid of
// widgets, and edit mode (layout, text boxes, widgets) for those who may edit.
import { AppstoreAddOutlined, FileTextOutlined, PlusOutlined } from "@ant-design/icons";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Checkbox, Skeleton, Typography } from "antd";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useParams, useSearchParams } from "react-router";
import {
  archiveDashboard,
  dashboardIdFromPath,
  getDashboard,
  getDashboardTags,
  setDashboardFavorite,
  type DashboardDetail,
  type DashboardWidget,
} from "../../api/dashboards";
import { ErrorScreen } from "../../app/ErrorScreen";
import { notify } from "../../app/notifications";
import { hasPermission, isAdmin } from "../../app/permissions";
import { useSession } from "../../app/session";
import { AddWidgetDialog } from "./AddWidgetDialog";
import { DashboardGrid } from "./DashboardGrid";
import { DashboardHeader } from "./DashboardHeader";
import { DashboardWidgetCard } from "./DashboardWidget";
import { DrillDownBreadcrumbs } from "./drillDown/DrillDownBreadcrumbs";
import { widgetPositions } from "./widgetSize";
import { useLeaveAfterSave } from "./useLeaveAfterSave";
import { refreshInterval } from "./refreshInterval";
import { TextboxDialog } from "./TextboxDialog";
import { WidgetParametersDialog } from "./WidgetParametersDialog";
import { useLayoutSaver } from "./useLayoutSaver";
import { useDashboardSave } from "./useDashboardSave";
import { useWidgetEditing } from "./useWidgetEditing";
import { DashboardFilterBar } from "./DashboardFilterBar";
import { DashboardVersionHistory } from "./versions/DashboardVersionHistory";
import { escapeIsFree } from "./crossFilter/CrossFilterBar";
import { CrossFilterSettingsButton } from "./crossFilter/CrossFilterSettingsDialog";
import { useWidgetCrossFilterSwitch } from "./crossFilter/useDashboardCrossFilter";
import { useDashboardFiltering } from "./useDashboardFiltering";
import { TOP_BAR_HEIGHT } from "../../app/theme";
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
  const [refreshToken, setRefreshToken] = useState(0);
  const [addingWidget, setAddingWidget] = useState(false);
  const [textbox, setTextbox] = useState<{ widget?: DashboardWidget } | null>(null);
  const [leaving, setLeaving] = useState(false);
  const [historyOpen, setHistoryOpen] = useState(false);
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

  // Escape leaves fullscreen, once no cross-filter is left for it to remove (CrossFilterBar).
  // The listener stays for the page's life and reads the address when the key comes: an Escape
  // pressed at once after entering fullscreen, before this page re-rendered, still leaves it.
  const crossFiltersSet = useRef(false);
  crossFiltersSet.current = crossFilter.bar.filters.length > 0;
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || !escapeIsFree(event) || crossFiltersSet.current) return;
      if (new URLSearchParams(window.location.search).has("fullscreen")) {
        setFlag("fullscreen", null);
      }
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [setFlag]);

  // Auto-refresh every N seconds while the page is open.
  useEffect(() => {
    if (refreshSeconds === null) return;
    const id = setInterval(() => setRefreshToken((t) => t + 1), refreshSeconds * 1000);
    return () => clearInterval(id);
  }, [refreshSeconds]);

  const { save, conflict, settled } = useDashboardSave(dashboard, setDashboard);

  // Leaving the page with layout changes not saved yet saves them first, and asks only when that
  // fails (spec 3 §4).
  useLeaveAfterSave(
    editing,
    () => saver.pending.size > 0 || saver.status !== "saved",
    async () => (await Promise.all([saver.flush(), settled()])).every(Boolean),
  );

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
    // Done Editing waits for saves in flight (the layout, a rename) and leaves once everything is
    // saved; a save that failed keeps edit mode, with its error and the typed changes shown.
    const [layoutSaved, dashboardSaved] = await Promise.all([saver.flush(), settled()]);
    setLeaving(false);
    if (layoutSaved && dashboardSaved) setFlag("edit", null);
  }

  const editor = useWidgetEditing(dashboard.id, setWidgets, () => [...positions.values()]);
  const editText = useCallback((widget: DashboardWidget) => setTextbox({ widget }), []);

  const visible = widgets.filter((w) => !w.options.isHidden);
  const renderWidget = (widget: DashboardWidget) => (
    <DashboardWidgetCard
      widget={widget}
      editing={editing}
      canViewQuery={canViewQuery}
      refreshToken={refreshToken}
      onRemove={editor.removeWidget}
      onEditText={editText}
      onEditParameters={setEditingParameters}
      {...filtering.widgetProps(widget)}
      onCrossFilterToggle={switchWidgetCrossFilter}
      onOptionsSaved={editor.keepOptions}
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
          action={
            // What the other save changed, from the dashboard's history (issue 29).
            <Button size="small" onClick={() => setHistoryOpen(true)}>
              Version History
            </Button>
          }
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
        onVersionHistory={() => setHistoryOpen(true)}
      />
      {historyOpen && (
        <DashboardVersionHistory
          dashboard={dashboard}
          canEdit={canEdit}
          onRestored={(restored) => {
            setDashboard((current) => ({ ...current, ...restored, can_edit: current.can_edit }));
            setWidgets(restored.widgets ?? []);
          }}
          onClose={() => setHistoryOpen(false)}
        />
      )}
      {/* Fullscreen covers the top bar: the bar sticks to the very top there. */}
      <DashboardFilterBar {...filtering.filterBar} stickyTop={fullscreen ? 0 : TOP_BAR_HEIGHT} />
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
        onAdd={editor.addVisualization}
        onClose={() => setAddingWidget(false)}
      />
      <WidgetParametersDialog
        widget={editingParameters}
        dashboardParameters={params}
        onSave={editor.saveMappings}
        onClose={() => setEditingParameters(null)}
      />
      <TextboxDialog
        open={textbox !== null}
        initialText={textbox?.widget ? (textbox.widget.text ?? "") : undefined}
        onSave={(text) => editor.saveTextbox(text, textbox?.widget)}
        onClose={() => setTextbox(null)}
      />
    </div>
  );
}
