// The dashboard routes (/api/dashboards...), by concern in ./dashboards/: the lists, one
// dashboard as a document, sharing with its public page, and favorites.
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../context";
import { dashboardDocumentRoutes } from "./dashboards/documentRoutes";
import { dashboardFavoriteRoutes } from "./dashboards/favoriteRoutes";
import { dashboardListRoutes } from "./dashboards/listRoutes";
import { dashboardShareRoutes } from "./dashboards/shareRoutes";
import { dashboardSupport } from "./dashboards/support";
import { dashboardVersionRoutes } from "./dashboards/versionRoutes";

export { MAX_JSON_LENGTH, MAX_NAME_LENGTH } from "./dashboards/bodyFields";

export async function dashboardRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const support = dashboardSupport(ctx);
  dashboardListRoutes(app, ctx, support);
  dashboardDocumentRoutes(app, ctx, support);
  dashboardShareRoutes(app, ctx, support);
  dashboardFavoriteRoutes(app, ctx, support);
  dashboardVersionRoutes(app, ctx, support);
}
