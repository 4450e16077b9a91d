// Sharing: one active share key per dashboard; the key is the public page's only credential.
import { isSavedQuerySafe } from "@sightline/core";
import type { FastifyInstance } from "fastify";
import type { Kysely } from "kysely";
import type { AppContext } from "../../context";
import { requireAdminOrOwner, requireLogin } from "../../policies";
import { presentPublicDashboard } from "../../presenters/dashboards";
import { isRestricted, presentPublicWidget } from "../../presenters/widgets";
import { orgSetting } from "../../services/orgSettings";
import { readWidgetSources } from "../../services/widgetSources";
import { activateKey, deactivateKeys } from "../../store/apiKeys";
import { findDashboard } from "../../store/dashboards";
import { findQueriesByIds } from "../../store/queries";
import type { DB } from "../../store/schema";
import { widgetsOf } from "../../store/widgets";
import { badRequest, notFound } from "../errors";
import { docs } from "./docs";
import { userIdOf, type DashboardSupport, type Params } from "./support";

/** The web dialog's refusal (spec 3 §5, ShareDashboardDialog), answered by the API too. */
export const UNSAFE_SHARE_MESSAGE =
  "For your security, sharing is currently not supported for dashboards containing queries with text parameters. Consider changing the text parameters in your query to a different type.";

/** Whether a widget of the dashboard shows a query that is not safe (text parameters). */
async function showsUnsafeQuery(db: Kysely<DB>, orgId: number, dashboardId: number) {
  const rows = await db
    .selectFrom("widgets")
    .innerJoin("visualizations", "visualizations.id", "widgets.visualization_id")
    .select("visualizations.query_id")
    .distinct()
    .where("widgets.dashboard_id", "=", dashboardId)
    .execute();
  const queries = await findQueriesByIds(
    db,
    orgId,
    rows.map((row) => row.query_id),
  );
  return queries.some((query) => !isSavedQuerySafe(query.query, query.options));
}

export function dashboardShareRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  { loadDashboard, event, publicUrl }: DashboardSupport,
): void {
  const { db } = ctx.database;

  app.post<{ Params: Params }>(
    "/api/dashboards/:id/share",
    { schema: docs.share },
    async (request) => {
      const { identity, org } = requireLogin(request);
      const dashboard = await loadDashboard(request, org.id);
      requireAdminOrOwner(identity, dashboard.user_id);
      // Text parameters make a query unsafe, and unsafe queries never run publicly (SECURITY.md
      // rule 4): refused here as the web dialog refuses it, whatever the client.
      if (await showsUnsafeQuery(db, org.id, dashboard.id)) throw badRequest(UNSAFE_SHARE_MESSAGE);
      const key = await activateKey(db, org.id, "dashboards", dashboard.id, userIdOf(identity));
      await event(request, identity, org.id, "activate_api_key", dashboard.id);
      return { public_url: publicUrl(org, key), api_key: key };
    },
  );

  app.delete<{ Params: Params }>(
    "/api/dashboards/:id/share",
    { schema: docs.unshare },
    async (request) => {
      const { identity, org } = requireLogin(request);
      const dashboard = await loadDashboard(request, org.id);
      requireAdminOrOwner(identity, dashboard.user_id);
      await deactivateKeys(db, org.id, "dashboards", dashboard.id);
      await event(request, identity, org.id, "deactivate_api_key", dashboard.id);
      return null;
    },
  );

  // The token is read as the request's API key (auth/requestAuth.ts): only an active share key
  // of a dashboard opens this, whoever is signed in.
  app.get<{ Params: { token: string } }>(
    "/api/dashboards/public/:token",
    { schema: docs.public },
    async (request) => {
      const { identity, org } = requireLogin(request);
      if (identity.kind !== "api_key" || identity.object.type !== "dashboards") throw notFound();
      if (orgSetting(org, "disable_public_urls")) throw badRequest("Public URLs are disabled.");
      const dashboard = await findDashboard(db, org.id, identity.object.id);
      if (!dashboard) throw notFound();
      const widgets = (await widgetsOf(db, [dashboard.id])).get(dashboard.id) ?? [];
      const sources = await readWidgetSources(db, identity, org.id, widgets);
      const referer = request.headers.referer ?? null;
      await event(request, identity, org.id, "view", dashboard.id, { public: true, referer }, true);
      // A widget whose query the key may not view (its owner may not, now) is left out: the
      // public page shows nothing of it, not even a locked card.
      const shown = widgets.filter((w) => !isRestricted(w, sources));
      return presentPublicDashboard(
        dashboard,
        shown.map((w) => presentPublicWidget(w, sources)),
      );
    },
  );
}
