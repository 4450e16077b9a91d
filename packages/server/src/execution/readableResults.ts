// The stored query results a principal may read, over the metadata store: what the execution
// layer hands the Query Results runner (runners/types.ts ReadableResults), so that runner never
// reads the store or judges access itself.
import type { Kysely } from "kysely";
import { dataSourceAccess as groupAccess } from "@sightline/core";
import { dataSourceAccess, queryAccess } from "../policies";
import { loadResultMeta, readResultRows, type ResultMeta } from "../results/resultStore";
import { referencedTables, RESULTS_TYPE } from "../runners/results";
import {
  ResultRefusedError,
  type ReadableResult,
  type ReadableResults,
  type RunPrincipal,
} from "../runners/types";
import { groupLinksOf, type GroupLink } from "../store/dataSources";
import { findQuery, type Query } from "../store/queries";
import type { DB } from "../store/schema";
import { principalIdentity } from "./principal";

const notFound = (id: number) => `Query id ${id} not found.`;
const noAccess = (id: number) => `You do not have access to query id ${id}.`;

/**
 * A bound on the queries one check follows (Query Results queries reading each other's results):
 * a deeper chain is refused rather than walked.
 */
export const MAX_CHECKED_QUERIES = 200;

/** Who the stored results are read for: may they see a query, and rows stored from a data source? */
interface ResultsViewer {
  mayViewQuery(query: Query, links: GroupLink[]): Promise<boolean>;
  mayViewDataSource(links: GroupLink[]): boolean;
}

/** The run principal, read afresh (null: a user since disabled or removed). */
async function principalViewer(
  db: Kysely<DB>,
  principal: RunPrincipal,
): Promise<ResultsViewer | null> {
  const identity = await principalIdentity(db, principal);
  if (!identity) return null;
  return {
    mayViewQuery: async (query, links) =>
      (await queryAccess(db, identity, query, links)) !== "none",
    mayViewDataSource: (links) => dataSourceAccess(identity, links) !== "none",
  };
}

/**
 * Every member of each of these groups, without admin rights or API keys: what a result may show
 * when the reader is not known (only what each group that may use its data source may see).
 */
function groupsViewer(groupIds: number[]): ResultsViewer {
  const eachGroup = (links: GroupLink[]) =>
    groupIds.length > 0 &&
    groupIds.every(
      (id) =>
        groupAccess(
          [id],
          false,
          links.map((l) => ({ groupId: l.group_id, viewOnly: l.view_only })),
        ) !== "none",
    );
  return {
    mayViewQuery: async (query, links) => query.data_source_id !== null && eachGroup(links),
    mayViewDataSource: eachGroup,
  };
}

/** Whom a check is for, within an organisation. */
interface Reader {
  orgId: number;
  viewer: ResultsViewer;
}

/**
 * The referenced queries' latest results, once each; throws when a query is missing or the reader
 * may not see it (no reader: nobody to check access for). The check follows the data: a result
 * stored from another data source than its query's needs access there too, and one stored by a
 * Query Results data source brings the queries its own text read, checked the same way (each
 * query once, so cycles end; a chain longer than MAX_CHECKED_QUERIES is refused).
 */
async function loadAllowedResults(
  db: Kysely<DB>,
  reader: Reader | null,
  ids: number[],
): Promise<Map<number, ResultMeta | null>> {
  const allowed = new Map<number, ResultMeta | null>();
  const pending = [...new Set(ids)];
  if (!reader) {
    if (pending.length > 0) throw new ResultRefusedError(noAccess(pending[0]!));
    return allowed;
  }
  const { orgId, viewer } = reader;
  const seen = new Set(pending);
  const resultsSources = new Map<number, boolean>();
  const isResultsSource = async (dataSourceId: number) => {
    let known = resultsSources.get(dataSourceId);
    if (known === undefined) {
      const source = await db
        .selectFrom("data_sources")
        .select("type")
        .where("org_id", "=", orgId)
        .where("id", "=", dataSourceId)
        .executeTakeFirst();
      known = source?.type === RESULTS_TYPE;
      resultsSources.set(dataSourceId, known);
    }
    return known;
  };
  for (let id = pending.shift(); id !== undefined; id = pending.shift()) {
    const query = await findQuery(db, orgId, id);
    if (!query) throw new ResultRefusedError(notFound(id));
    const links = query.data_source_id === null ? [] : await groupLinksOf(db, query.data_source_id);
    if (!(await viewer.mayViewQuery(query, links))) throw new ResultRefusedError(noAccess(id));
    const result =
      query.latest_query_data_id === null
        ? null
        : await loadResultMeta(db, orgId, query.latest_query_data_id);
    allowed.set(id, result);
    if (!result) continue;
    if (
      result.dataSourceId !== query.data_source_id &&
      !viewer.mayViewDataSource(await groupLinksOf(db, result.dataSourceId))
    ) {
      throw new ResultRefusedError(noAccess(id));
    }
    if (!(await isResultsSource(result.dataSourceId))) continue;
    for (const { queryId } of referencedTables(result.query)) {
      if (seen.has(queryId)) continue;
      if (seen.size >= MAX_CHECKED_QUERIES) {
        throw new ResultRefusedError(
          `Query results nest too deeply (more than ${MAX_CHECKED_QUERIES} queries).`,
        );
      }
      seen.add(queryId);
      pending.push(queryId);
    }
  }
  return allowed;
}

function readable(db: Kysely<DB>, meta: ResultMeta): ReadableResult {
  return { columns: meta.columns, rows: () => readResultRows(db, meta) };
}

/** Results read for a reader resolved when first needed (null: nobody may read any). */
function readableFor(db: Kysely<DB>, reader: () => Promise<Reader | null>): ReadableResults {
  return {
    async latest(queryIds) {
      const loaded = await loadAllowedResults(
        db,
        queryIds.length > 0 ? await reader() : null,
        queryIds,
      );
      return new Map([...loaded].map(([id, meta]) => [id, meta && readable(db, meta)]));
    },
  };
}

/** The stored results a run principal may read (none without a principal). */
export function principalResults(db: Kysely<DB>, principal: RunPrincipal | null): ReadableResults {
  return readableFor(db, async () => {
    const viewer = principal ? await principalViewer(db, principal) : null;
    return principal && viewer ? { orgId: principal.orgId, viewer } : null;
  });
}

/** The stored results every member of each of these groups may read (see groupsViewer). */
export function groupsResults(db: Kysely<DB>, orgId: number, groupIds: number[]): ReadableResults {
  return readableFor(db, async () => ({ orgId, viewer: groupsViewer(groupIds) }));
}
