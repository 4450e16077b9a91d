import { describe, expect, it } from "vitest";
import {
  ADMIN_GROUP,
  DEFAULT_GROUP,
  accessAllows,
  dataSourceAccess,
  dataSourceViewOnly,
  hasAllPermissions,
  hasExactPermission,
  hasPermission,
  isAdmin,
  unionPermissions,
} from "./permissions";

describe("built-in groups (api-platform §5.2)", () => {
  it("admin group has admin and super_admin", () => {
    expect(ADMIN_GROUP).toEqual({
      name: "admin",
      type: "builtin",
      permissions: ["admin", "super_admin"],
    });
  });

  it("default group has the default permission list", () => {
    expect(DEFAULT_GROUP.name).toBe("default");
    expect(DEFAULT_GROUP.permissions).toEqual([
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
    ]);
  });
});

describe("permission checks", () => {
  it("admin satisfies every permission", () => {
    expect(hasPermission(["admin"], "create_query")).toBe(true);
    expect(hasPermission(["admin"], "super_admin")).toBe(true);
    expect(hasPermission(["view_query"], "view_query")).toBe(true);
    expect(hasPermission(["view_query"], "create_query")).toBe(false);
    expect(hasPermission([], "view_query")).toBe(false);
    expect(hasExactPermission(["admin"], "create_query")).toBe(false);
    expect(
      hasAllPermissions(["view_query", "execute_query"], ["view_query", "execute_query"]),
    ).toBe(true);
    expect(hasAllPermissions(["view_query"], ["view_query", "execute_query"])).toBe(false);
    expect(isAdmin(["admin"])).toBe(true);
    expect(isAdmin(["super_admin"])).toBe(false);
  });

  it("unions group permissions", () => {
    expect(unionPermissions([ADMIN_GROUP, { permissions: ["admin", "view_query"] }])).toEqual([
      "admin",
      "super_admin",
      "view_query",
    ]);
  });
});

describe("dataSourceAccess (api-queries §2.4 test facts)", () => {
  const both = (level: ReturnType<typeof dataSourceAccess>) => [
    accessAllows(level, "view"),
    accessAllows(level, "full"),
  ];

  it("admin is granted both levels without links", () => {
    expect(dataSourceAccess([], true, [])).toBe("full");
    expect(both(dataSourceAccess([], true, []))).toEqual([true, true]);
  });

  it("a view-only link allows view only", () => {
    expect(both(dataSourceAccess([1], false, [{ groupId: 1, viewOnly: true }]))).toEqual([
      true,
      false,
    ]);
  });

  it("one full link among several allows full", () => {
    const links = [
      { groupId: 1, viewOnly: false },
      { groupId: 2, viewOnly: true },
    ];
    expect(dataSourceAccess([1, 2], false, links)).toBe("full");
  });

  it("only view-only links deny full", () => {
    const links = [
      { groupId: 1, viewOnly: true },
      { groupId: 2, viewOnly: true },
    ];
    expect(dataSourceAccess([1, 2], false, links)).toBe("view");
  });

  it("no shared group denies", () => {
    expect(dataSourceAccess([3], false, [{ groupId: 1, viewOnly: false }])).toBe("none");
    expect(dataSourceAccess([1], false, [])).toBe("none");
    expect(both("none")).toEqual([false, false]);
  });

  it("links outside the caller's groups do not count", () => {
    const links = [
      { groupId: 1, viewOnly: true },
      { groupId: 2, viewOnly: false },
    ];
    expect(dataSourceAccess([1], false, links)).toBe("view");
  });

  it("computes the view_only flag", () => {
    const links = [
      { groupId: 1, viewOnly: true },
      { groupId: 2, viewOnly: false },
    ];
    expect(dataSourceViewOnly([1], links)).toBe(true);
    expect(dataSourceViewOnly([1, 2], links)).toBe(false);
    expect(dataSourceViewOnly([9], links)).toBe(true);
  });
});
