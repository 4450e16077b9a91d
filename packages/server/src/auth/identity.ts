import type { Kysely } from "kysely";
import type { DB } from "../store/schema";
import type { Organization } from "../store/organizations";
import { findUserByApiKey, findUserById, groupsByIds, type User } from "../store/users";
import { bool } from "../store/values";
import { groupIdsOfDataSource } from "../store/groups";

/** Who is making a request. Every route and policy works from this. */
export type Identity = UserIdentity | ApiKeyIdentity | AnonymousIdentity;

export interface UserIdentity {
  kind: "user";
  user: User;
  orgId: number;
  groupIds: number[];
  permissions: string[];
  /** Authenticated by the user's API key rather than a session (no CSRF check applies). */
  viaApiKey: boolean;
}

/** A dashboard share key or a query API key: may only view what the key opens. */
export interface ApiKeyIdentity {
  kind: "api_key";
  orgId: number;
  apiKey: string;
  name: string;
  groupIds: number[];
  permissions: ["view_query"];
  object: { type: "dashboards" | "queries"; id: number };
}

export interface AnonymousIdentity {
  kind: "anonymous";
}

export const ANONYMOUS: AnonymousIdentity = { kind: "anonymous" };

export async function userIdentity(
  db: Kysely<DB>,
  user: User,
  viaApiKey: boolean,
): Promise<UserIdentity> {
  const groups = await groupsByIds(db, user.org_id, user.group_ids);
  return {
    kind: "user",
    user,
    orgId: user.org_id,
    groupIds: groups.map((g) => g.id),
    // The union of the groups' permissions, as Redash (duplicates removed).
    permissions: [...new Set(groups.flatMap((g) => g.permissions))],
    viaApiKey,
  };
}

export function isActive(user: User): boolean {
  return user.disabled_at === null;
}

/**
 * Resolves an API key, in Redash's order: a user's key, an active dashboard share key, then the
 * API key of the query named by the route's `query_id` (or `id` on /api/queries/<id> routes).
 */
export async function identityFromApiKey(
  db: Kysely<DB>,
  org: Organization,
  apiKey: string,
  routeQueryId: number | null,
): Promise<Identity | null> {
  const user = await findUserByApiKey(db, org.id, apiKey);
  if (user) return isActive(user) ? userIdentity(db, user, true) : null;

  const shareKey = await db
    .selectFrom("api_keys")
    .selectAll()
    .where("api_key", "=", apiKey)
    .where("org_id", "=", org.id)
    .executeTakeFirst();
  if (shareKey && bool(shareKey.active)) {
    return {
      kind: "api_key",
      orgId: org.id,
      apiKey,
      name: `ApiKey: ${shareKey.object_type} ${shareKey.object_id}`,
      groupIds: [],
      permissions: ["view_query"],
      object: {
        type: shareKey.object_type === "queries" ? "queries" : "dashboards",
        id: shareKey.object_id,
      },
    };
  }

  if (routeQueryId !== null) {
    const query = await findRouteQuery(db, org, routeQueryId);
    if (query && query.api_key === apiKey) return queryKeyIdentity(db, org, query);
  }
  return null;
}

interface RouteQuery {
  id: number;
  api_key: string;
  data_source_id: number | null;
}

/**
 * The route's query, for its API key. Only while its owner is enabled: a query key acts with its
 * owner's rights, and disabling a user stops everything that does (SECURITY.md rule 6).
 */
export function findRouteQuery(
  db: Kysely<DB>,
  org: Organization,
  queryId: number,
): Promise<RouteQuery | undefined> {
  return db
    .selectFrom("queries")
    .innerJoin("users", "users.id", "queries.user_id")
    .select(["queries.id", "queries.api_key", "queries.data_source_id"])
    .where("queries.org_id", "=", org.id)
    .where("queries.id", "=", queryId)
    .where("users.disabled_at", "is", null)
    .executeTakeFirst();
}

/** What a query's own key opens: that query, with the groups of its data source. */
export async function queryKeyIdentity(
  db: Kysely<DB>,
  org: Organization,
  query: RouteQuery,
): Promise<ApiKeyIdentity> {
  return {
    kind: "api_key",
    orgId: org.id,
    apiKey: query.api_key,
    name: `ApiKey: Query ${query.id}`,
    groupIds: await groupIdsOfDataSource(db, query.data_source_id),
    permissions: ["view_query"],
    object: { type: "queries", id: query.id },
  };
}

/** The session's user, if the stored token still matches and the user is enabled. */
export async function identityFromSession(
  db: Kysely<DB>,
  org: Organization,
  userId: number,
  userToken: string,
): Promise<UserIdentity | null> {
  const user = await findUserById(db, org.id, userId);
  if (!user || !isActive(user) || user.session_token !== userToken) return null;
  return userIdentity(db, user, false);
}
