import type { FastifyInstance, FastifyRequest } from "fastify";
import {
  DetachedDropdownQueryError,
  parameterDefinitionsProblem,
  queryHashSource,
  scheduleProblem,
} from "@sightline/core";
import type { AppContext } from "../context";
import type { Identity } from "../auth/identity";
import {
  accessAllows,
  canModify,
  hasPermission,
  queryAccess,
  requireAdminOrOwner,
  requireDataSourceAccess,
  requireLogin,
  requirePermission,
  requireUser,
} from "../policies";
import { presentListedQuery, presentQueryDetail, presentRecentQuery } from "../presenters/queries";
import { findDataSource, groupLinks, groupLinksOf, type GroupLink } from "../store/dataSources";
import { addFavorite, favoritesAmong, removeFavorite } from "../store/favorites";
import {
  archiveQuery,
  findQueriesByIds,
  findQuery,
  insertQuery,
  listVisibleQueries,
  loadListedPage,
  newestResultId,
  parameterSchema,
  recentQueries,
  setQueryApiKey,
  updateQuery,
  type ListFilter,
  type Query,
  type QueryFields,
  type QueryOptions,
} from "../store/queries";
import { usersByIds as findUsersByIds } from "../store/users";
import { insertVisualization, visualizationsOf } from "../store/visualizations";
import { findRunner } from "../services/dataSourceTypes";
import { queryHash } from "../execution/hash";
import { dropdownValues } from "../services/queryDropdowns";
import { isOwnResult, readerResultRefusal } from "../policies/results";
import { loadResultMeta } from "../results";
import { principalOf } from "../execution/principal";
import { recordEvent } from "../services/events";
import { formatSql } from "../services/sqlFormat";
import { badRequest, conflict, forbidden, notFound } from "./errors";
import { bodyId, bodyObject, parseId, queryArgs, readTags } from "./input";
import { filterAndOrder, paginate, readListArgs } from "./queryListing";
import { executeSavedQuery, refreshSavedQuery } from "./queryExecution";
import * as S from "./schemas";

type Params = { id: string };

// ---- Route documentation (the shapes are in ./schemas) ----

const tags = ["queries"];

const listSchema = (summary: string) => ({
  tags,
  summary,
  querystring: S.object({
    q: { ...S.str, description: "Search words; `or` and a leading `-` (not) are understood" },
    tags: S.array(S.str, "Only queries carrying all these tags"),
    order: {
      ...S.str,
      description:
        "name, created_at, schedule, runtime, executed_at, created_by or starred_at; `-` first for descending",
    },
    ...S.pageQuerystring,
  }),
  response: { 200: S.paginated(S.listedQuery, "A page of queries"), ...S.errors(400, 403, 404) },
});

/** Writable fields of create and save; other keys are ignored. */
const writableFields = {
  name: S.str,
  query: S.str,
  data_source_id: S.int,
  description: S.orNull(S.str),
  schedule: S.orNull(S.schedule),
  options: S.queryOptions,
  tags: S.array(S.str),
  latest_query_data_id: S.orNull(S.int),
};

const oneQuery = (summary: string, statuses = [403, 404]) => ({
  tags,
  summary,
  params: S.idParams,
  response: { 200: S.query, ...S.errors(...statuses) },
});

const answersNull = (summary: string) => ({
  tags,
  summary,
  params: S.idParams,
  response: { 200: S.nullBody, ...S.errors(403, 404) },
});

const dropdown = (summary: string, params: object) => ({
  tags,
  summary,
  params,
  response: { 200: S.dropdownOptions, ...S.errors(400, 403, 404) },
});

const noDataSource = { ...S.jobRefusal, description: "The query has no data source" };

