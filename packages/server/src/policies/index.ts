import type { FastifyRequest } from "fastify";
import type { Kysely } from "kysely";
import type { DB } from "../store/schema";
import type { ApiKeyIdentity, Identity, UserIdentity } from "../auth/identity";
import type { Organization } from "../store/organizations";
import { forbidden, HttpError, LOGIN_REQUIRED_MESSAGE } from "../http/errors";
import { dataSourceAccess as coreDataSourceAccess, type AccessLevel } from "@sightline/core";

/**
 * Who may do what. Every route asks here, nowhere else. Admin satisfies every permission check.
 */

export function hasPermission(identity: Identity, permission: string): boolean {
  if (identity.kind === "anonymous") return false;
  const perms: readonly string[] = identity.permissions;
  return perms.includes("admin") || perms.includes(permission);
}

export function isAdmin(identity: Identity): boolean {
  return (
    identity.kind !== "anonymous" && (identity.permissions as readonly string[]).includes("admin")
  );
}

/** Any authenticated caller (user or API key) within the organisation. */
export function requireLogin(request: FastifyRequest): {
  identity: Exclude<Identity, { kind: "anonymous" }>;
  org: Organization;
} {
  const { identity, org } = request.auth;
  if (identity.kind === "anonymous" || !org) throw new HttpError(404, LOGIN_REQUIRED_MESSAGE);
  return { identity, org };
}

/** A signed-in user (not a query or dashboard API key). */
export function requireUser(request: FastifyRequest): {
  identity: UserIdentity;
  org: Organization;
} {
  const { identity, org } = requireLogin(request);
  if (identity.kind !== "user") throw forbidden();
  return { identity, org };
}

export function requirePermission(request: FastifyRequest, permission: string) {
  const result = requireLogin(request);
  if (!hasPermission(result.identity, permission)) throw forbidden();
  return result;
}

export function requireAdmin(request: FastifyRequest): {
  identity: UserIdentity;
  org: Organization;
} {
  const result = requireUser(request);
  if (!isAdmin(result.identity)) throw forbidden();
  return result;
}

/** Admin, or the owner of the object (or the user being acted on). */
export function canEditAsOwner(identity: Identity, ownerId: number): boolean {
  return isAdmin(identity) || (identity.kind === "user" && identity.user.id === ownerId);
}

export function requireAdminOrOwner(identity: Identity, ownerId: number): void {
  if (!canEditAsOwner(identity, ownerId))
    throw forbidden("You don't have permission to edit this resource.");
}

export type DataSourceAccess = AccessLevel;

/**
 * Group access to a data source (Redash's view_only model, rule in @sightline/core). API keys
 * act with their owner's groups and admin rights (auth/identity.ts) and never get more than view
 * access.
 */
export function dataSourceAccess(
  identity: Identity,
  links: { group_id: number; view_only: boolean }[],
): DataSourceAccess {
  if (identity.kind === "anonymous") return "none";
  const admin = identity.kind === "api_key" ? identity.ownerIsAdmin : isAdmin(identity);
  const level = coreDataSourceAccess(
    identity.groupIds,
    admin,
    links.map((l) => ({ groupId: l.group_id, viewOnly: l.view_only })),
  );
  return identity.kind === "api_key" && level === "full" ? "view" : level;
}

/** A permission, or being the user acted on (generic 403 otherwise; checked before any lookup). */
export function requirePermissionOrSelf(
  request: FastifyRequest,
  permission: string,
  userId: number,
) {
  const result = requireLogin(request);
  const self = result.identity.kind === "user" && result.identity.user.id === userId;
  if (!self && !hasPermission(result.identity, permission)) throw forbidden();
  return result;
}

/** The user acted on is the caller (signed in or with their own API key). */
export function isSelf(identity: Identity, userId: number): boolean {
  return identity.kind === "user" && identity.user.id === userId;
}

/**
 * Whether a user's API key may be shown to the caller: to its owner only (SECURITY.md rule 1),
 * and to admins too while the operator turns SIGHTLINE_SHOW_API_KEYS_TO_ADMINS on for a migration.
 */
export function maySeeApiKey(
  identity: Identity,
  userId: number,
  showApiKeysToAdmins: boolean,
): boolean {
  return isSelf(identity, userId) || (showApiKeysToAdmins && isAdmin(identity));
}

/** Admin, or the user acted on themself. */
export function isAdminOrSelf(identity: Identity, userId: number): boolean {
  return canEditAsOwner(identity, userId);
}

