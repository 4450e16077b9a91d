// A dashboard's version history: the list, one version as the dashboard was (with its widgets),
// and restoring one.
import type { FastifyInstance } from "fastify";
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
import { recordBaseline, recordVersion } from "../../services/versioning";
import { readWidgetSources } from "../../services/widgetSources";
import { groupLinksOf } from "../../store/dataSources";
import { findDashboard } from "../../store/dashboards";
import { findVersion, listVersions } from "../../store/objectVersions";
import { findQuery } from "../../store/queries";
import { findVisualization } from "../../store/visualizations";
import { widgetsOf } from "../../store/widgets";
import { forbidden, notFound } from "../errors";
import * as S from "../schemas";
import {
  VERSION_NOT_FOUND,
  expectedVersion,
  presentVersionEntries,
  versionConflict,
  versionDocs,
  versionPage,
  versionParam,
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

  app.get<{ Params: Params }>(
    "/api/dashboards/:id/versions",
    { schema: docs.list },
    async (request) => {
      const { org } = requirePermission(request, "list_dashboards");
      const { page, pageSize } = versionPage(request);
      const dashboard = await loadDashboard(request, org.id);
      const key = { type: dashboardVersions.type, objectId: dashboard.id };
      const { count, results } = await listVersions(db, key, page, pageSize);
      return {
        count,
        page,
        page_size: pageSize,
        results: await presentVersionEntries(db, results),
      };
    },
  );

  app.get<{ Params: VersionParams }>(
    "/api/dashboards/:id/versions/:version",
    { schema: docs.get },
    async (request) => {
      const { identity, org } = requirePermission(request, "list_dashboards");
      const dashboard = await loadDashboard(request, org.id);
      const key = { type: dashboardVersions.type, objectId: dashboard.id };
      const record = await findVersion<DashboardSnapshot>(db, key, versionParam(request));
      if (!record) throw notFound(VERSION_NOT_FOUND);
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
      const key = { type: dashboardVersions.type, objectId: dashboard.id };
      const record = await findVersion<DashboardSnapshot>(db, key, versionParam(request));
      if (!record) throw notFound(VERSION_NOT_FOUND);
      if (sent !== undefined && sent !== dashboard.version) {
        throw versionConflict(dashboard.version);
      }
      const current = (await widgetsOf(db, [dashboard.id])).get(dashboard.id) ?? [];
      // Widgets added again need what adding them needs: a visualization (one deleted since is
      // left out) whose query the caller may view.
      const skip = new Set<number>();
      for (const w of widgetsToAddAgain(record.snapshot, current)) {
        if (w.visualization_id === null) continue;
        const visualization = await findVisualization(db, org.id, w.visualization_id);
        const query = visualization && (await findQuery(db, org.id, visualization.query_id));
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
      requireWidgetCount(record.snapshot.widgets.length - skip.size);
      const userId = userIdOf(identity);
      const restored = await db.transaction().execute(async (tx) => {
        await recordBaseline(tx, dashboardVersions, dashboard.id);
        const ok = await restoreDashboard(tx, dashboard, record.snapshot, dashboard.version, skip);
        if (!ok) return false;
        await recordVersion(tx, dashboardVersions, dashboard.id, {
          userId,
          keep: ctx.config.versionsPerObject,
        });
        return true;
      });
      if (!restored) {
        const now = await findDashboard(db, org.id, dashboard.id);
        throw versionConflict(now?.version ?? dashboard.version);
      }
      await event(request, identity, org.id, "restore_version", dashboard.id);
      return presentWithWidgets(identity, org, (await findDashboard(db, org.id, dashboard.id))!);
    },
  );
}
