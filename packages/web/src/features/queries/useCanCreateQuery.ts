import { useQuery } from "@tanstack/react-query";
import type { DataSource } from "@sightline/core";
import { listDataSources } from "../../api/dataSources";
import type { PermissionHolder } from "../../api/types";
import { hasPermission, isAdmin } from "../../app/permissions";
import { useSession } from "../../app/session";

/**
 * Whether the user may create a query (spec 2, query list: the offer to create the first query
 * only "if creation is permitted"): the create_query permission and a data source to write to.
 * A user whose data sources are all view-only would only reach "You don't have permission to
 * create new queries on any of the data sources available to you." An admin with no data source
 * yet is still offered it: the editor then leads to Create Data Source.
 */
export function canCreateQuery(user: PermissionHolder, dataSources: DataSource[]): boolean {
  if (!hasPermission(user, "create_query")) return false;
  if (dataSources.length === 0) return isAdmin(user);
  return dataSources.some((source) => !source.view_only);
}

/**
 * `canCreateQuery` for the signed-in user; undefined while their data sources load (offer
 * nothing until it is known). Shares the query editor's data sources call.
 */
export function useCanCreateQuery(): boolean | undefined {
  const { user } = useSession();
  const permitted = hasPermission(user, "create_query");
  const dataSources = useQuery({
    queryKey: ["data_sources"],
    queryFn: listDataSources,
    enabled: permitted,
  });
  if (!permitted) return false;
  if (dataSources.isError) return false;
  if (!dataSources.data) return undefined;
  return canCreateQuery(user, dataSources.data);
}
