import type { Group, User } from "@sightline/core";
import { http } from "./http";

/** A data source as seen from a group (api-platform §6.3). */
export interface GroupDataSource {
  id: number;
  name: string;
  type: string;
  syntax?: string;
  paused?: number | boolean;
  pause_reason?: string | null;
  supports_auto_limit?: boolean;
  view_only: boolean;
}

export function listGroups(): Promise<Group[]> {
  return http.get<Group[]>("api/groups");
}

export function createGroup(name: string): Promise<Group> {
  return http.post<Group>("api/groups", { name });
}

export function getGroup(id: number): Promise<Group> {
  return http.get<Group>(`api/groups/${id}`);
}

export function renameGroup(id: number, name: string): Promise<Group> {
  return http.post<Group>(`api/groups/${id}`, { name });
}

export function deleteGroup(id: number): Promise<null> {
  return http.delete<null>(`api/groups/${id}`);
}

export function listGroupMembers(id: number): Promise<User[]> {
  return http.get<User[]>(`api/groups/${id}/members`);
}

export function addGroupMember(id: number, userId: number): Promise<User> {
  return http.post<User>(`api/groups/${id}/members`, { user_id: userId });
}

export function removeGroupMember(id: number, userId: number): Promise<null> {
  return http.delete<null>(`api/groups/${id}/members/${userId}`);
}

export function listGroupDataSources(id: number): Promise<GroupDataSource[]> {
  return http.get<GroupDataSource[]>(`api/groups/${id}/data_sources`);
}

export function addGroupDataSource(id: number, dataSourceId: number): Promise<GroupDataSource> {
  return http.post<GroupDataSource>(`api/groups/${id}/data_sources`, {
    data_source_id: dataSourceId,
  });
}

export function setGroupDataSourceViewOnly(
  id: number,
  dataSourceId: number,
  viewOnly: boolean,
): Promise<GroupDataSource> {
  return http.post<GroupDataSource>(`api/groups/${id}/data_sources/${dataSourceId}`, {
    view_only: viewOnly,
  });
}

export function removeGroupDataSource(id: number, dataSourceId: number): Promise<null> {
  return http.delete<null>(`api/groups/${id}/data_sources/${dataSourceId}`);
}