/** Admins see every group; others only the groups they are in. */
export function canSeeGroup(identity: Identity, groupId: number): boolean {
  if (identity.kind === "anonymous") return false;
  return isAdmin(identity) || identity.groupIds.includes(groupId);
}

/** Admin or a member of the group (generic 403, checked before the group is looked up). */
export function requireGroupAccess(request: FastifyRequest, groupId: number) {
  const result = requireLogin(request);
  if (!canSeeGroup(result.identity, groupId)) throw forbidden();
  return result;
}

/** Whether an access level satisfies the requested one ("full" satisfies "view"). */
export function accessAllows(access: DataSourceAccess, needed: "view" | "full"): boolean {
  return needed === "view" ? access !== "none" : access === "full";
}

/** Throws 403 unless the caller has `needed` access through the data source's group links. */
export function requireDataSourceAccess(
  identity: Identity,
  links: { group_id: number; view_only: boolean }[],
  needed: "view" | "full",
): void {
  if (!accessAllows(dataSourceAccess(identity, links), needed)) throw forbidden();
}

/**
 * The `view_only` flag of a data source for the caller: true iff every link to the caller's
 * groups is view-only (also true when none is, e.g. an admin outside the linked groups).
 */
export function dataSourceViewOnly(
  identity: Identity,
  links: { group_id: number; view_only: boolean }[],
): boolean {
  if (identity.kind === "anonymous") return true;
  return links.filter((l) => identity.groupIds.includes(l.group_id)).every((l) => l.view_only);
}

/**
 * Access to a query (api-queries.md §2.4). Users: the group model over the query's data source (a
 * query without data source: admins only). API keys view, at most: a query's own key its query, a
 * dashboard share key the queries its dashboard's widgets show; each only where the key's owner
 * may view the query now (`apiKeyQueryAccess`).
 */
export async function queryAccess(
  db: Kysely<DB>,
  identity: Identity,
  query: { id: number; data_source_id: number | null },
  links: { group_id: number; view_only: boolean }[],
): Promise<DataSourceAccess> {
  if (identity.kind === "anonymous") return "none";
  if (identity.kind === "user") return userQueryAccess(identity, query, links);
  const opens =
    identity.object.type === "queries"
      ? identity.object.id === query.id
      : await shownOnDashboard(db, identity.object.id, query.id);
  return opens ? apiKeyQueryAccess(identity, query, links) : "none";
}

/** The group model part of `queryAccess`: signed-in users, no lookups (for lists of queries). */
export function userQueryAccess(
  identity: UserIdentity,
  query: { data_source_id: number | null },
  links: { group_id: number; view_only: boolean }[],
): DataSourceAccess {
  if (isAdmin(identity)) return "full";
  if (query.data_source_id === null) return "none";
  return dataSourceAccess(identity, links);
}

/** Whether one of a dashboard's widgets shows one of the query's visualizations. */
async function shownOnDashboard(db: Kysely<DB>, dashboardId: number, queryId: number) {
  const shown = await db
    .selectFrom("widgets")
    .innerJoin("visualizations", "visualizations.id", "widgets.visualization_id")
    .select("widgets.id")
    .where("widgets.dashboard_id", "=", dashboardId)
    .where("visualizations.query_id", "=", queryId)
    .executeTakeFirst();
  return shown !== undefined;
}

/**
 * The owner part of an API key's access to a query its key opens: what the key's owner may view
 * of it now (their groups, or admin), never more than view. No lookups (for lists of widgets).
 */
export function apiKeyQueryAccess(
  identity: ApiKeyIdentity,
  query: { data_source_id: number | null },
  links: { group_id: number; view_only: boolean }[],
): DataSourceAccess {
  if (query.data_source_id === null) return identity.ownerIsAdmin ? "view" : "none";
  return dataSourceAccess(identity, links);
}

/** Admin, owner, or holder of an explicit `modify` grant on the object (api-queries.md §2.5). */
export async function canModify(
  db: Kysely<DB>,
  identity: Identity,
  objectType: "queries" | "dashboards",
  object: { id: number; user_id: number },
): Promise<boolean> {
  if (canEditAsOwner(identity, object.user_id)) return true;
  if (identity.kind !== "user") return false;
  const grant = await db
    .selectFrom("access_permissions")
    .select("id")
    .where("object_type", "=", objectType)
    .where("object_id", "=", object.id)
    .where("access_type", "=", "modify")
    .where("grantee_id", "=", identity.user.id)
    .executeTakeFirst();
  return grant !== undefined;
}
