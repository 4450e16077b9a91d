import type { Kysely } from "kysely";
import type { UrlQuery } from "@sightline/core";
import { principalOf } from "../execution/principal";
import { isViewerRunOf } from "./viewerRuns";
import type { Identity } from "../auth/identity";
import type { JobOwner } from "../execution/types";
import type { DB } from "../store/schema";
import { groupLinksOf } from "../store/dataSources";
import { findQuery } from "../store/queries";
import { dataSourceAccess, isAdmin, queryAccess } from "../policies";

/**
 * Who may see or cancel a job (SECURITY.md rule 5): only within its organisation; its own user
 * and admins; other users who may view its data source (identical runs share one job); a query
 * API key only for jobs of its own query (or of the same text on the same data source); a
 * dashboard share key only for its widgets' queries.
 */
export async function canAccessJob(
  db: Kysely<DB>,
  identity: Identity,
  orgId: number,
  job: JobOwner,
  /** The request's `p_<name>` arguments: the values a share key's run was started with. */
  args: UrlQuery = {},
): Promise<boolean> {
  if (identity.kind === "anonymous" || job.orgId !== orgId) return false;
  if (identity.kind === "user") {
    if (isAdmin(identity) || identity.user.id === job.userId) return true;
    return dataSourceAccess(identity, await groupLinksOf(db, job.dataSourceId)) !== "none";
  }
  const queryId = identity.object.type === "queries" ? identity.object.id : job.queryId;
  if (queryId === null) return false;
  const query = await findQuery(db, orgId, queryId);
  if (!query || query.data_source_id !== job.dataSourceId) return false;
  if (identity.object.type === "dashboards") {
    // A run this key started, or the query's own text, or its text with the viewer's validated
    // values (runs of most data sources do not record the key): not any text under its id.
    if (
      job.apiKey !== identity.apiKey &&
      !(await isViewerRunOf(db, query, job, args, principalOf(identity)))
    ) {
      return false;
    }
  } else if (job.queryId !== query.id && job.queryHash !== query.query_hash) return false;
  const links = await groupLinksOf(db, job.dataSourceId);
  return (await queryAccess(db, identity, query, links)) !== "none";
}
