// Sharing: one active share key per dashboard; the key is the public page's only credential.
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { requireAdminOrOwner, requireLogin } from "../../policies";
import { presentPublicDashboard } from "../../presenters/dashboards";
import { presentPublicWidget } from "../../presenters/widgets";
import { orgSetting } from "../../services/orgSettings";
import { readWidgetSources } from "../../services/widgetSources";
import { activateKey, deactivateKeys } from "../../store/apiKeys";
import { findDashboard } from "../../store/dashboards";
import { widgetsOf } from "../../store/widgets";
import { badRequest, notFound } from "../errors";
import { docs } from "./docs";
import { userIdOf, type DashboardSupport, type Params } from "./support";

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
      return presentPublicDashboard(
        dashboard,
        widgets.map((w) => presentPublicWidget(w, sources)),
      );
    },
  );
}
