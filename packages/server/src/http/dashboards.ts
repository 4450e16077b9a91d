import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppContext } from "../context";
import type { Identity } from "../auth/identity";
import {
  canEditAsOwner,
  canModify,
  hasPermission,
  requireAdminOrOwner,
  requireLogin,
  requirePermission,
  requireUser,
} from "../policies";
import { presentDashboard, presentPublicDashboard } from "../presenters/dashboards";
import { presentPublicWidget, presentWidget } from "../presenters/widgets";
import { activateKey, activeKeyOf, deactivateKeys } from "../store/apiKeys";
import {
  findDashboard,
  findDashboardBySlug,
  forkDashboard,
  insertDashboard,
  listVisibleDashboards,
  recentlyViewedDashboardIds,
  updateDashboard,
  type Dashboard,
  type DashboardFields,
  type ListedDashboard,
} from "../store/dashboards";
import { recordChange } from "../store/changes";
import { addFavorite, favoritesAmong, favoritesOfUser, removeFavorite } from "../store/favorites";
import type { Organization } from "../store/organizations";
import { usersByIds } from "../store/users";
import { widgetsOf } from "../store/widgets";
import { recordEvent, recordEventSoon } from "../services/events";
import { readWidgetSources } from "../services/widgetSources";
import { orgSetting } from "../services/orgSettings";
import { badRequest, conflict, forbidden, notFound } from "./errors";
import { bodyObject, flag, parseId, queryArgs, readTags } from "./input";
import { hasAllTags, paginate, readListArgs, sortByOrder, type ListArgs } from "./queryListing";
import * as S from "./schemas";

type Params = { id: string };

/** Longest dashboard name (Redash's column). */
export const MAX_NAME_LENGTH = 100;
/** Longest stored `layout` or `options` of a dashboard, as JSON text. */
export const MAX_JSON_LENGTH = 1_000_000;
/** Dashboards in the `recent` list. */
const RECENT_COUNT = 20;

// ---- Route documentation (the shapes are in ./schemas) ----

const tags = ["dashboards"];

const listSchema = (summary: string) => ({
  tags,
  summary,
  querystring: S.object({
    q: { ...S.str, description: "Part of the name (case-insensitive)" },
    tags: S.array(S.str, "Only dashboards carrying all these tags"),
    order: { ...S.str, description: "name, created_at or starred_at; `-` first for descending" },
    ...S.pageQuerystring,
  }),
  response: { 200: S.paginated(S.dashboard, "A page of dashboards"), ...S.errors(400, 403, 404) },
});

const saveFields = {
  name: { ...S.str, maxLength: MAX_NAME_LENGTH },
  layout: { ...S.anyValue, description: "Legacy; stored as given" },
  version: { ...S.orNull(S.int), description: "When given, must match the stored version" },
  tags: S.array(S.str),
  is_draft: S.bool,
  is_archived: S.bool,
  dashboard_filters_enabled: S.bool,
  options: S.anyObject,
};

const oneDashboard = (summary: string, statuses = [403, 404]) => ({
  tags,
  summary,
  params: S.idParams,
  response: { 200: S.dashboard, ...S.errors(...statuses) },
});

const answersNull = (summary: string) => ({
  tags,
  summary,
  params: S.idParams,
  response: { 200: S.nullBody, ...S.errors(403, 404) },
});

const docs = {
  list: listSchema("List the dashboards the caller may see"),
  my: listSchema("List the caller's dashboards (drafts included)"),
  favorites: listSchema("List the caller's favorite dashboards"),
  recent: {
    tags,
    summary: "The dashboards the caller viewed most recently (at most 20)",
    response: { 200: S.array(S.dashboard, "Dashboards, newest view first"), ...S.errors(403, 404) },
  },
  tags: {
    tags,
    summary: "Tags of the visible dashboards, with counts",
    response: {
      200: S.object(
        { tags: S.array(S.object({ name: S.str, count: S.int }, ["name", "count"])) },
        ["tags"],
        "Tags by name",
      ),
      ...S.errors(403, 404),
    },
  },
  create: {
    tags,
    summary: "Create a dashboard (a draft)",
    body: S.object({ name: saveFields.name }, ["name"]),
    response: { 200: S.dashboard, ...S.errors(400, 403, 404) },
  },
  get: {
    ...oneDashboard("Get a dashboard with its widgets"),
    params: S.params({
      id: {
        ...S.str,
        description: "The id; with `legacy`, or when not a number, the slug stored at creation",
      },
    }),
    querystring: S.object({
      legacy: { ...S.str, description: "A flag: present = look up by slug" },
    }),
  },
  save: {
    ...oneDashboard("Save a dashboard (partial update)", [400, 403, 404, 409]),
    body: S.object(saveFields),
  },
  archive: oneDashboard("Archive a dashboard"),
  fork: oneDashboard("Fork a dashboard, with its widgets"),
  share: {
    tags,
    summary: "Share a dashboard: its public link (admin or owner)",
    params: S.idParams,
    response: {
      200: S.object({ public_url: S.str, api_key: S.str }, ["public_url", "api_key"], "The link"),
      ...S.errors(403, 404),
    },
  },
  unshare: answersNull("Stop sharing a dashboard (admin or owner)"),
  public: {
    tags,
    summary: "A shared dashboard, read with its share key",
    params: S.params({ token: { ...S.str, description: "The share key" } }),
    response: { 200: S.publicDashboard, ...S.errors(400, 404) },
  },
  addFavorite: answersNull("Add a dashboard to the caller's favorites"),
  removeFavorite: answersNull("Remove a dashboard from the caller's favorites"),
};

