// What the dashboard routes share: loading a dashboard, the audit event, the public link of a
// share key, a dashboard presented with its widgets, and the modify check.
import type { FastifyRequest } from "fastify";
import type { Identity } from "../../auth/identity";
import type { AppContext } from "../../context";
import { canEditAsOwner, canModify } from "../../policies";
import { presentDashboard } from "../../presenters/dashboards";
import { presentWidgets } from "../../presenters/widgets";
import { readWidgetSources } from "../../services/widgetSources";
import { activeKeyOf } from "../../store/apiKeys";
import { findDashboard, type Dashboard } from "../../store/dashboards";
import { favoritesAmong } from "../../store/favorites";
import type { Organization } from "../../store/organizations";
import { widgetsOf } from "../../store/widgets";
import { forbidden, notFound } from "../errors";
import { parseId } from "../input";
import { objectEvents } from "../objectEvents";

export type Params = { id: string };

export const userIdOf = (identity: Identity) =>
  identity.kind === "user" ? identity.user.id : null;

/** The helpers of the dashboard routes, on this app's database. */
export function dashboardSupport(ctx: AppContext) {
  const { db } = ctx.database;

  async function loadDashboard(request: FastifyRequest<{ Params: Params }>, orgId: number) {
    const dashboard = await findDashboard(db, orgId, parseId(request.params.id));
    if (!dashboard) throw notFound();
    return dashboard;
  }

  const event = objectEvents(db, "dashboard");

  /** The public page of a share key (single-organisation mode names the org in the query). */
  const publicUrl = (org: Organization, key: string) =>
    `${ctx.config.baseUrl}/public/dashboards/${key}?org_slug=${encodeURIComponent(org.slug)}`;

  /**
   * A dashboard with its widgets, as the caller may see them, in a fixed number of statements
   * whatever its widget count. `detail` adds GET's `can_edit` and share link.
   */
  async function presentWithWidgets(
    identity: Identity,
    org: Organization,
    dashboard: Dashboard,
    detail = false,
  ) {
    const widgets = (await widgetsOf(db, [dashboard.id])).get(dashboard.id) ?? [];
    const userId = userIdOf(identity);
    const [sources, favorite, canEdit, shareKey] = await Promise.all([
      readWidgetSources(db, identity, org.id, widgets, [dashboard.user_id]),
      userId === null ? undefined : favoritesAmong(db, "Dashboard", [dashboard.id], userId),
      detail ? canModify(db, identity, "dashboards", dashboard) : undefined,
      // The key opens every widget's results, so only those who manage sharing are given it
      // (Redash gave it to every viewer, even those whose widgets are restricted).
      detail && canEditAsOwner(identity, dashboard.user_id)
        ? activeKeyOf(db, org.id, "dashboards", dashboard.id)
        : null,
    ]);
    return presentDashboard(dashboard, {
      owner: sources.users.get(dashboard.user_id),
      widgets: presentWidgets(widgets, sources),
      isFavorite: favorite?.has(dashboard.id),
      canEdit,
      share: shareKey ? { publicUrl: publicUrl(org, shareKey), apiKey: shareKey } : undefined,
    });
  }

  /** Editing needs `edit_dashboard` and the can-modify rule (owner, admin or a modify grant). */
  async function requireModify(identity: Identity, dashboard: Dashboard) {
    if (!(await canModify(db, identity, "dashboards", dashboard))) throw forbidden();
  }

  return { loadDashboard, event, publicUrl, presentWithWidgets, requireModify };
}

export type DashboardSupport = ReturnType<typeof dashboardSupport>;
