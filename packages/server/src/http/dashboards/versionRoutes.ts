// A dashboard's version history: the list, one version as the dashboard was (with its widgets),
// and restoring one.
import type { FastifyInstance } from "fastify";
import type { Identity } from "../../auth/identity";
import type { AppContext } from "../../context";
import { accessAllows, queryAccess, requirePermission } from "../../policies";
import { presentDashboard } from "../../presenters/dashboards";
import { presentWidgets } from "../../presenters/widgets";
import {
  dashboardAtVersion,
  dashboardVersions,
  restoreDashboard,
  widgetsToAddAgain,
  type DashboardSnapshot,
} from "../../services/dashboardVersions";
import { readWidgetSources } from "../../services/widgetSources";
import { groupLinksOf } from "../../store/dataSources";
import { findDashboard } from "../../store/dashboards";
import { findQuery } from "../../store/queries";
import { findVisualization } from "../../store/visualizations";
import { widgetsOf } from "../../store/widgets";
import { forbidden } from "../errors";
import * as S from "../schemas";
import {
  expectedVersion,
  requireVersion,
  restoreVersion,
  versionDocs,
  versionListPage,
  versionPage,
  type VersionParams,
} from "../versions";
import { userIdOf, type DashboardSupport, type Params } from "./support";
import { requireWidgetCount } from "./widgetLimit";

const docs = versionDocs("dashboards", "dashboard", S.dashboard);

export const WIDGET_REFUSED =
  "This version shows a visualization you may not view, so you cannot restore it.";

export function dashboardVersionRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  support: DashboardSupport,
): void {
  const { db } = ctx.database;
  const { loadDashboard, event, presentWithWidgets, requireModify } = support;

  /**
   * Widgets added again need what adding them needs: a visualization (one deleted since is left
   * out: its widget's id is in the answer) whose query the caller may view.
   */
  async function widgetsToSkip(
    identity: Identity,
    orgId: number,
    snapshot: DashboardSnapshot,
    dashboardId: number,
  ): Promise<Set<number>> {
    const current = (await widgetsOf(db, [dashboardId])).get(dashboardId) ?? [];
    const skip = new Set<number>();
    for (const w of widgetsToAddAgain(snapshot, current)) {
      if (w.visualization_id === null) continue;
      const visualization = await findVisualization(db, orgId, w.visualization_id);
      const query = visualization && (await findQuery(db, orgId, visualization.query_id));
      if (!visualization || !query || query.is_archived) {
        skip.add(w.id);
        continue;
      }
      const links =
        query.data_source_id === null ? [] : await groupLinksOf(db, query.data_source_id);
      if (!accessAllows(await queryAccess(db, identity, query, links), "view")) {
        throw forbidden(WIDGET_REFUSED);
      }
    }
    requireWidgetCount(snapshot.widgets.length - skip.size);
    return skip;
  }

  app.get<{ Params: Params }>(
    "/api/dashboards/:id/versions",
    { schema: docs.list },
    async (request) => {
      const { org } = requirePermission(request, "list_dashboards");
      const { page, pageSize } = versionPage(request);
      const dashboard = await loadDashboard(request, org.id);
      return versionListPage(db, dashboardVersions, dashboard.id, { page, pageSize });
    },
  );

  app.get<{ Params: VersionParams }>(
    "/api/dashboards/:id/versions/:version",
    { schema: docs.get },
    async (request) => {
      const { identity, org } = requirePermission(request, "list_dashboards");
      const dashboard = await loadDashboard(request, org.id);
      const record = await requireVersion(db, dashboardVersions, dashboard.id, request);
      const current = (await widgetsOf(db, [dashboard.id])).get(dashboard.id) ?? [];
      const then = dashboardAtVersion(dashboard, current, record);
      // Widgets are shown as the caller may see them today (restricted ones keep nothing).
      const sources = await readWidgetSources(db, identity, org.id, then.widgets, [
        dashboard.user_id,
      ]);
      return presentDashboard(then.dashboard, {
        owner: sources.users.get(dashboard.user_id),
        widgets: presentWidgets(then.widgets, sources),
      });
    },
  );

  app.post<{ Params: VersionParams }>(
    "/api/dashboards/:id/versions/:version/restore",
    { schema: docs.restore },
    async (request) => {
      const { identity, org } = requirePermission(request, "edit_dashboard");
      const sent = expectedVersion(request.body);
      const dashboard = await loadDashboard(request, org.id);
      await requireModify(identity, dashboard);
      await restoreVersion(db, request, {
        kind: dashboardVersions,
        object: dashboard,
        sent,
        userId: userIdOf(identity),
        keep: ctx.config.versionsPerObject,
        check: (snapshot: DashboardSnapshot) =>
          widgetsToSkip(identity, org.id, snapshot, dashboard.id),
        apply: (tx, snapshot, skip) =>
          restoreDashboard(tx, dashboard, snapshot, dashboard.version, skip),
        currentVersion: async () => (await findDashboard(db, org.id, dashboard.id))?.version,
      });
      await event(request, identity, org.id, "restore_version", dashboard.id);
      return presentWithWidgets(identity, org, (await findDashboard(db, org.id, dashboard.id))!);
    },
  );
}