const docs = {
  list: listSchema("List queries"),
  my: listSchema("List the caller's queries"),
  archive: listSchema("List archived queries"),
  favorites: listSchema("List the caller's favorite queries"),
  recent: {
    tags,
    summary: "The caller's 10 most recently updated queries",
    response: { 200: S.array(S.recentQuery, "Queries"), ...S.errors(403, 404) },
  },
  search: {
    tags,
    summary: "Legacy search: redirects to /api/queries",
    querystring: S.object({
      q: S.str,
      include_drafts: { ...S.str, description: "A flag: present = on" },
    }),
    response: {
      200: { ...S.array(S.anyObject), maxItems: 0, description: "`[]` when `q` is empty" },
      301: {
        ...S.object({}),
        description: "`{}`, Location /api/queries?q=…",
        headers: { location: S.str },
      },
      ...S.errors(403, 404),
    },
  },
  tags: {
    tags,
    summary: "Tags of the visible queries, with counts",
    response: {
      200: S.object(
        { tags: S.array(S.object({ name: S.str, count: S.int }, ["name", "count"])) },
        ["tags"],
        "Tags by name",
      ),
      ...S.errors(404),
    },
  },
  format: {
    tags,
    summary: "Format SQL text",
    body: S.object({ query: S.str }),
    response: {
      200: S.object({ query: S.str }, ["query"], "The formatted text"),
      ...S.errors(400, 404),
    },
  },
  create: {
    tags,
    summary: "Create a query (always a draft)",
    body: S.object(writableFields, ["name", "query", "data_source_id"]),
    response: { 200: S.query, ...S.errors(400, 403, 404) },
  },
  get: oneQuery("Get a query"),
  save: {
    ...oneQuery("Save a query (partial update)", [400, 403, 404, 409]),
    body: S.object({
      ...writableFields,
      is_draft: S.bool,
      is_archived: S.bool,
      version: { ...S.orNull(S.int), description: "When given, must match the stored version" },
    }),
  },
  archiveOne: answersNull("Archive a query"),
  fork: oneQuery("Fork a query, with its visualizations"),
  regenerateApiKey: oneQuery("Give a query a new API key"),
  addFavorite: answersNull("Add a query to the caller's favorites"),
  removeFavorite: answersNull("Remove a query from the caller's favorites"),
  dropdown: dropdown("Options of a dropdown parameter whose source is this query", S.idParams),
  dropdowns: dropdown(
    "Options of a dropdown parameter of this query, from its source query",
    S.params({ id: S.int, dropdown_query_id: S.int }),
  ),
  results: {
    tags: ["query results"],
    summary: "Run a saved query, or get its cached result",
    params: S.idParams,
    body: S.object({
      parameters: { ...S.anyObject, description: "Values, checked against the query's parameters" },
      max_age: {
        anyOf: [S.int, S.str, { type: "null" }],
        description: "Seconds: 0 = always run, -1 (default) = a cached result of any age",
      },
      apply_auto_limit: { ...S.bool, description: "Defaults to the query's option" },
    }),
    response: {
      200: S.resultOrJob,
      400: {
        anyOf: [S.errorMessage, S.jobRefusal],
        description: "Invalid parameter values, a paused data source or missing values",
      },
      401: noDataSource,
      403: { anyOf: [S.errorMessage, S.jobRefusal], description: "Not permitted to run it" },
      ...S.errors(404, 503),
    },
  },
  refresh: {
    tags: ["query results"],
    summary: "Run a saved query now (legacy)",
    description: "Parameter values come from `p_<name>` query-string arguments, unchecked.",
    params: S.idParams,
    response: {
      200: S.jobResponse,
      400: { ...S.jobRefusal, description: "A paused data source or missing parameter values" },
      401: noDataSource,
      ...S.errors(403, 404, 503),
    },
  },
};

const DROPDOWN_NO_GROUP =
  "You are trying to associate a dropdown query that does not have a matching group. " +
  "Please verify the dropdown query id you are trying to associate with this query.";
const DETACHED = "This query is detached from any data source. Please select a different query.";

/**
 * `Query.query_hash` (api-queries.md §6.2): saved defaults rendered in, the runner's auto-limit
 * step, hash normalisation, MD5. The one place the stored hash is computed.
 */
