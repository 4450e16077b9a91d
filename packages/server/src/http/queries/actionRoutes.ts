// Actions on one query: fork (with its visualizations), a new API key, and favorites.
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppContext } from "../../context";
import {
  requireAdminOrOwner,
  requireDataSourceAccess,
  requirePermission,
  requireUser,
} from "../../policies";
import { addFavorite, removeFavorite } from "../../store/favorites";
import { recordChange } from "../../store/changes";
import { queryVersions } from "../../services/queryVersions";
import { recordVersion } from "../../services/versioning";
import { findQuery, insertQuery, setQueryApiKey } from "../../store/queries";
import { insertVisualization, visualizationsOf } from "../../store/visualizations";
import { forbidden } from "../errors";
import { docs } from "./docs";
import type { Params, QuerySupport } from "./support";

export function queryActionRoutes(app: FastifyInstance, ctx: AppContext, q: QuerySupport): void {
  const { db } = ctx.database;
  const { loadQuery, linksOf, requireQueryAccess, presentWrite, event } = q;

  app.post<{ Params: Params }>("/api/queries/:id/fork", { schema: docs.fork }, async (request) => {
    const { identity, org } = requirePermission(request, "edit_query");
    if (identity.kind !== "user") throw forbidden();
    const original = await loadQuery(request, org.id);
    requireDataSourceAccess(identity, await linksOf(original), "full");
    const userId = identity.user.id;
    const fork = await db.transaction().execute(async (tx) => {
      const inserted = await insertQuery(tx, org.id, {
        data_source_id: original.data_source_id,
        latest_query_data_id: original.latest_query_data_id,
        name: `Copy of (#${original.id}) ${original.name}`,
        description: original.description,
        query: original.query,
        query_hash: original.query_hash,
        user_id: userId,
        last_modified_by_id: userId,
        is_archived: false,
        is_draft: true,
        schedule: null,
        options: original.options,
        tags: original.tags,
      });
      for (const v of (await visualizationsOf(tx, [original.id])).get(original.id) ?? []) {
        await insertVisualization(tx, inserted.id, v);
      }
      await recordVersion(tx, queryVersions, inserted.id, {
        userId,
        keep: ctx.config.versionsPerObject,
      });
      return inserted;
    });
    await recordChange(db, { objectType: "queries", before: null, after: fork, userId });
    await event(request, identity, org.id, "fork", original.id);
    return presentWrite(fork, identity);
  });

  app.post<{ Params: Params }>(
    "/api/queries/:id/regenerate_api_key",
    { schema: docs.regenerateApiKey },
    async (request) => {
      const { identity, org } = requirePermission(request, "edit_query");
      const query = await loadQuery(request, org.id);
      requireAdminOrOwner(identity, query.user_id);
      await setQueryApiKey(db, query.id);
      await event(request, identity, org.id, "regnerate_api_key", query.id);
      return presentWrite((await findQuery(db, org.id, query.id))!, identity, false);
    },
  );

  async function favorite(request: FastifyRequest<{ Params: Params }>, add: boolean) {
    const { identity, org } = requireUser(request);
    const query = await loadQuery(request, org.id);
    await requireQueryAccess(identity, query, "view");
    if (add) await addFavorite(db, org.id, "Query", query.id, identity.user.id);
    else await removeFavorite(db, "Query", query.id, identity.user.id);
    await event(request, identity, org.id, "favorite", query.id);
    return null;
  }
  app.post<{ Params: Params }>(
    "/api/queries/:id/favorite",
    { schema: docs.addFavorite },
    (request) => favorite(request, true),
  );
  app.delete<{ Params: Params }>(
    "/api/queries/:id/favorite",
    { schema: docs.removeFavorite },
    (request) => favorite(request, false),
  );
}
