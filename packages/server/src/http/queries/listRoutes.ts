// The query lists (all, mine, archived, favorites, recent), the legacy search, the tag counts,
// and SQL formatting.
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppContext } from "../../context";
import { hasPermission, requireLogin, requirePermission, requireUser } from "../../policies";
import { presentListedQuery, presentRecentQuery } from "../../presenters/queries";
import { formatSql } from "../../services/sqlFormat";
import { favoritesAmong } from "../../store/favorites";
import { queriesWithFailedLastScheduledRun } from "../../store/queryRuns";
import {
  listVisibleQueries,
  loadListedPage,
  recentQueries,
  type ListFilter,
} from "../../store/queries";
import { usersByIds } from "../../store/users";
import { badRequest, forbidden } from "../errors";
import { bodyObject, queryArgs } from "../input";
import { filterAndOrder, paginate, readListArgs } from "../queryListing";
import { docs } from "./docs";

export function queryListRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { db } = ctx.database;

  async function listPage(request: FastifyRequest, filter: Omit<ListFilter, "orgId" | "groupIds">) {
    const { identity, org } = requireLogin(request);
    const args = readListArgs(queryArgs(request), org.settings.multi_byte_search_enabled === true);
    const keys = await listVisibleQueries(db, {
      ...filter,
      orgId: org.id,
      groupIds: identity.groupIds,
      withText: args.q !== "",
    });
    const keyPage = paginate(filterAndOrder(keys, args), args.page, args.pageSize);
    const page = { ...keyPage, results: await loadListedPage(db, org.id, keyPage.results) };
    const users = await usersByIds(
      db,
      page.results.map((q) => q.user_id),
    );
    const favorites =
      identity.kind === "user"
        ? await favoritesAmong(
            db,
            "Query",
            page.results.map((q) => q.id),
            identity.user.id,
          )
        : new Map<number, string>();
    const failing = await queriesWithFailedLastScheduledRun(
      db,
      org.id,
      page.results.map((q) => q.id),
    );
    return {
      ...page,
      results: page.results.map((q) =>
        presentListedQuery(
          q,
          users,
          q.starred_at ?? favorites.get(q.id) ?? null,
          failing.has(q.id),
        ),
      ),
    };
  }

  app.get("/api/queries", { schema: docs.list }, async (request) => {
    requirePermission(request, "view_query");
    return listPage(request, { archived: false });
  });

  app.get("/api/queries/my", { schema: docs.my }, async (request) => {
    const { identity } = requireUser(request);
    if (!hasPermission(identity, "view_query")) throw forbidden();
    return listPage(request, { archived: false, ownerId: identity.user.id });
  });

  app.get("/api/queries/archive", { schema: docs.archive }, async (request) => {
    const { identity } = requirePermission(request, "view_query");
    return listPage(request, {
      archived: true,
      draftsOnlyOf: identity.kind === "user" ? identity.user.id : -1,
    });
  });

  app.get("/api/queries/favorites", { schema: docs.favorites }, async (request) => {
    const { identity } = requireUser(request);
    return listPage(request, { archived: false, favoritesOf: identity.user.id });
  });

  app.get("/api/queries/recent", { schema: docs.recent }, async (request) => {
    const { identity, org } = requireUser(request);
    if (!hasPermission(identity, "view_query")) throw forbidden();
    const rows = await recentQueries(db, org.id, identity.user.id, identity.groupIds);
    const favorites = await favoritesAmong(
      db,
      "Query",
      rows.map((q) => q.id),
      identity.user.id,
    );
    return rows.map((q) => presentRecentQuery(q, favorites.get(q.id) ?? null));
  });

  app.get("/api/queries/search", { schema: docs.search }, async (request, reply) => {
    requirePermission(request, "view_query");
    const args = queryArgs(request);
    const q = typeof args.q === "string" ? args.q : "";
    if (!q) return [];
    const drafts = Object.prototype.hasOwnProperty.call(args, "include_drafts");
    const location = `/api/queries?${new URLSearchParams({ q, drafts: String(drafts) })}`;
    return reply.code(301).header("location", location).send({});
  });

  app.get("/api/queries/tags", { schema: docs.tags }, async (request) => {
    const { identity, org } = requireLogin(request);
    const rows = await listVisibleQueries(db, {
      orgId: org.id,
      groupIds: identity.groupIds,
      archived: false,
    });
    const counts = new Map<string, number>();
    for (const q of rows)
      for (const tag of new Set(q.tags)) counts.set(tag, (counts.get(tag) ?? 0) + 1);
    return {
      tags: [...counts]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([name, count]) => ({ name, count })),
    };
  });

  app.post("/api/queries/format", { schema: docs.format }, async (request) => {
    requireLogin(request);
    const body = bodyObject(request);
    const text = body.query === undefined || body.query === null ? "" : body.query;
    if (typeof text !== "string") throw badRequest("query must be a string.");
    return { query: formatSql(text) };
  });
}