// ---------------------------------------------------------------------------------------------
// Body fields

function readName(value: unknown): string {
  if (typeof value !== "string" || value.trim() === "") {
    throw badRequest("name is required and must be a string.");
  }
  if (value.length > MAX_NAME_LENGTH) {
    throw badRequest(`name must be at most ${MAX_NAME_LENGTH} characters.`);
  }
  return value;
}

function readBool(value: unknown, key: string): boolean {
  if (typeof value !== "boolean") throw badRequest(`${key} must be true or false.`);
  return value;
}

/** Any JSON value, kept exactly as given, within the size limit. */
function readStoredJson(value: unknown, key: string): unknown {
  if (JSON.stringify(value ?? null).length > MAX_JSON_LENGTH) {
    throw badRequest(`${key} is too large.`);
  }
  return value;
}

function readOptions(value: unknown): Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw badRequest("options must be an object.");
  }
  return readStoredJson(value, "options") as Record<string, unknown>;
}

/** The writable fields of a save (api-platform.md §7.5); other keys are ignored. */
function readChanges(body: Record<string, unknown>): Partial<DashboardFields> {
  const changes: Partial<DashboardFields> = {};
  if ("name" in body) changes.name = readName(body.name);
  if ("layout" in body) changes.layout = readStoredJson(body.layout ?? [], "layout");
  if ("tags" in body) changes.tags = readTags(body.tags);
  if ("is_draft" in body) changes.is_draft = readBool(body.is_draft, "is_draft");
  if ("is_archived" in body) changes.is_archived = readBool(body.is_archived, "is_archived");
  if ("dashboard_filters_enabled" in body) {
    changes.dashboard_filters_enabled = readBool(
      body.dashboard_filters_enabled,
      "dashboard_filters_enabled",
    );
  }
  if ("options" in body) changes.options = readOptions(body.options);
  return changes;
}

/** The `version` of a save: undefined when absent or null (last write wins). */
function readVersion(body: Record<string, unknown>): number | undefined {
  if (body.version === undefined || body.version === null) return undefined;
  if (typeof body.version !== "number" || !Number.isSafeInteger(body.version)) {
    throw badRequest("version must be a whole number.");
  }
  return body.version;
}

const ORDER_KEYS = {
  name: (d: ListedDashboard) => d.name.toLowerCase(),
  created_at: (d: ListedDashboard) => d.created_at,
  starred_at: (d: ListedDashboard) => d.starred_at,
};

/** q (part of the name), tags (all of them), then order (default newest first). */
function filterAndOrder(rows: ListedDashboard[], args: ListArgs): ListedDashboard[] {
  const q = args.q.toLowerCase();
  const matching = rows.filter(
    (d) => hasAllTags(d, args.tags) && (q === "" || d.name.toLowerCase().includes(q)),
  );
  return (
    (args.order && sortByOrder(matching, args.order, ORDER_KEYS)) ||
    sortByOrder(matching, "-created_at", ORDER_KEYS)!
  );
}

