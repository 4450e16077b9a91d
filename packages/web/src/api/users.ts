import type { User } from "@sightline/core";
import { http } from "./http";
import type { Page } from "./types";

/** A user in list answers: groups come as {id, name} instead of ids (api-platform §6.1). */
export type ListedUser = Omit<User, "groups"> & { groups: { id: number; name: string }[] };

export type UserListKind = "active" | "pending" | "disabled";

export interface UserListParams {
  kind: UserListKind;
  q?: string;
  page: number;
  pageSize: number;
  /** `name`, `created_at`, `active_at`, `groups`, with a leading `-` for descending. */
  order?: string;
}

export function listUsers({
  kind,
  q,
  page,
  pageSize,
  order,
}: UserListParams): Promise<Page<ListedUser>> {
  return http.get<Page<ListedUser>>("api/users", {
    q: q || undefined,
    page,
    page_size: pageSize,
    order,
    disabled: kind === "disabled" ? true : undefined,
    pending: kind === "pending" ? true : kind === "active" ? false : undefined,
  });
}

/** Search used by "Add Members": every enabled user whose name or email matches. */
export function searchUsers(q: string): Promise<Page<ListedUser>> {
  return http.get<Page<ListedUser>>("api/users", { q: q || undefined, page: 1, page_size: 100 });
}

export function getUser(id: number): Promise<User> {
  return http.get<User>(`api/users/${id}`);
}

export function createUser(input: { name: string; email: string }): Promise<User> {
  return http.post<User>("api/users", input);
}

export interface UserChanges {
  name?: string;
  email?: string;
  group_ids?: number[];
  password?: string;
  old_password?: string;
}

export function saveUser(id: number, changes: UserChanges): Promise<User> {
  return http.post<User>(`api/users/${id}`, changes);
}

export function deleteUser(id: number): Promise<User> {
  return http.delete<User>(`api/users/${id}`);
}

export function resendInvitation(id: number): Promise<User> {
  return http.post<User>(`api/users/${id}/invite`);
}

export function sendPasswordReset(id: number): Promise<{ reset_link?: string }> {
  return http.post<{ reset_link?: string }>(`api/users/${id}/reset_password`);
}

export function regenerateUserApiKey(id: number): Promise<User> {
  return http.post<User>(`api/users/${id}/regenerate_api_key`);
}

export function disableUser(id: number): Promise<User> {
  return http.post<User>(`api/users/${id}/disable`);
}

export function enableUser(id: number): Promise<User> {
  return http.delete<User>(`api/users/${id}/disable`);
}
