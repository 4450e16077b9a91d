import type { Kysely } from "kysely";
import type { Identity } from "../auth/identity";
import { accessAllows, apiKeyQueryAccess, userQueryAccess } from "../policies";
import type { WidgetSources } from "../presenters/widgets";
import { groupLinks } from "../store/dataSources";
import { findQueriesByIds } from "../store/queries";
import type { DB } from "../store/schema";
import { usersByIds } from "../store/users";
import { visualizationsByIds } from "../store/visualizations";
import type { Widget } from "../store/widgets";

/**
 * Everything the widgets of one answer show, read in a fixed number of statements however many
 * widgets there are: visualizations, their queries (of the org only), the queries' data source
 * links (for the caller's access) and the queries' users.
 */
export async function readWidgetSources(
  db: Kysely<DB>,
  identity: Identity,
  orgId: number,
  widgets: Widget[],
  /** Other users the answer shows (the dashboard's owner), read with the queries' users. */
  alsoUserIds: number[] = [],
): Promise<WidgetSources> {
  const visualizations = await visualizationsByIds(
    db,
    widgets.flatMap((w) => (w.visualization_id === null ? [] : [w.visualization_id])),
  );
  const queries = new Map(
    (
      await findQueriesByIds(
        db,
        orgId,
        [...visualizations.values()].map((v) => v.query_id),
      )
    ).map((q) => [q.id, q]),
  );
  const list = [...queries.values()];
  const [links, users] = await Promise.all([
    groupLinks(
      db,
      list.flatMap((q) => (q.data_source_id === null ? [] : [q.data_source_id])),
    ),
    usersByIds(db, [...alsoUserIds, ...list.flatMap((q) => [q.user_id, q.last_modified_by_id])]),
  ]);
  const dashboardIds = new Set(widgets.map((w) => w.dashboard_id));
  return {
    visualizations,
    queries,
    users,
    canView(query) {
      const ds = query.data_source_id;
      const queryLinks = ds === null ? [] : (links.get(ds) ?? []);
      if (identity.kind === "user") {
        return accessAllows(userQueryAccess(identity, query, queryLinks), "view");
      }
      // A dashboard's share key sees the widgets of its dashboard; a query's key its query; each
      // only what the key's owner may view now.
      if (identity.kind === "api_key") {
        const opens =
          identity.object.type === "dashboards"
            ? dashboardIds.size === 1 && dashboardIds.has(identity.object.id)
            : query.id === identity.object.id;
        return opens && accessAllows(apiKeyQueryAccess(identity, query, queryLinks), "view");
      }
      return false;
    },
  };
}
