import type { Kysely, Selectable } from "kysely";
import type { Cell, ResultColumn } from "../runners/types";
import type { DB, QueryResultsTable } from "../store/schema";
import { bool, now, parseJson, toJson } from "../store/values";
import { decodeChunk, encodeChunk } from "./chunks";
import { formatBytes, type ResultLimits } from "./limits";

/** A stored result's metadata row; the rows themselves stay in the chunks. */
export interface ResultMeta {
  id: number;
  orgId: number;
  dataSourceId: number;
  queryHash: string;
  query: string;
  runtime: number;
  retrievedAt: string;
  columns: ResultColumn[];
  rowCount: number;
  byteSize: number;
  truncated: boolean;
  log: string[];
  chunkCount: number;
}

/** The result is larger than the byte cap: the run fails instead of filling memory or disk. */
export class ResultTooLargeError extends Error {
  constructor(maxBytes: number) {
    super(
      `The query result is larger than the limit of ${formatBytes(maxBytes)}. ` +
        "Add filters or a LIMIT to the query, or ask an administrator to raise the limit.",
    );
    this.name = "ResultTooLargeError";
  }
}

/** While a result is being written its hash is masked, so cache lookups and linking never see it. */
const PENDING_PREFIX = "pending:";

export function metaFromRow(row: Selectable<QueryResultsTable>): ResultMeta {
  return {
    id: row.id,
    orgId: row.org_id,
    dataSourceId: row.data_source_id,
    queryHash: row.query_hash,
    query: row.query,
    runtime: Number(row.runtime),
    retrievedAt: row.retrieved_at,
    columns: parseJson<ResultColumn[]>(row.columns, []),
    rowCount: Number(row.row_count),
    byteSize: Number(row.byte_size),
    truncated: bool(row.truncated),
    log: parseJson<string[]>(row.log, []),
    chunkCount: Number(row.chunk_count),
  };
}

export async function loadResultMeta(
  db: Kysely<DB>,
  orgId: number,
  resultId: number,
): Promise<ResultMeta | null> {
  const row = await db
    .selectFrom("query_results")
    .selectAll()
    .where("org_id", "=", orgId)
    .where("id", "=", resultId)
    .where("query_hash", "not like", `${PENDING_PREFIX}%`)
    .executeTakeFirst();
  return row ? metaFromRow(row) : null;
}

export interface NewResult {
  orgId: number;
  dataSourceId: number;
  queryHash: string;
  /** The executed text (without the annotation comment). */
  query: string;
  columns: ResultColumn[];
  batches: AsyncIterable<Cell[][]>;
  /** Date.now() when the run started, for `runtime`. */
  startedAt: number;
  log?: string[];
  limits: ResultLimits;
}

/**
 * Consumes a runner's batches into compressed chunks, one chunk in memory at a time. Stops
 * reading at the row cap (the result is marked truncated and the runner is told to stop) and
 * fails at the byte cap. A failed write leaves nothing behind.
 */
export async function writeResult(db: Kysely<DB>, input: NewResult): Promise<ResultMeta> {
  const { limits, columns } = input;
  const inserted = await db
    .insertInto("query_results")
    .values({
      org_id: input.orgId,
      data_source_id: input.dataSourceId,
      query_hash: PENDING_PREFIX + input.queryHash,
      query: input.query,
      runtime: 0,
      retrieved_at: now(),
      columns: toJson(columns),
      row_count: 0,
      byte_size: 0,
      truncated: false,
      log: toJson(input.log ?? []),
      chunk_count: 0,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const resultId = inserted.id;
  // Bytes of `{"name": ` keys and braces that Redash's row objects add to every row.
  const perRowOverhead = 2 + columns.reduce((sum, c) => sum + JSON.stringify(c.name).length + 2, 0);

  let pieces: string[] = [];
  let pendingRows = 0;
  let pendingChars = 0;
  let rowCount = 0;
  let byteSize = 0;
  let chunkCount = 0;
  let truncated = false;

  const flush = async () => {
    if (pendingRows === 0) return;
    const data = await encodeChunk(`[${pieces.join(",")}]`);
    await db
      .insertInto("query_result_chunks")
      .values({ result_id: resultId, seq: chunkCount, row_count: pendingRows, data })
      .execute();
    chunkCount += 1;
    pieces = [];
    pendingRows = 0;
    pendingChars = 0;
  };

  try {
    for await (const batch of input.batches) {
      let rows = batch;
      if (rowCount + rows.length > limits.maxRows) {
        rows = rows.slice(0, limits.maxRows - rowCount);
        truncated = true;
      }
      if (rows.length > 0) {
        // Stringify the batch once; its inner text is this batch's part of the chunk.
        const json = JSON.stringify(rows);
        byteSize += Buffer.byteLength(json) - 2 + rows.length * perRowOverhead;
        if (byteSize > limits.maxBytes) throw new ResultTooLargeError(limits.maxBytes);
        pieces.push(json.slice(1, -1));
        pendingRows += rows.length;
        pendingChars += json.length;
        rowCount += rows.length;
        if (pendingRows >= limits.rowsPerChunk || pendingChars >= 8 * 1024 * 1024) await flush();
      }
      // Leaving the loop closes the runner's iterator, which stops the query.
      if (truncated) break;
    }
    await flush();
    const retrievedAt = now();
    const runtime = Math.max(0, (Date.now() - input.startedAt) / 1000);
    await db
      .updateTable("query_results")
      .set({
        query_hash: input.queryHash,
        runtime,
        retrieved_at: retrievedAt,
        row_count: rowCount,
        byte_size: byteSize,
        truncated,
        chunk_count: chunkCount,
      })
      .where("id", "=", resultId)
      .execute();
    return {
      id: resultId,
      orgId: input.orgId,
      dataSourceId: input.dataSourceId,
      queryHash: input.queryHash,
      query: input.query,
      runtime,
      retrievedAt,
      columns,
      rowCount,
      byteSize,
      truncated,
      log: input.log ?? [],
      chunkCount,
    };
  } catch (error) {
    await deleteResults(db, [resultId]).catch(() => undefined);
    throw error;
  }
}

/** The stored rows, chunk by chunk (only one chunk decoded at a time), up to `maxRows`. */
export async function* readResultRows(
  db: Kysely<DB>,
  meta: ResultMeta,
  maxRows = Number.POSITIVE_INFINITY,
): AsyncGenerator<Cell[][]> {
  let sent = 0;
  for (let seq = 0; seq < meta.chunkCount && sent < maxRows; seq += 1) {
    const chunk = await db
      .selectFrom("query_result_chunks")
      .select("data")
      .where("result_id", "=", meta.id)
      .where("seq", "=", seq)
      .executeTakeFirst();
    if (!chunk) break;
    let rows = await decodeChunk(chunk.data);
    if (sent + rows.length > maxRows) rows = rows.slice(0, maxRows - sent);
    sent += rows.length;
    yield rows;
  }
}

export async function deleteResults(db: Kysely<DB>, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom("query_result_chunks").where("result_id", "in", ids).execute();
  await db.deleteFrom("query_results").where("id", "in", ids).execute();
}
