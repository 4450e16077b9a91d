import type { Kysely } from "kysely";
import type { DB } from "../store/schema";
import { readResultRows, type ResultMeta } from "./resultStore";

export interface QueryResultJsonOptions {
  /** Rows sent at most; beyond it `data.truncated` is true. */
  maxRows?: number;
  /** Redash's reduced form for API principals on the execution routes: `{data, retrieved_at}`. */
  reduced?: boolean;
}

const ROWS_PER_PIECE = 1000;

/**
 * Redash's `{"query_result": {...}}` JSON of a stored result, produced piece by piece from the
 * chunks: a big result is never one string in memory.
 */
export async function* queryResultJsonStream(
  db: Kysely<DB>,
  meta: ResultMeta,
  options: QueryResultJsonOptions = {},
): AsyncGenerator<string> {
  const maxRows = options.maxRows ?? Number.POSITIVE_INFINITY;
  const keys = meta.columns.map((c) => `${JSON.stringify(c.name)}:`);
  const head = options.reduced
    ? `{"query_result":{`
    : `{"query_result":{"id":${meta.id},"query_hash":${JSON.stringify(meta.queryHash)},` +
      `"query":${JSON.stringify(meta.query)},`;
  yield `${head}"data":{"columns":${JSON.stringify(meta.columns)},"rows":[`;

  let first = true;
  for await (const rows of readResultRows(db, meta, maxRows)) {
    for (let start = 0; start < rows.length; start += ROWS_PER_PIECE) {
      const parts: string[] = [];
      for (const row of rows.slice(start, start + ROWS_PER_PIECE)) {
        // JSON.stringify turns NaN/Infinity into null, as Redash's encoder does.
        parts.push(`{${keys.map((key, i) => key + JSON.stringify(row[i] ?? null)).join(",")}}`);
      }
      yield (first ? "" : ",") + parts.join(",");
      first = false;
    }
  }

  const truncated = meta.truncated || meta.rowCount > maxRows;
  let tail = "]";
  if (truncated) tail += `,"truncated":true`;
  if (meta.log.length > 0) tail += `,"log":${JSON.stringify(meta.log)}`;
  tail += "}";
  if (options.reduced) {
    tail += `,"retrieved_at":${JSON.stringify(meta.retrievedAt)}}}`;
  } else {
    tail +=
      `,"data_source_id":${meta.dataSourceId},"runtime":${JSON.stringify(meta.runtime)},` +
      `"retrieved_at":${JSON.stringify(meta.retrievedAt)}}}`;
  }
  yield tail;
}
