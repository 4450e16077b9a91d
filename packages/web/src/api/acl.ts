// Typed calls of the object ACL (reference api-platform §7.8): explicit edit grants on a query or
// dashboard, shown by the Manage Permissions dialog.
import { http } from "./http";

export type AclObjectType = "queries" | "dashboards";

export interface AccessGrant {
  id: number;
  name: string;
  email: string;
  profile_image_url?: string;
}

/** Access type to the users holding it; `{}` when nobody holds a grant. */
export function getAcl(type: AclObjectType, id: number): Promise<Record<string, AccessGrant[]>> {
  return http.get<Record<string, AccessGrant[]>>(`api/${type}/${id}/acl`);
}

export function grantEditAccess(type: AclObjectType, id: number, userId: number): Promise<unknown> {
  return http.post(`api/${type}/${id}/acl`, { access_type: "modify", user_id: userId });
}

export function revokeEditAccess(
  type: AclObjectType,
  id: number,
  userId: number,
): Promise<unknown> {
  return http.delete(`api/${type}/${id}/acl`, { access_type: "modify", user_id: userId });
}
