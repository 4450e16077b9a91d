import { hasPermission as allows } from "@sightline/core";
import type { Permission, PermissionHolder } from "../api/types";

/** Spec §6: an admin satisfies every permission check (the shared rule of @sightline/core). */
export function hasPermission(user: PermissionHolder, permission: Permission): boolean {
  return allows(user.permissions ?? [], permission);
}

export function isAdmin(user: PermissionHolder): boolean {
  return hasPermission(user, "admin");
}
