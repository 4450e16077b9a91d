import type { Group } from "../store/users";
import type { DataSource } from "../store/dataSources";
import type { Runner } from "../runners/types";
import { presentDataSourceBasic, type PresentedDataSource } from "./dataSources";

/** The JSON shapes of groups and of data sources as seen from a group (api-platform.md §6.2, §6.3). */

export interface PresentedGroup {
  id: number;
  name: string;
  permissions: string[];
  type: "builtin" | "regular";
  created_at: string;
}

export function presentGroup(group: Group): PresentedGroup {
  return {
    id: group.id,
    name: group.name,
    permissions: group.permissions,
    type: group.type,
    created_at: group.created_at,
  };
}

/** A data source with the group link's flag; never its options (they stay encrypted). */
export function presentGroupDataSource(
  ds: DataSource,
  runner: Runner | null,
  viewOnly: boolean,
): PresentedDataSource & { view_only: boolean } {
  return { ...presentDataSourceBasic(ds, runner), view_only: viewOnly };
}
