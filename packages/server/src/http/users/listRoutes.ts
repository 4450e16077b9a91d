// The list of users: search, filters, order and pages.
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { requirePermission } from "../../policies";
import { presentUser } from "../../presenters/users";
import { listGroups } from "../../store/groups";
import { USER_ORDER_KEYS, countUsers, listUsers, type UserOrderKey } from "../../store/users";
import { boolParam, checkPage, orderParam, pageParams, queryParam } from "../listParams";
import { recordRequestEvent } from "../requestEvents";
import { docs } from "./docs";

export function userListRoutes(app: FastifyInstance, ctx: AppContext): void {
  const db = ctx.database.db;

  app.get("/api/users", { schema: docs.list }, async (request) => {
    const { org } = requirePermission(request, "list_users");
    const q = queryParam(request, "q")?.trim() || undefined;
    const disabled = boolParam(request, "disabled") ?? false;
    const pending = boolParam(request, "pending");
    const page = pageParams(request);
    // Without a search term an unknown order means newest first; with one, the search order.
    const order =
      orderParam<UserOrderKey>(request, USER_ORDER_KEYS) ??
      (q ? null : { key: "created_at" as const, descending: true });
    const filter = { q, disabled, pending };
    const count = await countUsers(db, org.id, filter);
    checkPage(page, count);
    const users = await listUsers(db, org.id, {
      ...filter,
      order,
      limit: page.pageSize,
      offset: (page.page - 1) * page.pageSize,
    });
    const groups = await listGroups(db, org.id);
    if (q) await recordRequestEvent(ctx, request, "search", "user", null, { term: q, pending });
    else await recordRequestEvent(ctx, request, "list", "user", null, { pending });
    return {
      count,
      page: page.page,
      page_size: page.pageSize,
      results: users.map((u) => presentUser(u, { groups })),
    };
  });
}
