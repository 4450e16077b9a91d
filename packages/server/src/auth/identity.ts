import type { Kysely } from "kysely";
import type { DB } from "../store/schema";
import type { Organization } from "../store/organizations";
import { groupsByIds, type User } from "../store/users";
import { findCaller, type Caller } from "../store/callers";
import { bool } from "../store/values";

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

/**
 * A dashboard share key or a query API key: views only what the key opens (its object), and only
 * as far as the user behind it may, as that user's rights stand now: the dashboard's or the
 * query's owner. A key whose owner is disabled, or whose dashboard is archived, resolves to nothing.
 */
export interface ApiKeyIdentity {
  kind: "api_key";
  orgId: number;
  apiKey: string;
  name: string;
  /** The owner's groups, read when the key was resolved (never more than the owner's). */
  groupIds: number[];
  /** The owner is an admin: the key reaches every data source, for viewing (policies/index.ts). */
  ownerIsAdmin: boolean;
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

/** The identity of a caller read by store/callers.ts (their groups read in the same statement). */
export function callerIdentity(caller: Caller, viaApiKey: boolean): UserIdentity {
  return {
    kind: "user",
    user: caller.user,
    orgId: caller.user.org_id,
    groupIds: caller.groupIds,
    permissions: caller.permissions,
    viaApiKey,
  };
}

export function isActive(user: User): boolean {
  return user.disabled_at === null;
}

/** The current rights of the user an object key acts for, or null when they are disabled. */
async function ownerRights(
  db: Kysely<DB>,
  orgId: number,
  ownerId: number,
): Promise<{ groupIds: number[]; ownerIsAdmin: boolean } | null> {
  const owner = await findCaller(db, orgId, { userId: ownerId });
  if (!owner || !isActive(owner.user)) return null;
  return { groupIds: owner.groupIds, ownerIsAdmin: owner.permissions.includes("admin") };
}

/**
 * Resolves an API key, in Redash's order: a user's key, an active dashboard share key, then the
 * API key of the query named by the route's `query_id` (or `id` on /api/queries/<id> routes).
 */
export async function identityFromApiKey(
  db: Kysely<DB>,
  org: Pick<Organization, "id">,
  apiKey: string,
  routeQueryId: number | null,
): Promise<Identity | null> {
  const caller = await findCaller(db, org.id, { apiKey });
  if (caller) return isActive(caller.user) ? callerIdentity(caller, true) : null;

  const objectKey = await db
    .selectFrom("api_keys")
    .select(["object_type", "object_id", "active"])
    .where("api_key", "=", apiKey)
    .where("org_id", "=", org.id)
    .executeTakeFirst();
  if (objectKey && bool(objectKey.active)) {
    if (objectKey.object_type !== "queries") {
      return shareKeyIdentity(db, org.id, apiKey, objectKey.object_id);
    }
    const query = await findRouteQuery(db, org, objectKey.object_id);
    return query ? queryKeyIdentity(db, org, { ...query, api_key: apiKey }) : null;
  }

  if (routeQueryId !== null) {
    const query = await findRouteQuery(db, org, routeQueryId);
    if (query && query.api_key === apiKey) return queryKeyIdentity(db, org, query);
  }
  return null;
}

/**
 * What a dashboard's share key opens: that dashboard while it is not archived, with the current
 * rights of its owner (SECURITY.md rules 5 and 6), whoever shared it or added its widgets.
 */
async function shareKeyIdentity(
  db: Kysely<DB>,
  orgId: number,
  apiKey: string,
  dashboardId: number,
): Promise<ApiKeyIdentity | null> {
  const dashboard = await db
    .selectFrom("dashboards")
    .select(["user_id", "is_archived"])
    .where("org_id", "=", orgId)
    .where("id", "=", dashboardId)
    .executeTakeFirst();
  if (!dashboard || bool(dashboard.is_archived)) return null;
  const rights = await ownerRights(db, orgId, dashboard.user_id);
  if (!rights) return null;
  return {
    kind: "api_key",
    orgId,
    apiKey,
    name: `ApiKey: dashboards ${dashboardId}`,
    ...rights,
    permissions: ["view_query"],
    object: { type: "dashboards", id: dashboardId },
  };
}

/**
 * The identity an API key has now (a run principal's key, judged again when its job runs or its
 * result is read): null once the key no longer opens its object.
 */
export async function currentKeyIdentity(
  db: Kysely<DB>,
  orgId: number,
  apiKey: string,
  object: ApiKeyIdentity["object"],
): Promise<ApiKeyIdentity | null> {
  const routeQueryId = object.type === "queries" ? object.id : null;
  const identity = await identityFromApiKey(db, { id: orgId }, apiKey, routeQueryId);
  if (identity?.kind !== "api_key") return null;
  const same = identity.object.type === object.type && identity.object.id === object.id;
  return same ? identity : null;
}

interface RouteQuery {
  id: number;
  api_key: string;
  data_source_id: number | null;
  user_id: number;
}

/**
 * The route's query, for its API key. Only while its owner is enabled: a query key acts with its
 * owner's rights, and disabling a user stops everything that does (SECURITY.md rule 6).
 */
export function findRouteQuery(
  db: Kysely<DB>,
  org: Pick<Organization, "id">,
  queryId: number,
): Promise<RouteQuery | undefined> {
  return db
    .selectFrom("queries")
    .innerJoin("users", "users.id", "queries.user_id")
    .select(["queries.id", "queries.api_key", "queries.data_source_id", "queries.user_id"])
    .where("queries.org_id", "=", org.id)
    .where("queries.id", "=", queryId)
    .where("users.disabled_at", "is", null)
    .executeTakeFirst();
}

/** What a query's own key opens: that query, with its owner's current rights. */
export async function queryKeyIdentity(
  db: Kysely<DB>,
  org: Pick<Organization, "id">,
  query: RouteQuery,
): Promise<ApiKeyIdentity | null> {
  const rights = await ownerRights(db, org.id, query.user_id);
  if (!rights) return null;
  return {
    kind: "api_key",
    orgId: org.id,
    apiKey: query.api_key,
    name: `ApiKey: Query ${query.id}`,
    ...rights,
    permissions: ["view_query"],
    object: { type: "queries", id: query.id },
  };
}

/** What a session's cookie names: its user, the token it was signed with, its id. */
export interface SessionClaim {
  userId: number;
  userToken: string;
  sessionId: string;
}

/**
 * A session's identity, in one statement: its user, if the session was not ended by a logout,
 * the stored token still matches and the user is enabled; "ended" when it was ended.
 */
export async function identityFromSession(
  db: Kysely<DB>,
  org: Pick<Organization, "id">,
  claim: SessionClaim,
): Promise<UserIdentity | "ended" | null> {
  const caller = await findCaller(db, org.id, { userId: claim.userId }, claim.sessionId);
  if (!caller) return null;
  if (caller.sessionEnded) return "ended";
  const { user } = caller;
  if (!isActive(user) || user.session_token !== claim.userToken) return null;
  return callerIdentity(caller, false);
}
