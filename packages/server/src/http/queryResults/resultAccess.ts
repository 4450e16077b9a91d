// Who may read a stored result through the result routes: a signed-in viewer, a dashboard's
// share key (only its widgets' runs) or a query's key (only its own query's results).
import type { FastifyRequest } from "fastify";
import type { UrlQuery } from "@sightline/core";
import type { Identity } from "../../auth/identity";
import type { AppContext } from "../../context";
import { principalOf } from "../../execution/principal";
import { hasPermission, queryAccess, requireLogin } from "../../policies";
import {
  dashboardQueryOfResult,
  isOwnResult,
  requireStoredResultAccess,
} from "../../policies/results";
import { isViewerRunOf } from "../../policies/viewerRuns";
import { loadResultMeta, type ResultMeta } from "../../results";
import { groupIdsOfDataSource } from "../../store/groups";
import type { Organization } from "../../store/organizations";
import type { Query } from "../../store/queries";
import { forbidden, notFound } from "../errors";
import { queryArgs } from "../input";

export const NO_CACHED_RESULT_MESSAGE = "No cached result found for this query.";

export function requireResultViewer(request: FastifyRequest) {
  const result = requireLogin(request);
  if (
    !hasPermission(result.identity, "view_query") &&
    !hasPermission(result.identity, "execute_query")
  ) {
    throw forbidden();
  }
  return result;
}

export interface ResultRequest {
  identity: Identity;
  org: Organization;
  /** The query the path names, or null for /api/query_results/:id. */
  query: Query | null;
  resultId: number;
  /** The path names the result (404s are plain), rather than a query's latest one. */
  explicitResult: boolean;
}

/**
 * The stored result, once the caller may read it, with the query it is read as (null: a result
 * read on its own).
 */
export async function readableResult(
  ctx: AppContext,
  request: FastifyRequest,
  input: ResultRequest,
): Promise<{ meta: ResultMeta; query: Query | null }> {
  const { identity, org } = input;
  const db = ctx.database.db;
  const meta = await loadResultMeta(db, org.id, input.resultId);
  if (!meta) throw input.explicitResult ? notFound() : notFound(NO_CACHED_RESULT_MESSAGE);
  let query = input.query;
  let reader = identity;
  if (identity.kind === "api_key" && identity.object.type === "dashboards") {
    // One of the dashboard's widget queries made it: its saved text, or the text rendered with
    // the values the viewer ran it with (p_<name> arguments); then read as that query's key would.
    const args = queryArgs(request) as UrlQuery;
    const principal = principalOf(identity);
    if (query) {
      if ((await queryAccess(db, identity, query, [])) === "none") throw forbidden();
      if (!(await isViewerRunOf(db, query, meta, args, principal))) query = null;
    } else {
      query = await dashboardQueryOfResult(db, org.id, identity.object.id, meta, args, principal);
    }
    if (!query) throw notFound(NO_CACHED_RESULT_MESSAGE);
    reader = { ...identity, groupIds: await groupIdsOfDataSource(db, query.data_source_id) };
  } else if (identity.kind === "api_key") {
    // A query's key opens only its query's results: its current text on its data source.
    if (!query || !isOwnResult(query, meta, true)) throw notFound(NO_CACHED_RESULT_MESSAGE);
    if (identity.object.id !== query.id) throw forbidden();
  }
  // The data source's groups, and for Query Results the queries its text read (SECURITY.md rule 5).
  await requireStoredResultAccess(db, reader, meta);
  return { meta, query };
}
