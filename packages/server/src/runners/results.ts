import { DuckDBInstance, type DuckDBConnection } from "@duckdb/node-api";
import type { Kysely } from "kysely";
import { principalIdentity } from "../execution/principal";
import { queryAccess } from "../policies";
import { loadResultMeta, readResultRows } from "../results/resultStore";
import { groupLinksOf } from "../store/dataSources";
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

const notFound = (id: number) => `Query id ${id} not found.`;
const noAccess = (id: number) => `You do not have access to query id ${id}.`;

/** Thrown with the message the job reports. */
class QueryResultsError extends Error {}

/** The referenced queries, once each; throws when one is missing or the principal may not view it. */
async function loadAllowedQueries(
  db: Kysely<DB>,
  principal: RunPrincipal | null,
  ids: number[],
): Promise<Map<number, Query>> {
  const queries = new Map<number, Query>();
  const identity = principal ? await principalIdentity(db, principal) : null;
  for (const id of new Set(ids)) {
    const query = principal ? await findQuery(db, principal.orgId, id) : null;
    if (!query) throw new QueryResultsError(principal ? notFound(id) : noAccess(id));
    const links = query.data_source_id === null ? [] : await groupLinksOf(db, query.data_source_id);
    if (!identity || (await queryAccess(db, identity, query, links)) === "none") {
      throw new QueryResultsError(noAccess(id));
    }
    queries.set(id, query);
  }
  return queries;
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
  orgId: number,
  reference: TableReference,
  query: Query,
  signal: AbortSignal,
): Promise<void> {
  const meta =
    query.latest_query_data_id === null
      ? null
      : await loadResultMeta(db, orgId, query.latest_query_data_id);
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
    ? await loadAllowedQueries(
        db,
        ctx.principal ?? null,
        references.map((r) => r.queryId),
      )
    : new Map<number, Query>();

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
      const target = queries.get(reference.queryId)!;
      await loadTable(connection, db!, ctx.principal!.orgId, reference, target, watch.signal);
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
  type: "results",
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
    try {
      await loadAllowedQueries(db, principal, ids);
      return null;
    } catch (error) {
      if (error instanceof QueryResultsError) return error.message;
      throw error;
    }
  },
};
