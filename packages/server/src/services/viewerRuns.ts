import type { Kysely } from "kysely";
import {
  applyAutoLimit,
  findMissingParameters,
  isSavedQuerySafe,
  parametersFromUrlParams,
  renderQueryText,
  validateParameters,
  type UrlQuery,
} from "@sightline/core";
import { queryHash } from "../execution/hash";
import type { RunPrincipal } from "../runners/types";
import { findRunner } from "../services/dataSourceTypes";
import { validationContext } from "../services/queryDropdowns";
import { findDataSource } from "../store/dataSources";
import { parameterSchema, type Query } from "../store/queries";
import type { DB } from "../store/schema";

/**
 * Which runs of a dashboard's query a public viewer may read (SECURITY.md rule 5): a result or
 * job is a run of the query when its text hash is the query's own (saved defaults), or the hash
 * of the query's text rendered with the parameter values the viewer names (`p_<name>` arguments,
 * as the page ran with them), validated against the query's definitions exactly as a run is.
 * Nothing else: a result id or job id alone never opens anything.
 */
export async function isViewerRunOf(
  db: Kysely<DB>,
  query: Query,
  run: { dataSourceId: number; queryHash: string },
  args: UrlQuery,
  principal: RunPrincipal | null,
): Promise<boolean> {
  if (query.data_source_id === null || run.dataSourceId !== query.data_source_id) return false;
  if (run.queryHash === query.query_hash) return true;
  const hash = await viewerRunHash(db, query, args, principal);
  return hash !== null && hash === run.queryHash;
}

/**
 * The hash of the text a share key's run of `query` with these values executes, or null when the
 * values would not run (invalid, missing, unsafe query). Mirrors the saved-query pipeline: render,
 * then the runner's auto-limit step with the query's saved setting (viewers do not choose it).
 */
export async function viewerRunHash(
  db: Kysely<DB>,
  query: Query,
  args: UrlQuery,
  principal: RunPrincipal | null,
): Promise<string | null> {
  const schema = parameterSchema(query.options);
  if (schema.length === 0 || query.data_source_id === null) return null;
  if (!isSavedQuerySafe(query.query, query.options)) return null;
  const values = parametersFromUrlParams(schema, args);
  try {
    const context = await validationContext(db, query.org_id, schema, principal);
    if (!validateParameters(schema, values, context).ok) return null;
    let text = renderQueryText(query.query, values, schema);
    if (findMissingParameters(query.query, values).length > 0) return null;
    const source = await findDataSource(db, query.org_id, query.data_source_id);
    if (!source) return null;
    if (findRunner(source.type)?.supportsAutoLimit) {
      text = applyAutoLimit(text, viewerAutoLimit(query));
    }
    return queryHash(text);
  } catch {
    // A broken template or a detached dropdown query: no run of these values exists.
    return null;
  }
}

/** Whether a share key's run of a query limits its rows: the query's saved choice. */
export function viewerAutoLimit(query: Pick<Query, "options">): boolean {
  return query.options.apply_auto_limit === true;
}
