import type { PermissionHolder } from "../../api/types";
import { hasPermission } from "../../app/permissions";

/**
 * Whether the user may run a query from the editor (spec 2 §6): a saved safe query runs for
 * anyone who can see it, as the server allows; any other text (a new query's, or one with text
 * parameters) needs execute_query and full access to its data source.
 */
export function canExecuteQuery(
  user: PermissionHolder,
  query: { isNew: boolean; isSafe: boolean },
  dataSource: { view_only?: boolean } | null,
): boolean {
  if (!query.isNew && query.isSafe) return true;
  return hasPermission(user, "execute_query") && !dataSource?.view_only;
}
