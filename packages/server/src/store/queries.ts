import { sql, type Kysely, type Selectable } from "kysely";
import type { ParameterDefinition } from "@sightline/core";
import type { DB, QueriesTable } from "./schema";
import { bool, isStoredId, now, parseJson, toJson } from "./values";
import { saveVersioned } from "./versions";
import { generateApiKey } from "../auth/secretKey";
import { findInOrg } from "./orgRows";

export interface QueryOptions {
  parameters?: unknown[];
  apply_auto_limit?: boolean;
  [key: string]: unknown;
}

/** A stored query (the columns of QueriesTable), its flags and JSON read. */
export interface Query extends Omit<
  Selectable<QueriesTable>,
  "is_archived" | "is_draft" | "schedule" | "options" | "tags"
> {
  is_archived: boolean;
  is_draft: boolean;
  schedule: Record<string, unknown> | null;
  options: QueryOptions;
  tags: string[];
}

export function queryFromRow(row: Selectable<QueriesTable>): Query {
  return {
    ...row,
    is_archived: bool(row.is_archived),
    is_draft: bool(row.is_draft),
    schedule: parseJson<Record<string, unknown> | null>(row.schedule, null),
    options: parseJson<QueryOptions>(row.options, {}),
    tags: parseJson<string[] | null>(row.tags, null) ?? [],
  };
}

export async function findQuery(db: Kysely<DB>, orgId: number, id: number): Promise<Query | null> {
  const row = await findInOrg(db, "queries", orgId, id);
  return row ? queryFromRow(row) : null;
}

export async function findQueriesByIds(
  db: Kysely<DB>,
  orgId: number,
  ids: number[],
): Promise<Query[]> {
  const valid = [...new Set(ids.filter(isStoredId))];
  if (valid.length === 0) return [];
  const rows = await db
    .selectFrom("queries")
    .selectAll()
    .where("org_id", "=", orgId)
    .where("id", "in", valid)
    .execute();
  return rows.map(queryFromRow);
}

/** What a caller sets of a query; the store keeps the rest (id, version, API key, times). */
export type QueryFields = Omit<
  Query,
  "id" | "version" | "org_id" | "api_key" | "schedule_failures" | "created_at" | "updated_at"
>;

function storedFields(fields: Partial<QueryFields>) {
  const { schedule, options, tags, ...rest } = fields;
  return {
    ...rest,
    ...(schedule !== undefined ? { schedule: schedule === null ? null : toJson(schedule) } : {}),
    ...(options !== undefined ? { options: toJson(options) } : {}),
    ...(tags !== undefined ? { tags: toJson(tags) } : {}),
  };
}

