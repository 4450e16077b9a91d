import { DuckDBInstance, type DuckDBConnection } from "@duckdb/node-api";
import type { Kysely } from "kysely";
import { dataSourceAccess as groupAccess } from "@sightline/core";
import { principalIdentity } from "../execution/principal";
import { dataSourceAccess, queryAccess } from "../policies";
import { loadResultMeta, readResultRows, type ResultMeta } from "../results/resultStore";
import { groupLinksOf, type GroupLink } from "../store/dataSources";
import { findQuery, type Query } from "../store/queries";
import type { DB } from "../store/schema";
import { streamDuckdbResult } from "./duckdb";
import { watchQuery } from "./queryWatch";
import {
  SchemaNotSupportedError,
  type ColumnType,
  type QueryRun,
  type ResultColumn,
  type RunContext,
  type RunPrincipal,
  type Runner,
} from "./types";

/**
 * Query Results (Redash's `results` type): SQL over other queries' stored results. Every
 * `query_<id>` or `cached_query_<id>` after FROM or JOIN becomes a table holding that query's
 * latest result, in a fresh in-memory DuckDB that can reach no file and no network.
 */

export interface TableReference {
  table: string;
  queryId: number;
}

/** Comments and string literals, which never name a table. */
const NOT_CODE = /'(?:[^']|'')*'|--[^\n]*|\/\*[\s\S]*?\*\//g;

/** The query tables the text reads (Redash's rule: a name right after FROM or JOIN). */
export function referencedTables(text: string): TableReference[] {
  const code = text.replace(NOT_CODE, " ");
  const found = new Map<string, TableReference>();
  for (const match of code.matchAll(/\b(?:from|join)\s+((?:cached_)?query_(\d{1,15}))\b/gi)) {
    const table = match[1]!.toLowerCase();
    found.set(table, { table, queryId: Number(match[2]) });
  }
  return [...found.values()];
}

/** The Redash type of Query Results data sources. */
export const RESULTS_TYPE = "results";

const notFound = (id: number) => `Query id ${id} not found.`;
const noAccess = (id: number) => `You do not have access to query id ${id}.`;

/** Thrown with the message the job reports. */
class QueryResultsError extends Error {}

