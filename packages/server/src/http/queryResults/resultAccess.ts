// Who may read a stored result through the result routes: a signed-in viewer, a dashboard's
// share key (only its widgets' runs) or a query's key (only its own query's results).
import type { FastifyRequest } from "fastify";
import type { UrlQuery } from "@sightline/core";
import type { ApiKeyIdentity, Identity } from "../../auth/identity";
import type { AppContext } from "../../context";
import { principalOf } from "../../execution/principal";
import { hasPermission, queryAccess, requireLogin } from "../../policies";
import { isOwnResult, requireReadableResult } from "../../policies/results";
import { loadResultMeta, type ResultMeta } from "../../results";
import { dashboardQueryOfResult, isViewerRunOf } from "../../services/viewerRuns";
import { groupLinksOf } from "../../store/dataSources";
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
 * read on its own) and whether it is answered in the reduced form.
 */
export async function readableResult(
  ctx: AppContext,
  request: FastifyRequest,
  input: ResultRequest,
): Promise<{ meta: ResultMeta; query: Query | null; reduced: boolean }> {
  const { identity, org } = input;
  const db = ctx.database.db;
  const meta = await loadResultMeta(db, org.id, input.resultId);
  if (!meta) throw input.explicitResult ? notFound() : notFound(NO_CACHED_RESULT_MESSAGE);
  let query = input.query;
  if (identity.kind === "api_key") {
    query = await keyQueryOfResult(ctx, request, identity, query, meta);
    if (!query) throw notFound(NO_CACHED_RESULT_MESSAGE);
  }
  // The one rule (SECURITY.md rule 5): an API key through the query it opens, with its owner's
  // current rights; every reader with view access to the result's data source; the runner's check.
  await requireReadableResult(db, identity, meta, query ?? undefined);
  // API keys read Redash's reduced form: neither the query text nor the data source id.
  return { meta, query, reduced: identity.kind === "api_key" };
}

/**
 * The query an API key reads a result as, or null: for a share key, one of its dashboard's
 * widget queries that made it (its saved text, or the text rendered with the values the viewer
 * ran it with, p_<name> arguments); for a query key, its own query's current text on its data
 * source. A query the path names that the key does not open is a 403.
 */
async function keyQueryOfResult(
  ctx: AppContext,
  request: FastifyRequest,
  identity: ApiKeyIdentity,
  named: Query | null,
  meta: ResultMeta,
): Promise<Query | null> {
  const db = ctx.database.db;
  if (identity.object.type === "queries") {
    if (!named || !isOwnResult(named, meta, true)) return null;
    if (identity.object.id !== named.id) throw forbidden();
    return named;
  }
  const args = queryArgs(request) as UrlQuery;
  const principal = principalOf(identity);
  if (!named) {
    return dashboardQueryOfResult(db, identity.orgId, identity.object.id, meta, args, principal);
  }
  const links = named.data_source_id === null ? [] : await groupLinksOf(db, named.data_source_id);
  if ((await queryAccess(db, identity, named, links)) === "none") throw forbidden();
  return (await isViewerRunOf(db, named, meta, args, principal)) ? named : null;
}