export async function insertQuery(
  db: Kysely<DB>,
  orgId: number,
  fields: QueryFields,
): Promise<Query> {
  const ts = now();
  const row = await db
    .insertInto("queries")
    .values({
      ...fields,
      schedule: fields.schedule === null ? null : toJson(fields.schedule),
      options: toJson(fields.options),
      tags: toJson(fields.tags),
      org_id: orgId,
      version: 1,
      api_key: generateApiKey(),
      schedule_failures: 0,
      created_at: ts,
      updated_at: ts,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return queryFromRow(row);
}

/**
 * Saves changes. With `expectedVersion` the write happens only if the stored version still
 * matches (returns false otherwise); every save increments the version.
 */
export async function updateQuery(
  db: Kysely<DB>,
  id: number,
  changes: Partial<QueryFields>,
  expectedVersion?: number,
): Promise<boolean> {
  return saveVersioned(db, "queries", id, storedFields(changes), expectedVersion);
}

export async function setQueryApiKey(db: Kysely<DB>, id: number): Promise<void> {
  await db
    .updateTable("queries")
    .set({ api_key: generateApiKey(), updated_at: now() })
    .where("id", "=", id)
    .execute();
}

/** The newest stored result with this hash on this data source (api-queries.md §6.4). */
export async function newestResultId(
  db: Kysely<DB>,
  orgId: number,
  dataSourceId: number,
  queryHash: string,
): Promise<number | null> {
  const row = await db
    .selectFrom("query_results")
    .select("id")
    .where("org_id", "=", orgId)
    .where("data_source_id", "=", dataSourceId)
    .where("query_hash", "=", queryHash)
    .orderBy("retrieved_at", "desc")
    .orderBy("id", "desc")
    .executeTakeFirst();
  return row?.id ?? null;
}

/**
 * Archives a query: schedule cleared, widgets showing its visualizations deleted, its alerts
 * and their subscriptions deleted. The row and its visualizations remain.
 */
/**
 * Archives a query: its widgets leave their dashboards and its alerts go. `inTransaction` runs
 * before the commit with the ids of the dashboards that lost widgets (their versions are kept).
 */
export async function archiveQuery(
  db: Kysely<DB>,
  id: number,
  userId: number,
  inTransaction?: (tx: Kysely<DB>, dashboardIds: number[]) => Promise<void>,
): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await tx
      .updateTable("queries")
      .set((eb) => ({
        is_archived: true,
        schedule: null,
        last_modified_by_id: userId,
        version: eb("version", "+", 1),
        updated_at: now(),
      }))
      .where("id", "=", id)
      .execute();
    const visualizations = tx.selectFrom("visualizations").select("id").where("query_id", "=", id);
    const dashboards = await tx
      .selectFrom("widgets")
      .select("dashboard_id")
      .distinct()
      .where("visualization_id", "in", visualizations)
      .execute();
    await tx.deleteFrom("widgets").where("visualization_id", "in", visualizations).execute();
    const alerts = tx.selectFrom("alerts").select("id").where("query_id", "=", id);
    await tx.deleteFrom("alert_subscriptions").where("alert_id", "in", alerts).execute();
    await tx.deleteFrom("alerts").where("query_id", "=", id).execute();
    await inTransaction?.(
      tx,
      dashboards.map((d) => d.dashboard_id),
    );
  });
}

/** One query of a listing, with what ordering and the list variant need. */
export interface ListedQuery extends Query {
  owner_name: string | null;
  runtime: number | null;
  retrieved_at: string | null;
  starred_at: string | null;
}

/** What search, tag filter and ordering read of a listed query (the page then loads in full). */
export type ListedQueryKey = Pick<
  ListedQuery,
  | "id"
  | "name"
  | "description"
  | "query"
  | "tags"
  | "created_at"
  | "schedule"
  | "owner_name"
  | "runtime"
  | "retrieved_at"
  | "starred_at"
>;

export interface ListFilter {
  orgId: number;
  /** The caller's groups: a query is visible when its data source is linked to one of them. */
  groupIds: number[];
  archived: boolean;
  /** Only this user's queries. */
  ownerId?: number;
  /** Only this user's favorites (starred_at filled). */
  favoritesOf?: number;
  /** Drafts of other users are left out (the archive list). */
  draftsOnlyOf?: number;
  /** Also read the query texts (a search looks into them); otherwise `query` is "". */
  withText?: boolean;
}

/**
 * The queries a listing may show, before search, tags, ordering and paging: only the fields
 * those read, so that an organisation with thousands of queries does not read every text and
 * options blob for a page of 25.
 */
