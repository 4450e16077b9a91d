// Permission strings, built-in groups and the group-based access decision (api-platform §5).

// The two built-in groups' lists, as literal types: together they are every permission.
const ADMIN_ONLY = ["admin", "super_admin"] as const;

const DEFAULT_LIST = [
  "create_dashboard",
  "create_query",
  "edit_dashboard",
  "edit_query",
  "view_query",
  "view_source",
  "execute_query",
  "list_users",
  "schedule_query",
  "list_dashboards",
  "list_alerts",
  "list_data_sources",
] as const;

export const PERMISSIONS = [...ADMIN_ONLY, ...DEFAULT_LIST] as const;
export type Permission = (typeof PERMISSIONS)[number];

export type GroupType = "builtin" | "regular";

export interface GroupDefinition {
  name: string;
  type: GroupType;
  permissions: Permission[];
}

export const ADMIN_GROUP_PERMISSIONS: readonly Permission[] = ADMIN_ONLY;

/** Permissions of the built-in default group and of every group created through the API. */
export const DEFAULT_GROUP_PERMISSIONS: readonly Permission[] = DEFAULT_LIST;

export const ADMIN_GROUP: Readonly<GroupDefinition> = {
  name: "admin",
  type: "builtin",
  permissions: [...ADMIN_GROUP_PERMISSIONS],
};

export const DEFAULT_GROUP: Readonly<GroupDefinition> = {
  name: "default",
  type: "builtin",
  permissions: [...DEFAULT_GROUP_PERMISSIONS],
};

/** Query and dashboard API keys act with exactly these permissions. */
export const API_KEY_PERMISSIONS: readonly Permission[] = ["view_query"];

/** A user's permissions: the union of their groups' permissions, without duplicates. */
export function unionPermissions(groups: readonly { permissions: readonly string[] }[]): string[] {
  return [...new Set(groups.flatMap((g) => g.permissions))];
}

/** Exact membership, with `admin` satisfying every permission. */
export function hasPermission(permissions: readonly string[], permission: string): boolean {
  return permissions.includes(permission) || permissions.includes("admin");
}

/** Exact string membership only (no admin shortcut). */
export function hasExactPermission(permissions: readonly string[], permission: string): boolean {
  return permissions.includes(permission);
}

export function hasAllPermissions(
  permissions: readonly string[],
  wanted: readonly string[],
): boolean {
  return wanted.every((p) => hasPermission(permissions, p));
}

export const isAdmin = (permissions: readonly string[]): boolean => permissions.includes("admin");

// ---------------------------------------------------------------------------------------------
// Data-source group access ("view_only")

export interface DataSourceGroupLink {
  groupId: number;
  viewOnly: boolean;
}

export type AccessLevel = "none" | "view" | "full";

/**
 * The caller's access to a data source (and to the queries, alerts and visualizations built on
 * it): admin → full; no shared group → none; full when one shared link is not view-only.
 */
export function dataSourceAccess(
  callerGroupIds: readonly number[],
  isAdminCaller: boolean,
  links: readonly DataSourceGroupLink[],
): AccessLevel {
  if (isAdminCaller) return "full";
  const matching = links.filter((l) => callerGroupIds.includes(l.groupId));
  if (matching.length === 0) return "none";
  return matching.some((l) => !l.viewOnly) ? "full" : "view";
}

/** Whether an access level satisfies a requested one ("view" is satisfied by "full"). */
export function accessAllows(access: AccessLevel, needed: "view" | "full"): boolean {
  if (needed === "view") return access === "view" || access === "full";
  return access === "full";
}

/**
 * The `view_only` flag shown on data sources: true iff every link to the caller's groups is
 * view-only (also true when there is none, e.g. an admin outside the linked groups).
 */
export function dataSourceViewOnly(
  callerGroupIds: readonly number[],
  links: readonly DataSourceGroupLink[],
): boolean {
  return links.filter((l) => callerGroupIds.includes(l.groupId)).every((l) => l.viewOnly);
}
