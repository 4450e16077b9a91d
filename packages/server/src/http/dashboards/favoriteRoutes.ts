// A dashboard in or out of the caller's favorites.
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppContext } from "../../context";
import { requireUser } from "../../policies";
import { addFavorite, removeFavorite } from "../../store/favorites";
import { docs } from "./docs";
import type { DashboardSupport, Params } from "./support";

export function dashboardFavoriteRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  { loadDashboard, event }: DashboardSupport,
): void {
  const { db } = ctx.database;

  async function favorite(request: FastifyRequest<{ Params: Params }>, add: boolean) {
    const { identity, org } = requireUser(request);
    const dashboard = await loadDashboard(request, org.id);
    if (add) await addFavorite(db, org.id, "Dashboard", dashboard.id, identity.user.id);
    else await removeFavorite(db, "Dashboard", dashboard.id, identity.user.id);
    await event(request, identity, org.id, add ? "favorite" : "unfavorite", dashboard.id);
    return null;
  }
  app.post<{ Params: Params }>(
    "/api/dashboards/:id/favorite",
    { schema: docs.addFavorite },
    (request) => favorite(request, true),
  );
  app.delete<{ Params: Params }>(
    "/api/dashboards/:id/favorite",
    { schema: docs.removeFavorite },
    (request) => favorite(request, false),
  );
}
