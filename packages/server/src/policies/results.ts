import type { Kysely } from "kysely";
import type { Identity } from "../auth/identity";
import { principalIdentity, principalOf } from "../execution/principal";
import { groupsResults, principalResults } from "../execution/readableResults";
import { forbidden } from "../http/errors";
import { getRunner } from "../runners/registry";
import { resultsRunner } from "../runners/results";
import type { RunPrincipal } from "../runners/types";
import { groupLinksOf, type GroupLink } from "../store/dataSources";
import type { Query } from "../store/queries";
import type { DB } from "../store/schema";
import { bool } from "../store/values";
import { accessAllows, dataSourceAccess, queryAccess } from "./index";

// Who may read a stored result (SECURITY.md rule 5): one rule, resultRefusal, for every reader and
// every way a result is read. Which query a result is read as is the caller's to find
// (services/viewerRuns.ts for share keys); this module only decides.

/** The refusal of a reader without access (a route answers it as a plain 403). */
export const NO_RESULT_ACCESS = "You do not have access to this query result.";

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
  if (runner !== resultsRunner) return NO_RESULT_ACCESS;
  const groupIds = source.links.map((l) => l.group_id);
  return runner.authorize(result.query, groupsResults(db, result.orgId, groupIds));
}

/**
 * Why `reader` may not read a stored result, or null: THE rule every way of reading a stored
 * result goes through (result routes and downloads, dropdown options, a saved query's adopted
 * result, parameter validation of runs; SECURITY.md rule 5), with the reader's current rights.
 *
 * - An API key reads only through a query it opens (`via`: a share key's dashboard widget query,
 *   a query key's own query; queryAccess), or where its route has checked which queries it
 *   reaches (`via` undefined: the dropdown queries of a query it opens). Either way it reads only
 *   what its owner may view now: its identity carries the owner's current groups and admin
 *   rights, and a key of a disabled owner or an archived dashboard resolves to nothing.
 * - Every reader needs view access to the result's data source; then the runner's own check
 *   (storedResultRefusal).
 * - `null`: nobody (a disabled user); `undefined`: the reader cannot be named (see
 *   storedResultRefusal).
 */
export async function resultRefusal(
  db: Kysely<DB>,
  reader: Identity | null | undefined,
  result: StoredResult,
  via?: Pick<Query, "id" | "data_source_id">,
): Promise<string | null> {
  if (reader === null || reader?.kind === "anonymous") return NO_RESULT_ACCESS;
  const source = await resultSource(db, result.orgId, result.dataSourceId);
  if (reader === undefined) return storedResultRefusal(db, result, source, undefined);
  if (reader.kind === "api_key" && via) {
    const links = via.data_source_id === null ? [] : await groupLinksOf(db, via.data_source_id);
    if ((await queryAccess(db, reader, via, links)) === "none") return NO_RESULT_ACCESS;
  }
  if (!accessAllows(dataSourceAccess(reader, source.links), "view")) return NO_RESULT_ACCESS;
  return storedResultRefusal(db, result, source, principalOf(reader));
}

/**
 * resultRefusal for a run principal (dropdown options, parameter validation), judged by its
 * current identity (principalIdentity reads the user or key afresh).
 */
export async function readerResultRefusal(
  db: Kysely<DB>,
  result: StoredResult,
  reader: RunPrincipal | null | undefined,
): Promise<string | null> {
  if (reader === undefined) return resultRefusal(db, undefined, result);
  const identity = reader && (await principalIdentity(db, reader));
  return resultRefusal(db, identity, result);
}

/**
 * resultRefusal for a request's caller, as an answer: a plain 403 without access, a 403 with
 * the runner's reason otherwise.
 */
export async function requireReadableResult(
  db: Kysely<DB>,
  identity: Identity,
  result: StoredResult,
  via?: Pick<Query, "id" | "data_source_id">,
): Promise<void> {
  const refusal = await resultRefusal(db, identity, result, via);
  if (refusal) throw forbidden(refusal === NO_RESULT_ACCESS ? undefined : refusal);
}