export function storedQueryHash(
  q: Pick<Query, "query" | "options" | "data_source_id">,
  dataSourceType: string | null,
): string {
  const runner = dataSourceType === null ? null : findRunner(dataSourceType);
  const source = queryHashSource({
    text: q.query,
    parameters: parameterSchema(q.options),
    applyAutoLimit: q.options.apply_auto_limit === true,
    runner: q.data_source_id === null || !runner ? null : runner,
  });
  return queryHash(source);
}

const usersByIds = (ctx: AppContext, ids: (number | null)[]) =>
  findUsersByIds(ctx.database.db, ids);

// ---------------------------------------------------------------------------------------------
// Body fields

function readOptions(value: unknown): QueryOptions {
  if (value === null || value === undefined) return {};
  if (typeof value !== "object" || Array.isArray(value))
    throw badRequest("options must be an object.");
  const options = value as QueryOptions;
  const parametersProblem = parameterDefinitionsProblem(options.parameters);
  if (parametersProblem) throw badRequest(parametersProblem);
  if (options.apply_auto_limit !== undefined && typeof options.apply_auto_limit !== "boolean") {
    throw badRequest("options.apply_auto_limit must be true or false.");
  }
  return options;
}

function readSchedule(value: unknown): Record<string, unknown> | null {
  if (value === null || value === undefined) return null;
  const problem = scheduleProblem(value);
  if (problem) throw badRequest(problem);
  return value as Record<string, unknown>;
}

function readText(value: unknown, key: string, nullable: boolean): string | null {
  if (value === null && nullable) return null;
  if (typeof value !== "string") throw badRequest(`${key} must be a string.`);
  return value;
}

function readBool(value: unknown, key: string): boolean {
  if (typeof value !== "boolean") throw badRequest(`${key} must be true or false.`);
  return value;
}

function readNullableId(value: unknown, key: string): number | null {
  if (value === null) return null;
  return bodyId({ [key]: value }, key);
}

