import type { Kysely } from "kysely";
import { dataSourceAccess as coreDataSourceAccess, type UrlQuery } from "@sightline/core";
import type { Identity } from "../auth/identity";
import { principalOf } from "../execution/principal";
import { groupsResults, principalResults } from "../execution/readableResults";
import { getRunner } from "../runners/registry";
import { resultsRunner } from "../runners/results";
import type { RunPrincipal } from "../runners/types";
import type { GroupLink } from "../store/dataSources";
import type { DB } from "../store/schema";
import { bool } from "../store/values";
import { forbidden } from "../http/errors";
import { findQueriesByIds, type Query } from "../store/queries";
import { isViewerRunOf } from "./viewerRuns";
import { accessAllows, dataSourceAccess } from "./index";

/** A stored result, as far as who may read it goes. */
export interface StoredResult {
  orgId: number;
  dataSourceId: number;
  /** The executed text. */
  query: string;
}

/**
 * Whether a stored result is a query's own: made on the query's data source and, when `sameText`,
 * from its current text (what a query API key may open). A saved query shows no other result.
 */
export function isOwnResult(
  query: { data_source_id: number | null; query_hash: string },
  result: { dataSourceId: number; queryHash: string },
  sameText: boolean,
): boolean {
  return (
    result.dataSourceId === query.data_source_id &&
    (!sameText || result.queryHash === query.query_hash)
  );
}

/** The type (null: the data source is gone) and group links of a result's data source. */
export interface ResultSource {
  type: string | null;
  links: GroupLink[];
}

/** The type and group links of a data source in one query (the result routes' only lookup). */
export async function resultSource(
  db: Kysely<DB>,
  orgId: number,
  dataSourceId: number,
): Promise<ResultSource> {
  const rows = await db
    .selectFrom("data_sources")
    .leftJoin("data_source_groups", "data_source_groups.data_source_id", "data_sources.id")
    .select(["data_sources.type", "data_source_groups.group_id", "data_source_groups.view_only"])
    .where("data_sources.org_id", "=", orgId)
    .where("data_sources.id", "=", dataSourceId)
    .orderBy("data_source_groups.group_id")
    .execute();
  const links: GroupLink[] = [];
  for (const row of rows) {
    if (row.group_id !== null)
      links.push({ group_id: row.group_id, view_only: bool(row.view_only) });
  }
  return { type: rows[0]?.type ?? null, links };
}

/**
 * Why a stored result may not be shown to its reader, or null (SECURITY.md rule 5). The caller
 * has checked the reader's access to the result's data source; most runners' results need no
 * more (and cost nothing more here). A runner whose answer depends on who runs it (Query Results,
 * SQL over other queries' results) is asked again, for the reader, about the text that made the
 * result, as before a run: a stored result never shows more than the reader could run.
 *
 * `reader` undefined: the caller cannot name the reader (a dropdown list). The result is then
 * shown only when every group that may use its data source may see all that the text read.
 */
export async function storedResultRefusal(
  db: Kysely<DB>,
  result: StoredResult,
  source: ResultSource,
  reader: RunPrincipal | null | undefined,
): Promise<string | null> {
  const runner = source.type === null ? undefined : getRunner(source.type);
  if (!runner?.authorize) return null;
  if (reader !== undefined) return runner.authorize(result.query, principalResults(db, reader));
  if (runner !== resultsRunner) return NO_READER_MESSAGE;
  const groupIds = source.links.map((l) => l.group_id);
  return runner.authorize(result.query, groupsResults(db, result.orgId, groupIds));
}

const NO_READER_MESSAGE = "You do not have access to this query result.";

/**
 * Why `reader` may not see a stored result, or null: what requireStoredResultAccess asks of a
 * request's caller, for a run principal (dropdown options, parameter validation, a saved query's
 * latest result). A user needs view access to the result's data source; an API key's reach is
 * its route's to check (its own query, the dropdown queries that query names); then the runner's
 * check. `reader` undefined: see storedResultRefusal.
 */
export async function readerResultRefusal(
  db: Kysely<DB>,
  result: StoredResult,
  reader: RunPrincipal | null | undefined,
): Promise<string | null> {
  if (reader === null) return NO_READER_MESSAGE;
  const source = await resultSource(db, result.orgId, result.dataSourceId);
  if (reader && !reader.apiKey) {
    const links = source.links.map((l) => ({ groupId: l.group_id, viewOnly: l.view_only }));
    if (coreDataSourceAccess(reader.groupIds, reader.isAdmin, links) === "none") {
      return NO_READER_MESSAGE;
    }
  }
  return storedResultRefusal(db, result, source, reader);
}

/**
 * A stored result for a request's caller: view access to its data source (generic 403), then the
 * runner's own check (403 with its reason). Returns the data source's type and links.
 */
export async function requireStoredResultAccess(
  db: Kysely<DB>,
  identity: Identity,
  result: StoredResult,
): Promise<ResultSource> {
  const source = await resultSource(db, result.orgId, result.dataSourceId);
  if (!accessAllows(dataSourceAccess(identity, source.links), "view")) throw forbidden();
  const refusal = await storedResultRefusal(db, result, source, principalOf(identity));
  if (refusal) throw forbidden(refusal);
  return source;
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
