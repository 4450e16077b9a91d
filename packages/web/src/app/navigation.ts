import type { ClientConfig, Permission, PermissionHolder } from "../api/types";
import { hasPermission } from "./permissions";

export interface SettingsItem {
  title: string;
  path: string;
  permission?: Permission;
  order: number;
}

/** The settings area, in tab order. */
export const SETTINGS_ITEMS: readonly SettingsItem[] = [
  { title: "Data Sources", path: "/data_sources", permission: "admin", order: 1 },
  { title: "Users", path: "/users", permission: "list_users", order: 2 },
  { title: "Groups", path: "/groups", permission: "list_users", order: 3 },
  { title: "Alert Destinations", path: "/destinations", permission: "admin", order: 4 },
  { title: "Query Snippets", path: "/query_snippets", permission: "create_query", order: 5 },
  { title: "General", path: "/settings/general", permission: "admin", order: 6 },
];

export const ADMIN_ITEMS: readonly SettingsItem[] = [
  { title: "System Status", path: "/admin/status", permission: "super_admin", order: 1 },
  { title: "RQ Status", path: "/admin/queries/jobs", permission: "super_admin", order: 2 },
  {
    title: "Outdated Queries",
    path: "/admin/queries/outdated",
    permission: "super_admin",
    order: 3,
  },
];

export function availableItems(
  items: readonly SettingsItem[],
  user: PermissionHolder,
): SettingsItem[] {
  return items
    .filter((item) => !item.permission || hasPermission(user, item.permission))
    .sort((a, b) => a.order - b.order);
}

/** Where the Settings link goes: the first settings item available to the user, if any. */
export function settingsTarget(user: PermissionHolder): string | undefined {
  return availableItems(SETTINGS_ITEMS, user)[0]?.path;
}

/** What the top bar (and the phone drawer) shows to this user, per spec §2's navigation table. */
export interface Navigation {
  dashboards: boolean;
  queries: boolean;
  alerts: boolean;
  createQuery: boolean;
  createDashboard: boolean;
  createAlert: boolean;
  settingsPath: string | undefined;
  systemStatus: boolean;
  updateAvailable: boolean;
}

export function navigationFor(
  user: PermissionHolder,
  config: Pick<ClientConfig, "newVersionAvailable">,
): Navigation {
  const can = (permission: Permission) => hasPermission(user, permission);
  return {
    dashboards: can("list_dashboards"),
    queries: can("view_query"),
    alerts: can("list_alerts"),
    createQuery: can("create_query"),
    createDashboard: can("create_dashboard"),
    createAlert: can("list_alerts"),
    settingsPath: settingsTarget(user),
    systemStatus: can("super_admin"),
    updateAvailable: can("super_admin") && Boolean(config.newVersionAvailable),
  };
}

export function hasCreateMenu(nav: Navigation): boolean {
  return nav.createQuery || nav.createDashboard || nav.createAlert;
}