/** Who the stored results are read for: may they see a query, and rows stored from a data source? */
export interface ResultsViewer {
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
export function groupsViewer(groupIds: number[]): ResultsViewer {
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

/** A referenced query and the stored result its table is loaded from (null: none yet). */
interface AllowedQuery {
  query: Query;
  result: ResultMeta | null;
}

/**
 * A bound on the queries one check follows (Query Results queries reading each other's results):
 * a deeper chain is refused rather than walked.
 */
export const MAX_CHECKED_QUERIES = 200;

/** Whom a check is for, within an organisation. */
interface Reader {
  orgId: number;
  viewer: ResultsViewer;
}

/**
 * The referenced queries, once each, with their latest results; throws when one is missing or the
 * reader may not see it (no reader: nobody to check access for). The check follows the data: a
 * result stored from another data source than its query's needs access there too, and one stored
 * by a Query Results data source brings the queries its own text read, checked the same way
 * (each query once, so cycles end; a chain longer than MAX_CHECKED_QUERIES is refused).
 */
async function loadAllowedQueries(
  db: Kysely<DB>,
  reader: Reader | null,
  ids: number[],
): Promise<Map<number, AllowedQuery>> {
  const allowed = new Map<number, AllowedQuery>();
  const pending = [...new Set(ids)];
  if (!reader) {
    if (pending.length > 0) throw new QueryResultsError(noAccess(pending[0]!));
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
    if (!query) throw new QueryResultsError(notFound(id));
    const links = query.data_source_id === null ? [] : await groupLinksOf(db, query.data_source_id);
    if (!(await viewer.mayViewQuery(query, links))) throw new QueryResultsError(noAccess(id));
    const result =
      query.latest_query_data_id === null
        ? null
        : await loadResultMeta(db, orgId, query.latest_query_data_id);
    allowed.set(id, { query, result });
    if (!result) continue;
    if (
      result.dataSourceId !== query.data_source_id &&
      !viewer.mayViewDataSource(await groupLinksOf(db, result.dataSourceId))
    ) {
      throw new QueryResultsError(noAccess(id));
    }
    if (!(await isResultsSource(result.dataSourceId))) continue;
    for (const { queryId } of referencedTables(result.query)) {
      if (seen.has(queryId)) continue;
      if (seen.size >= MAX_CHECKED_QUERIES) {
        throw new QueryResultsError(
          `Query results nest too deeply (more than ${MAX_CHECKED_QUERIES} queries).`,
        );
      }
      seen.add(queryId);
      pending.push(queryId);
    }
  }
  return allowed;
}

/**
 * Why stored results read by `text` may not be shown to `viewer` (null: they may): the check a
 * Query Results run makes, for readers that are not a run principal.
 */
export async function referencedQueriesRefusal(
  db: Kysely<DB>,
  orgId: number,
  viewer: ResultsViewer,
  text: string,
): Promise<string | null> {
  return refusalOf(() =>
    loadAllowedQueries(
      db,
      { orgId, viewer },
      referencedTables(text).map((r) => r.queryId),
    ),
  );
}

async function refusalOf(check: () => Promise<unknown>): Promise<string | null> {
  try {
    await check();
    return null;
  } catch (error) {
    if (error instanceof QueryResultsError) return error.message;
    throw error;
  }
}

/** The referenced queries the run principal may read (see loadAllowedQueries). */
async function loadForPrincipal(
  db: Kysely<DB>,
  principal: RunPrincipal | null,
  ids: number[],
): Promise<Map<number, AllowedQuery>> {
  const viewer = principal ? await principalViewer(db, principal) : null;
  const reader = principal && viewer ? { orgId: principal.orgId, viewer } : null;
  return loadAllowedQueries(db, reader, ids);
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** DuckDB names are case-insensitive: "a" and "A" would clash, so the second becomes "A1". */
function tableColumnNames(columns: ResultColumn[]): string[] {
  const used = new Set<string>();
  return columns.map((column) => {
    let name = column.name;
    for (let n = 1; used.has(name.toLowerCase()); n += 1) name = `${column.name}${n}`;
    used.add(name.toLowerCase());
    return name;
  });
}

/** The types a stored column is tried as, best first; it stays text when none fits every value. */
function typeCandidates(type: ColumnType): string[] {
  switch (type) {
    case "integer":
      return ["BIGINT", "DOUBLE"];
    case "float":
      return ["DOUBLE"];
    case "boolean":
      return ["BOOLEAN"];
    case "date":
      return ["DATE"];
    case "datetime":
      return ["TIMESTAMP"];
    default:
      return [];
  }
}

/**
 * Loads one stored result into a table. Rows are appended as text (one chunk in memory at a
 * time), then each column is converted to its stored type where every value allows it.
 */
async function loadTable(
  connection: DuckDBConnection,
  db: Kysely<DB>,
  reference: TableReference,
  meta: ResultMeta | null,
  signal: AbortSignal,
): Promise<void> {
  if (!meta) {
    throw new QueryResultsError(`No cached result available for query ${reference.queryId}.`);
  }
  if (meta.columns.length === 0) {
    throw new QueryResultsError(`The result of query id ${reference.queryId} has no columns.`);
  }
  const names = tableColumnNames(meta.columns);
  const table = quote(reference.table);
  await connection.run(
    `CREATE TABLE ${table} (${names.map((n) => `${quote(n)} VARCHAR`).join(", ")})`,
  );
  const appender = await connection.createAppender(reference.table);
  try {
    for await (const rows of readResultRows(db, meta)) {
      if (signal.aborted) throw signal.reason;
      for (const row of rows) {
        for (let i = 0; i < names.length; i += 1) {
          const cell = row[i];
          if (cell === null || cell === undefined) appender.appendNull();
          else appender.appendVarchar(String(cell));
        }
        appender.endRow();
      }
      appender.flushSync();
    }
  } finally {
    appender.closeSync();
  }
  for (let i = 0; i < names.length; i += 1) {
    for (const type of typeCandidates(meta.columns[i]!.type)) {
      const converted = await connection
        .run(`ALTER TABLE ${table} ALTER ${quote(names[i]!)} TYPE ${type}`)
        .then(() => true)
        .catch(() => false);
      if (converted) break;
    }
  }
}

/** A fresh database per run, closed to files, extensions and the network. */
async function openSandbox(): Promise<{ instance: DuckDBInstance; connection: DuckDBConnection }> {
  // Applied in this order: no temp directory can be set once external access is off.
  const instance = await DuckDBInstance.create(":memory:", {
    temp_directory: "",
    autoinstall_known_extensions: "false",
    autoload_known_extensions: "false",
    allow_community_extensions: "false",
    enable_external_access: "false",
    lock_configuration: "true",
  });
  try {
    return { instance, connection: await instance.connect() };
  } catch (error) {
    instance.closeSync();
    throw error;
  }
}

async function run(query: string, ctx: RunContext): Promise<QueryRun> {
  const references = referencedTables(query);
  const db = ctx.metadataDb;
  if (references.length > 0 && !db) {
    throw new Error("Query Results data sources run only in Sightline's query engine.");
  }
  const queries = db
    ? await loadForPrincipal(
        db,
        ctx.principal ?? null,
        references.map((r) => r.queryId),
      )
    : new Map<number, AllowedQuery>();

  const watch = watchQuery(ctx);
  let opened: Awaited<ReturnType<typeof openSandbox>> | null = null;
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    watch.dispose();
    opened?.connection.closeSync();
    opened?.instance.closeSync();
  };
  try {
    opened = await openSandbox();
    const connection = opened.connection;
    watch.signal.addEventListener("abort", () => connection.interrupt(), { once: true });
    for (const reference of references) {
      // The result checked above is the one loaded.
      const { result } = queries.get(reference.queryId)!;
      await loadTable(connection, db!, reference, result, watch.signal);
    }
    if (watch.signal.aborted) throw watch.signal.reason;
    const result = await connection.stream(query);
    return streamDuckdbResult(result, connection, watch, close);
  } catch (error) {
    const explained = error instanceof QueryResultsError ? error : watch.explain(error);
    close();
    throw explained;
  }
}

export const resultsRunner: Runner = {
  type: RESULTS_TYPE,
  name: "Query Results",
  syntax: "sql",
  supportsAutoLimit: false,
  configurationSchema: { type: "object", properties: {} },

  run: (_options, query, ctx) => run(query, ctx),

  async test(_options, ctx) {
    const { batches } = await run("SELECT 1", ctx);
    for await (const _batch of batches) void _batch;
  },

  async getSchema() {
    throw new SchemaNotSupportedError();
  },

  async authorize(query, { db, principal }) {
    const ids = referencedTables(query).map((r) => r.queryId);
    return refusalOf(() => loadForPrincipal(db, principal, ids));
  },
};
