// The dashboard lists (all, mine, favorites, archived, recent) and the tag counts.
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppContext } from "../../context";
import { hasPermission, requireUser } from "../../policies";
import { presentDashboard } from "../../presenters/dashboards";
import { listVisibleDashboards, recentlyViewedDashboardIds } from "../../store/dashboards";
import { favoritesAmong, favoritesOfUser } from "../../store/favorites";
import { usersByIds } from "../../store/users";
import { forbidden } from "../errors";
import { queryArgs } from "../input";
import { paginate, readListArgs } from "../queryListing";
import { docs } from "./docs";
import { filterAndOrder } from "./listOrder";
import type { DashboardSupport } from "./support";

/** Dashboards in the `recent` list. */
const RECENT_COUNT = 20;

export function dashboardListRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  { event }: DashboardSupport,
): void {
  const { db } = ctx.database;

  async function listPage(
    request: FastifyRequest,
    which: { ownOnly?: boolean; favoritesOnly?: boolean; archived?: boolean },
  ) {
    const { identity, org } = requireUser(request);
    const args = readListArgs(queryArgs(request));
    const userId = identity.user.id;
    const [rows, favorites] = await Promise.all([
      listVisibleDashboards(db, {
        orgId: org.id,
        userId,
        groupIds: identity.groupIds,
        ...which,
      }),
      favoritesOfUser(db, "Dashboard", userId),
    ]);
    const starred = rows.map((d) => ({
      ...d,
      starred_at: d.starred_at ?? favorites.get(d.id) ?? null,
    }));
    const page = paginate(filterAndOrder(starred, args), args.page, args.pageSize);
    const owners = await usersByIds(
      db,
      page.results.map((d) => d.user_id),
    );
    if (which.favoritesOnly) {
      await event(
        request,
        identity,
        org.id,
        "load_favorites",
        undefined,
        {
          params: { q: args.q, tags: args.tags, page: args.page },
        },
        true,
      );
    } else if (args.q) {
      await event(request, identity, org.id, "search", args.q, { term: args.q }, true);
    } else {
      await event(request, identity, org.id, "list", undefined, undefined, true);
    }
    return {
      ...page,
      results: page.results.map((d) =>
        presentDashboard(d, {
          owner: owners.get(d.user_id),
          widgets: null,
          isFavorite: d.starred_at !== null,
          starredAt: d.starred_at,
        }),
      ),
    };
  }

  /** A user holding `list_dashboards` (user API keys included; object keys are refused). */
  function requireLister(request: FastifyRequest) {
    const result = requireUser(request);
    if (!hasPermission(result.identity, "list_dashboards")) throw forbidden();
    return result;
  }

  app.get("/api/dashboards", { schema: docs.list }, async (request) => {
    requireLister(request);
    return listPage(request, {});
  });

  app.get("/api/dashboards/my", { schema: docs.my }, async (request) => {
    requireLister(request);
    return listPage(request, { ownOnly: true });
  });

  // Sightline's own, as /api/queries/archive: the archived dashboards the caller could see were
  // they live, so they can be found and restored (POST /api/dashboards/{id} is_archived false).
  app.get("/api/dashboards/archive", { schema: docs.archivedList }, async (request) => {
    requireLister(request);
    return listPage(request, { archived: true });
  });

  app.get("/api/dashboards/favorites", { schema: docs.favorites }, async (request) =>
    listPage(request, { favoritesOnly: true }),
  );

  app.get("/api/dashboards/recent", { schema: docs.recent }, async (request) => {
    const { identity, org } = requireLister(request);
    const userId = identity.user.id;
    const ids = await recentlyViewedDashboardIds(db, org.id, userId, RECENT_COUNT);
    const [rows, favorites] = await Promise.all([
      listVisibleDashboards(db, { orgId: org.id, userId, groupIds: identity.groupIds, ids }),
      favoritesAmong(db, "Dashboard", ids, userId),
    ]);
    const byId = new Map(rows.map((d) => [d.id, d]));
    const recent = ids.flatMap((id) => byId.get(id) ?? []);
    const owners = await usersByIds(
      db,
      recent.map((d) => d.user_id),
    );
    return recent.map((d) => {
      const starredAt = favorites.get(d.id) ?? null;
      return presentDashboard(d, {
        owner: owners.get(d.user_id),
        widgets: null,
        isFavorite: starredAt !== null,
        starredAt,
      });
    });
  });

  app.get("/api/dashboards/tags", { schema: docs.tags }, async (request) => {
    const { identity, org } = requireLister(request);
    const rows = await listVisibleDashboards(db, {
      orgId: org.id,
      userId: identity.user.id,
      groupIds: identity.groupIds,
    });
    const counts = new Map<string, number>();
    for (const d of rows)
      for (const tag of new Set(d.tags)) counts.set(tag, (counts.get(tag) ?? 0) + 1);
    return {
      tags: [...counts]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([name, count]) => ({ name, count })),
    };
  });
}