export async function dashboardRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { db } = ctx.database;

  async function loadDashboard(request: FastifyRequest<{ Params: Params }>, orgId: number) {
    const dashboard = await findDashboard(db, orgId, parseId(request.params.id));
    if (!dashboard) throw notFound();
    return dashboard;
  }

  function event(
    request: FastifyRequest,
    identity: Identity,
    orgId: number,
    action: string,
    objectId?: number | string,
    details?: Record<string, unknown>,
    soon = false,
  ) {
    const input = {
      orgId,
      userId: identity.kind === "user" ? identity.user.id : null,
      apiKeyName: identity.kind === "api_key" ? identity.name : undefined,
      action,
      objectType: "dashboard",
      objectId,
      details,
      request,
    };
    if (soon) {
      recordEventSoon(db, input);
      return Promise.resolve();
    }
    return recordEvent(db, input);
  }

  const userIdOf = (identity: Identity) => (identity.kind === "user" ? identity.user.id : null);

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
      widgets: widgets.map((w) => presentWidget(w, sources)),
      isFavorite: favorite?.has(dashboard.id),
      canEdit,
      share: shareKey ? { publicUrl: publicUrl(org, shareKey), apiKey: shareKey } : undefined,
    });
  }

  /** Editing needs `edit_dashboard` and the can-modify rule (owner, admin or a modify grant). */
  async function requireModify(identity: Identity, dashboard: Dashboard) {
    if (!(await canModify(db, identity, "dashboards", dashboard))) throw forbidden();
  }

  // -------------------------------------------------------------------------------------------
  // Lists

  async function listPage(
    request: FastifyRequest,
    which: { ownOnly?: boolean; favoritesOnly?: boolean },
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

  // -------------------------------------------------------------------------------------------
  // One dashboard

  app.post("/api/dashboards", { schema: docs.create }, async (request) => {
    const { identity, org } = requireUser(request);
    if (!hasPermission(identity, "create_dashboard")) throw forbidden();
    const body = bodyObject(request);
    const dashboard = await insertDashboard(db, org.id, {
      name: readName(body.name),
      user_id: identity.user.id,
      layout: [],
      dashboard_filters_enabled: false,
      is_archived: false,
      is_draft: true,
      tags: [],
      options: {},
    });
    await recordChange(db, {
      objectType: "dashboards",
      before: null,
      after: dashboard,
      userId: identity.user.id,
    });
    return presentDashboard(dashboard, {
      owner: identity.user,
      widgets: null,
      isFavorite: false,
    });
  });

  app.get<{ Params: Params }>("/api/dashboards/:id", { schema: docs.get }, async (request) => {
    const { identity, org } = requirePermission(request, "list_dashboards");
    // Redash V10 (and scripts written for it, e.g. redash-toolbelt) read a dashboard by its
    // slug without the `legacy` flag: an id that is not a number is taken as a slug too.
    const bySlug = flag(request, "legacy") || !/^\d+$/.test(request.params.id);
    const dashboard = bySlug
      ? await findDashboardBySlug(db, org.id, request.params.id)
      : await loadDashboard(request, org.id);
    if (!dashboard) throw notFound();
    await event(request, identity, org.id, "view", dashboard.id, undefined, true);
    return presentWithWidgets(identity, org, dashboard, true);
  });

  app.post<{ Params: Params }>("/api/dashboards/:id", { schema: docs.save }, async (request) => {
    const { identity, org } = requirePermission(request, "edit_dashboard");
    const dashboard = await loadDashboard(request, org.id);
    await requireModify(identity, dashboard);
    const body = bodyObject(request);
    const changes = readChanges(body);
    const version = readVersion(body);
    if (version !== undefined && version !== dashboard.version) throw conflict();
    if (!(await updateDashboard(db, dashboard.id, changes, version))) throw conflict();
    await event(request, identity, org.id, "edit", dashboard.id);
    return presentWithWidgets(identity, org, (await findDashboard(db, org.id, dashboard.id))!);
  });

  // Redash lets anyone with edit_dashboard archive any dashboard; here archiving is an edit like
  // the others (owner, admin or a modify grant), as the web client offers it.
  app.delete<{ Params: Params }>(
    "/api/dashboards/:id",
    { schema: docs.archive },
    async (request) => {
      const { identity, org } = requirePermission(request, "edit_dashboard");
      const dashboard = await loadDashboard(request, org.id);
      await requireModify(identity, dashboard);
      await updateDashboard(db, dashboard.id, { is_archived: true });
      const archived = (await findDashboard(db, org.id, dashboard.id))!;
      await recordChange(db, {
        objectType: "dashboards",
        before: dashboard,
        after: archived,
        userId: userIdOf(identity) ?? dashboard.user_id,
      });
      await event(request, identity, org.id, "archive", dashboard.id);
      return presentWithWidgets(identity, org, archived);
    },
  );

  app.post<{ Params: Params }>(
    "/api/dashboards/:id/fork",
    { schema: docs.fork },
    async (request) => {
      const { identity, org } = requireUser(request);
      if (!hasPermission(identity, "edit_dashboard")) throw forbidden();
      const source = await loadDashboard(request, org.id);
      const fork = await forkDashboard(db, source, identity.user.id);
      await recordChange(db, {
        objectType: "dashboards",
        before: null,
        after: fork,
        userId: identity.user.id,
      });
      await event(request, identity, org.id, "fork", source.id);
      return presentWithWidgets(identity, org, fork);
    },
  );

  // -------------------------------------------------------------------------------------------
  // Sharing: one active share key per dashboard; the key is the public page's only credential.

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
