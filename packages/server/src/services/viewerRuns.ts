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
import { findRunner } from "./dataSourceTypes";
import { validationContext } from "./queryDropdowns";
import { findDataSource } from "../store/dataSources";
import { findQueriesByIds, parameterSchema, type Query } from "../store/queries";
import type { DB } from "../store/schema";

// Which query of a public dashboard a run belongs to: the text a share key's run executes is
// rendered here as the run pipeline renders it (a service: it reads dropdown results to validate
// values); who may read the run is then the policies' to decide (policies/results.ts).

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

/**
 * The query of a share key's dashboard that made a result (a result id alone names no query):
 * one of its widgets' queries on the result's data source whose saved text, or whose text
 * rendered with the viewer's values (`args`), has the result's hash; or null.
 */
export async function dashboardQueryOfResult(
  db: Kysely<DB>,
  orgId: number,
  dashboardId: number,
  result: { dataSourceId: number; queryHash: string },
  args: UrlQuery,
  principal: RunPrincipal | null,
): Promise<Query | null> {
  const ids = await db
    .selectFrom("widgets")
    .innerJoin("visualizations", "visualizations.id", "widgets.visualization_id")
    .innerJoin("queries", "queries.id", "visualizations.query_id")
    .select("queries.id")
    .distinct()
    .where("widgets.dashboard_id", "=", dashboardId)
    .where("queries.org_id", "=", orgId)
    .where("queries.data_source_id", "=", result.dataSourceId)
    .orderBy("queries.id")
    .execute();
  const queries = await findQueriesByIds(
    db,
    orgId,
    ids.map((row) => row.id),
  );
  // Saved texts first (no rendering needed), then each query with the viewer's values.
  const own = queries.find((q) => q.query_hash === result.queryHash);
  if (own) return own;
  for (const query of queries) {
    if (await isViewerRunOf(db, query, result, args, principal)) return query;
  }
  return null;
}
