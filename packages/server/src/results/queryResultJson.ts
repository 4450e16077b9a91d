import type { Kysely } from "kysely";
import type { DB } from "../store/schema";
import type { ResultMeta } from "./resultMeta";
import { readResultRowsJson } from "./resultStore";

export interface QueryResultJsonOptions {
  /**
   * Rows sent at most; beyond it `data.truncated` is true and `data.row_count` says how many rows
   * the stored result (and so every download) has.
   */
  maxRows?: number;
  /** Redash's reduced form for API principals on the execution routes: `{data, retrieved_at}`. */
  reduced?: boolean;
  /** The finished job that produced the result, sent alongside it (execution routes). */
  job?: object;
}

/**
 * Redash's `{"query_result": {...}}` JSON of a stored result (with `"job"` first when given),
 * produced piece by piece from the chunks: a big result is never one string in memory.
 */
export async function* queryResultJsonStream(
  db: Kysely<DB>,
  meta: ResultMeta,
  options: QueryResultJsonOptions = {},
): AsyncGenerator<string | Buffer> {
  const maxRows = options.maxRows ?? Number.POSITIVE_INFINITY;
  yield queryResultJsonHead(meta, options);
  let first = true;
  for await (const text of readResultRowsJson(db, meta, maxRows)) {
    if (text.length === 0) continue;
    if (!first) yield ",";
    yield text;
    first = false;
  }
  yield queryResultJsonTail(meta, options);
}

/** The JSON up to the first row: `{"query_result":{…,"data":{"columns":[…],"rows":[`. */
export function queryResultJsonHead(meta: ResultMeta, options: QueryResultJsonOptions): string {
  const job = options.job ? `"job":${JSON.stringify(options.job)},` : "";
  const head = options.reduced
    ? `{${job}"query_result":{`
    : `{${job}"query_result":{"id":${meta.id},"query_hash":${JSON.stringify(meta.queryHash)},` +
      `"query":${JSON.stringify(meta.query)},`;
  return `${head}"data":{"columns":${JSON.stringify(meta.columns)},"rows":[`;
}

/** The JSON after the last row. */
export function queryResultJsonTail(meta: ResultMeta, options: QueryResultJsonOptions): string {
  const maxRows = options.maxRows ?? Number.POSITIVE_INFINITY;
  // `truncated` is Redash's flag; the two extra keys let the web app say which cap cut the rows:
  // the display cap (downloads still hold all `row_count` rows) or the stored-rows cap.
  const displayCut = meta.rowCount > maxRows;
  let tail = "]";
  if (meta.truncated || displayCut) tail += `,"truncated":true`;
  if (displayCut) tail += `,"row_count":${meta.rowCount}`;
  if (meta.truncated) tail += `,"stored_truncated":true`;
  if (meta.log.length > 0) tail += `,"log":${JSON.stringify(meta.log)}`;
  tail += "}";
  if (options.reduced) {
    tail += `,"retrieved_at":${JSON.stringify(meta.retrievedAt)}}}`;
  } else {
    tail +=
      `,"data_source_id":${meta.dataSourceId},"runtime":${JSON.stringify(meta.runtime)},` +
      `"retrieved_at":${JSON.stringify(meta.retrievedAt)}}}`;
  }
  return tail;
}
