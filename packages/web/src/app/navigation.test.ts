import { describe, expect, it } from "vitest";
import {
  ADMIN_ITEMS,
  availableItems,
  hasCreateMenu,
  navigationFor,
  settingsTarget,
} from "./navigation";
import { hasPermission } from "./permissions";

const user = (...permissions: string[]) => ({ permissions });

describe("permissions", () => {
  it("lets admin satisfy every permission check", () => {
    expect(hasPermission(user("admin"), "list_alerts")).toBe(true);
    expect(hasPermission(user("admin"), "anything")).toBe(true);
    expect(hasPermission(user("admin"), "super_admin")).toBe(true);
    expect(hasPermission(user("view_query"), "list_alerts")).toBe(false);
    expect(hasPermission(user("super_admin"), "super_admin")).toBe(true);
  });
});

describe("navigation visibility", () => {
  it("shows nothing gated to a user without permissions", () => {
    const nav = navigationFor(user(), { newVersionAvailable: true });
    expect(nav).toEqual({
      dashboards: false,
      queries: false,
      alerts: false,
      createQuery: false,
      createDashboard: false,
      createAlert: false,
      settingsPath: undefined,
      systemStatus: false,
      updateAvailable: false,
    });
    expect(hasCreateMenu(nav)).toBe(false);
  });

  it("follows each permission of the table", () => {
    const nav = navigationFor(user("list_dashboards", "view_query", "create_dashboard"), {});
    expect(nav.dashboards).toBe(true);
    expect(nav.queries).toBe(true);
    expect(nav.alerts).toBe(false);
    expect(nav.createDashboard).toBe(true);
    expect(nav.createQuery).toBe(false);
    expect(nav.createAlert).toBe(false);
    expect(hasCreateMenu(nav)).toBe(true);
    const alerts = navigationFor(user("list_alerts"), {});
    expect(alerts.alerts && alerts.createAlert).toBe(true);
  });

  it("shows everything to an admin", () => {
    const nav = navigationFor(user("admin"), { newVersionAvailable: true });
    expect(nav.dashboards && nav.queries && nav.alerts).toBe(true);
    expect(nav.createQuery && nav.createDashboard && nav.createAlert).toBe(true);
    expect(nav.settingsPath).toBe("/data_sources");
    expect(nav.systemStatus).toBe(true);
    expect(nav.updateAvailable).toBe(true);
  });

  it("shows System Status and the update link to super admins only", () => {
    expect(
      navigationFor(user("list_users", "view_query"), { newVersionAvailable: true }),
    ).toMatchObject({ systemStatus: false, updateAvailable: false });
    expect(navigationFor(user("super_admin"), { newVersionAvailable: true }).updateAvailable).toBe(
      true,
    );
    expect(navigationFor(user("super_admin"), { newVersionAvailable: false }).updateAvailable).toBe(
      false,
    );
    expect(navigationFor(user("super_admin"), {}).systemStatus).toBe(true);
  });
});

describe("settings menu", () => {
  it("links Settings to the first available item by order", () => {
    expect(settingsTarget(user("admin"))).toBe("/data_sources");
    expect(settingsTarget(user("list_users", "create_query"))).toBe("/users");
    expect(settingsTarget(user("create_query"))).toBe("/query_snippets");
    expect(settingsTarget(user("view_query"))).toBeUndefined();
  });

  it("orders the available items", () => {
    expect(availableItems(ADMIN_ITEMS, user("super_admin")).map((i) => i.title)).toEqual([
      "System Status",
      "RQ Status",
      "Outdated Queries",
    ]);
    expect(availableItems(ADMIN_ITEMS, user("list_users"))).toEqual([]);
  });
});