export async function queryRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { db } = ctx.database;

  async function loadQuery(request: FastifyRequest<{ Params: Params }>, orgId: number) {
    const query = await findQuery(db, orgId, parseId(request.params.id));
    if (!query) throw notFound();
    return query;
  }

  const linksOf = async (q: Pick<Query, "data_source_id">): Promise<GroupLink[]> =>
    q.data_source_id === null ? [] : groupLinksOf(db, q.data_source_id);

  async function requireQueryAccess(identity: Identity, query: Query, needed: "view" | "full") {
    const access = await queryAccess(db, identity, query, await linksOf(query));
    if (!accessAllows(access, needed)) throw forbidden();
  }

  /** The data source of a body, in the org (404), with full access for the caller (403). */
  async function writableDataSource(identity: Identity, orgId: number, id: number) {
    const ds = await findDataSource(db, orgId, id);
    if (!ds) throw notFound("Data source not found.");
    requireDataSourceAccess(identity, await groupLinksOf(db, ds.id), "full");
    return ds;
  }

  /**
   * §3.19: every dropdown source must exist with group links (400), and the caller must be able
   * to view each one on its own (403; not the union of their links, which would let a readable
   * source carry a hidden one).
   */
  async function checkDropdownQueries(identity: Identity, orgId: number, options: QueryOptions) {
    const ids = parameterSchema(options)
      .filter((p) => p.type === "query")
      .map((p) => Number(p.queryId));
    if (ids.length === 0) return;
    const sources = await findQueriesByIds(db, orgId, ids);
    const links = await groupLinks(
      db,
      sources.flatMap((s) => (s.data_source_id === null ? [] : [s.data_source_id])),
    );
    const each: GroupLink[][] = [];
    for (const id of new Set(ids)) {
      const source = sources.find((s) => s.id === id);
      const sourceLinks = source?.data_source_id ? (links.get(source.data_source_id) ?? []) : [];
      if (sourceLinks.length === 0) throw badRequest(DROPDOWN_NO_GROUP);
      each.push(sourceLinks);
    }
    for (const sourceLinks of each) requireDataSourceAccess(identity, sourceLinks, "view");
  }

  /**
   * A `latest_query_data_id` sent by a client, if the query may adopt it: a result of the query's
   * own text on its own data source that the caller may read (SECURITY.md rule 5). Anything else
   * is ignored rather than refused, since Redash's client sends the field on every save.
   */
  async function adoptableResult(
    identity: Identity,
    orgId: number,
    resultId: number | null,
    query: Pick<Query, "data_source_id" | "query_hash">,
  ): Promise<number | null> {
    if (resultId === null) return null;
    const meta = await loadResultMeta(db, orgId, resultId);
    if (!meta || !isOwnResult(query, meta, true)) return null;
    return (await readerResultRefusal(db, meta, principalOf(identity))) === null ? meta.id : null;
  }

  async function dataSourceType(id: number | null, orgId: number): Promise<string | null> {
    if (id === null) return null;
    return (await findDataSource(db, orgId, id))?.type ?? null;
  }

  /** Hash recomputed; the newest result with that hash becomes the latest one (§6.2, §6.4). */
  async function rehash(query: Query): Promise<Query> {
    const hash = storedQueryHash(query, await dataSourceType(query.data_source_id, query.org_id));
    const latest =
      query.data_source_id === null
        ? null
        : await newestResultId(db, query.org_id, query.data_source_id, hash);
    const changes = {
      query_hash: hash,
      latest_query_data_id: latest ?? query.latest_query_data_id,
    };
    // Not a user change: neither the version nor updated_at moves.
    await db.updateTable("queries").set(changes).where("id", "=", query.id).execute();
    return { ...query, ...changes };
  }

  async function presentWrite(query: Query, identity: Identity, withVisualizations = true) {
    const users = await usersByIds(ctx, [query.user_id, query.last_modified_by_id]);
    const favorite =
      identity.kind === "user"
        ? (await favoritesAmong(db, "Query", [query.id], identity.user.id)).has(query.id)
        : undefined;
    return presentQueryDetail(query, {
      users,
      visualizations: withVisualizations
        ? ((await visualizationsOf(db, [query.id])).get(query.id) ?? [])
        : undefined,
      isFavorite: favorite,
    });
  }

  function event(
    request: FastifyRequest,
    identity: Identity,
    orgId: number,
    action: string,
    objectId: number | string,
    details?: Record<string, unknown>,
  ) {
    return recordEvent(db, {
      orgId,
      userId: identity.kind === "user" ? identity.user.id : null,
      apiKeyName: identity.kind === "api_key" ? identity.name : undefined,
      action,
      objectType: "query",
      objectId,
      details,
      request,
    });
  }

  // -------------------------------------------------------------------------------------------
  // Lists

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
      ctx,
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
    return {
      ...page,
      results: page.results.map((q) =>
        presentListedQuery(q, users, q.starred_at ?? favorites.get(q.id) ?? null),
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

  // -------------------------------------------------------------------------------------------
  // One query

  app.post("/api/queries", { schema: docs.create }, async (request) => {
    const { identity, org } = requirePermission(request, "create_query");
    if (identity.kind !== "user") throw forbidden();
    const body = bodyObject(request);
    const dataSourceId = bodyId(body, "data_source_id");
    if (typeof body.query !== "string") throw badRequest("query is required and must be a string.");
    if (typeof body.name !== "string") throw badRequest("name is required and must be a string.");
    const ds = await writableDataSource(identity, org.id, dataSourceId);
    const options = readOptions(body.options);
    await checkDropdownQueries(identity, org.id, options);
    const fields: QueryFields = {
      data_source_id: ds.id,
      latest_query_data_id: null,
      name: body.name,
      description:
        body.description === undefined ? null : readText(body.description, "description", true),
      query: body.query,
      query_hash: "",
      user_id: identity.user.id,
      last_modified_by_id: identity.user.id,
      is_archived: false,
      is_draft: true,
      schedule: readSchedule(body.schedule),
      options,
      tags: readTags(body.tags),
    };
    fields.query_hash = storedQueryHash({ ...fields }, ds.type);
    if (body.latest_query_data_id !== undefined) {
      const requested = readNullableId(body.latest_query_data_id, "latest_query_data_id");
      fields.latest_query_data_id = await adoptableResult(identity, org.id, requested, fields);
    }
    const latest = await newestResultId(db, org.id, ds.id, fields.query_hash);
    if (latest !== null) fields.latest_query_data_id = latest;
    const query = await insertQuery(db, org.id, fields);
    await insertVisualization(db, query.id, {
      type: "TABLE",
      name: "Table",
      description: "",
      options: {},
    });
    await event(request, identity, org.id, "create", query.id);
    return presentWrite(query, identity);
  });

  app.get<{ Params: Params }>("/api/queries/:id", { schema: docs.get }, async (request) => {
    const { identity, org } = requirePermission(request, "view_query");
    const query = await loadQuery(request, org.id);
    await requireQueryAccess(identity, query, "view");
    const users = await usersByIds(ctx, [query.user_id, query.last_modified_by_id]);
    const visualizations = (await visualizationsOf(db, [query.id])).get(query.id) ?? [];
    await event(request, identity, org.id, "view", query.id);
    return presentQueryDetail(query, {
      users,
      visualizations,
      canEdit: await canModify(db, identity, "queries", query),
      isFavorite:
        identity.kind === "user"
          ? (await favoritesAmong(db, "Query", [query.id], identity.user.id)).has(query.id)
          : undefined,
    });
  });

  app.post<{ Params: Params }>("/api/queries/:id", { schema: docs.save }, async (request) => {
    const { identity, org } = requirePermission(request, "edit_query");
    if (identity.kind !== "user") throw forbidden();
    const query = await loadQuery(request, org.id);
    if (!(await canModify(db, identity, "queries", query))) throw forbidden();
    const body = bodyObject(request);
    const changes: Partial<QueryFields> = {};
    if ("query" in body) changes.query = readText(body.query, "query", false)!;
    if ("name" in body) changes.name = readText(body.name, "name", false)!;
    if ("description" in body)
      changes.description = readText(body.description, "description", true);
    if ("schedule" in body) changes.schedule = readSchedule(body.schedule);
    if ("options" in body) changes.options = readOptions(body.options);
    if ("tags" in body) changes.tags = readTags(body.tags);
    if ("is_draft" in body) changes.is_draft = readBool(body.is_draft, "is_draft");
    if ("is_archived" in body) changes.is_archived = readBool(body.is_archived, "is_archived");
    const requestedResult =
      "latest_query_data_id" in body
        ? readNullableId(body.latest_query_data_id, "latest_query_data_id")
        : undefined;
    if ("data_source_id" in body) {
      changes.data_source_id = (
        await writableDataSource(identity, org.id, bodyId(body, "data_source_id"))
      ).id;
    } else if (
      changes.query !== undefined &&
      changes.query !== query.query &&
      query.data_source_id !== null
    ) {
      // New text needs the access that running new text needs: a user with read-only access
      // (even with a grant to modify the query) could otherwise run any SQL by saving it.
      await writableDataSource(identity, org.id, query.data_source_id);
    }
    let version: number | undefined;
    if ("version" in body && body.version !== null) {
      if (typeof body.version !== "number" || !Number.isInteger(body.version)) {
        throw badRequest("version must be a whole number.");
      }
      if (body.version !== query.version) throw conflict();
      version = body.version;
    }
    if (changes.options) await checkDropdownQueries(identity, org.id, changes.options);
    if (requestedResult !== undefined) {
      // Judged against the text and data source being saved; null clears, a refused id is ignored.
      const next = { ...query, ...changes };
      const hash = storedQueryHash(next, await dataSourceType(next.data_source_id, org.id));
      const adopted = await adoptableResult(identity, org.id, requestedResult, {
        data_source_id: next.data_source_id,
        query_hash: hash,
      });
      if (adopted !== null || requestedResult === null) changes.latest_query_data_id = adopted;
    }
    changes.last_modified_by_id = identity.user.id;
    if (!(await updateQuery(db, query.id, changes, version))) throw conflict();
    const saved = await rehash((await findQuery(db, org.id, query.id))!);
    await event(request, identity, org.id, "edit", query.id);
    return presentWrite(saved, identity);
  });

  app.delete<{ Params: Params }>(
    "/api/queries/:id",
    { schema: docs.archiveOne },
    async (request) => {
      const { identity, org } = requireLogin(request);
      const query = await loadQuery(request, org.id);
      requireAdminOrOwner(identity, query.user_id);
      await archiveQuery(db, query.id, identity.kind === "user" ? identity.user.id : query.user_id);
      await event(request, identity, org.id, "archive", query.id);
      return null;
    },
  );

  app.post<{ Params: Params }>("/api/queries/:id/fork", { schema: docs.fork }, async (request) => {
    const { identity, org } = requirePermission(request, "edit_query");
    if (identity.kind !== "user") throw forbidden();
    const original = await loadQuery(request, org.id);
    requireDataSourceAccess(identity, await linksOf(original), "full");
    const fork = await insertQuery(db, org.id, {
      data_source_id: original.data_source_id,
      latest_query_data_id: original.latest_query_data_id,
      name: `Copy of (#${original.id}) ${original.name}`,
      description: original.description,
      query: original.query,
      query_hash: original.query_hash,
      user_id: identity.user.id,
      last_modified_by_id: identity.user.id,
      is_archived: false,
      is_draft: true,
      schedule: null,
      options: original.options,
      tags: original.tags,
    });
    for (const v of (await visualizationsOf(db, [original.id])).get(original.id) ?? []) {
      await insertVisualization(db, fork.id, v);
    }
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

  // -------------------------------------------------------------------------------------------
  // Dropdowns (§3.17, §3.18)

  async function dropdownOf(source: Query, orgId: number, identity: Identity) {
    try {
      return await dropdownValues(db, orgId, source, principalOf(identity));
    } catch (error) {
      if (error instanceof DetachedDropdownQueryError) throw badRequest(DETACHED);
      throw error;
    }
  }

  app.get<{ Params: Params }>(
    "/api/queries/:id/dropdown",
    { schema: docs.dropdown },
    async (request) => {
      const { identity, org } = requireLogin(request);
      const query = await loadQuery(request, org.id);
      if (query.data_source_id !== null) {
        requireDataSourceAccess(identity, await linksOf(query), "view");
      } else if (!accessAllows(await queryAccess(db, identity, query, []), "view")) {
        throw forbidden();
      }
      return dropdownOf(query, org.id, identity);
    },
  );

  app.get<{ Params: { id: string; dropdown_query_id: string } }>(
    "/api/queries/:id/dropdowns/:dropdown_query_id",
    { schema: docs.dropdowns },
    async (request) => {
      const { identity, org } = requireLogin(request);
      const parent = await loadQuery(request, org.id);
      const dropdownId = parseId(request.params.dropdown_query_id);
      await requireQueryAccess(identity, parent, "view");
      const named = parameterSchema(parent.options).some(
        (p) => p.type === "query" && Number(p.queryId) === dropdownId,
      );
      // An API key (an embed, a public dashboard) reaches only the dropdown queries its query's
      // parameters name; a user needs view access to the dropdown query itself, named or not
      // (SECURITY.md rule 5: a name in a parent's options is no grant).
      if (identity.kind === "api_key" && !named) throw forbidden();
      const source = await findQuery(db, org.id, dropdownId);
      if (!source) throw notFound();
      if (identity.kind === "user" && source.data_source_id !== null) {
        requireDataSourceAccess(identity, await linksOf(source), "view");
      }
      return dropdownOf(source, org.id, identity);
    },
  );

  // -------------------------------------------------------------------------------------------
  // Execution of saved queries (§4.2, §3.14)

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