export async function listVisibleQueries(db: Kysely<DB>, f: ListFilter): Promise<ListedQueryKey[]> {
  if (f.groupIds.length === 0) return [];
  const visibleDataSources = db
    .selectFrom("data_source_groups")
    .select("data_source_id")
    .where("group_id", "in", f.groupIds);
  let q = db
    .selectFrom("queries")
    .leftJoin("users", "users.id", "queries.user_id")
    .leftJoin("query_results", "query_results.id", "queries.latest_query_data_id")
    .select([
      "queries.id",
      "queries.name",
      "queries.description",
      "queries.tags",
      "queries.created_at",
      "queries.schedule",
      "users.name as owner_name",
      "query_results.runtime as runtime",
      "query_results.retrieved_at as retrieved_at",
    ])
    .select((f.withText ? sql<string>`${sql.ref("queries.query")}` : sql<string>`''`).as("query"))
    .where("queries.org_id", "=", f.orgId)
    .where("queries.is_archived", "=", f.archived)
    .where("queries.data_source_id", "in", visibleDataSources);
  if (f.ownerId !== undefined) q = q.where("queries.user_id", "=", f.ownerId);
  if (f.draftsOnlyOf !== undefined) {
    const userId = f.draftsOnlyOf;
    q = q.where((eb) =>
      eb.or([eb("queries.is_draft", "=", false), eb("queries.user_id", "=", userId)]),
    );
  }
  if (f.favoritesOf !== undefined) {
    const rows = await q
      .innerJoin("favorites", (join) =>
        join
          .onRef("favorites.object_id", "=", "queries.id")
          .on("favorites.object_type", "=", "Query")
          .on("favorites.user_id", "=", f.favoritesOf!),
      )
      .select("favorites.created_at as starred_at")
      .execute();
    return rows.map((r) => ({ ...listedKey(r), starred_at: r.starred_at }));
  }
  const rows = await q.execute();
  return rows.map((r) => ({ ...listedKey(r), starred_at: null }));
}

function listedKey(r: {
  id: number;
  name: string;
  description: string | null;
  query: string;
  tags: string | null;
  created_at: string;
  schedule: string | null;
  owner_name: string | null;
  runtime: number | string | null;
  retrieved_at: string | null;
}): Omit<ListedQueryKey, "starred_at"> {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    query: String(r.query),
    tags: parseJson<string[] | null>(r.tags, null) ?? [],
    created_at: r.created_at,
    schedule: parseJson<Record<string, unknown> | null>(r.schedule, null),
    owner_name: r.owner_name,
    runtime: r.runtime === null ? null : Number(r.runtime),
    retrieved_at: r.retrieved_at,
  };
}

/** The full rows of a listed page, in the page's order (a query gone meanwhile is left out). */
export async function loadListedPage(
  db: Kysely<DB>,
  orgId: number,
  keys: ListedQueryKey[],
): Promise<ListedQuery[]> {
  const full = new Map(
    (
      await findQueriesByIds(
        db,
        orgId,
        keys.map((k) => k.id),
      )
    ).map((q) => [q.id, q]),
  );
  return keys.flatMap((k) => {
    const q = full.get(k.id);
    if (!q) return [];
    const { owner_name, runtime, retrieved_at, starred_at } = k;
    return [{ ...q, owner_name, runtime, retrieved_at, starred_at }];
  });
}

/** The caller's own most recently updated queries (drafts included). */
export async function recentQueries(
  db: Kysely<DB>,
  orgId: number,
  userId: number,
  groupIds: number[],
  limit = 10,
): Promise<Query[]> {
  if (groupIds.length === 0) return [];
  const rows = await db
    .selectFrom("queries")
    .selectAll()
    .where("org_id", "=", orgId)
    .where("user_id", "=", userId)
    .where("is_archived", "=", false)
    .where(
      "data_source_id",
      "in",
      db
        .selectFrom("data_source_groups")
        .select("data_source_id")
        .where("group_id", "in", groupIds),
    )
    .orderBy("updated_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.map(queryFromRow);
}

/** The parameter definitions of a query's options (entries that are not objects are ignored). */
export function parameterSchema(options: QueryOptions): ParameterDefinition[] {
  const list = Array.isArray(options.parameters) ? options.parameters : [];
  return list.filter(
    (p): p is ParameterDefinition =>
      typeof p === "object" && p !== null && typeof (p as { name?: unknown }).name === "string",
  );
}
