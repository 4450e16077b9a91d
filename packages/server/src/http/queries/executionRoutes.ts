// Running a saved query (§4.2, §3.14): with checked parameter values, or the legacy refresh.
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { hasPermission, queryAccess, requireLogin } from "../../policies";
import { forbidden } from "../errors";
import { executeSavedQuery, refreshSavedQuery } from "../queryExecution";
import { docs } from "./docs";
import type { Params, QuerySupport } from "./support";

export function queryExecutionRoutes(app: FastifyInstance, ctx: AppContext, q: QuerySupport): void {
  const { db } = ctx.database;
  const { loadQuery, linksOf, requireQueryAccess } = q;

  app.post<{ Params: Params }>(
    "/api/queries/:id/results",
    { schema: docs.results, config: { lenientBody: true } },
    async (request, reply) => {
      const { identity, org } = requireLogin(request);
      if (!hasPermission(identity, "view_query") && !hasPermission(identity, "execute_query")) {
        throw forbidden();
      }
      const query = await loadQuery(request, org.id);
      const access = await queryAccess(db, identity, query, await linksOf(query));
      return executeSavedQuery(ctx, request, reply, { identity, org, query, access });
    },
  );

  app.post<{ Params: Params }>(
    "/api/queries/:id/refresh",
    { schema: docs.refresh },
    async (request, reply) => {
      const { identity, org } = requireLogin(request);
      if (identity.kind === "api_key") throw forbidden("Please use a user API key.");
      const query = await loadQuery(request, org.id);
      await requireQueryAccess(identity, query, "full");
      return refreshSavedQuery(ctx, request, reply, { identity, org, query });
    },
  );
}
