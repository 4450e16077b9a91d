import type { Kysely, Selectable } from "kysely";
import { JsonRows, type Cell, type ResultColumn, type RowBatch } from "../runners/types";
import type { DB, QueryResultsTable } from "../store/schema";
import { bool, now, parseJson, toJson } from "../store/values";
import {
  decodeChunkText,
  encodeChunk,
  jsonRowsText,
  parseRowObjects,
  rowObjectBuilder,
  rowsText,
} from "./chunks";
import {
  ResultStorageError,
  objectChunkStore,
  type ChunkPlace,
  type ChunkStore,
  type ChunkWriter,
} from "./chunkStore";
import { databaseChunks } from "./databaseChunks";
import { formatBytes, type ResultLimits } from "./limits";
import { forgetResults, recentResult, rememberResult } from "./recentResults";
import type { ResultMeta } from "./resultMeta";

export type { ResultMeta } from "./resultMeta";

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
    chunkLocation: row.chunk_location ?? null,
  };
}

/** The store holding chunks at `location` (null: the metadata database). */
function chunkStoreAt(db: Kysely<DB>, location: string | null): ChunkStore {
  if (location === null) return databaseChunks;
  const store = objectChunkStore(db);
  if (!store) {
    throw new ResultStorageError(
      `This result's rows are in object storage (${location}), but SIGHTLINE_RESULTS_URL is not set.`,
    );
  }
  return store;
}

export async function loadResultMeta(
  db: Kysely<DB>,
  orgId: number,
  resultId: number,
): Promise<ResultMeta | null> {
  const recent = recentResult(db, orgId, resultId);
  if (recent) return recent.meta;
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
  batches: AsyncIterable<RowBatch>;
  /** Date.now() when the run started, for `runtime`. */
  startedAt: number;
  log?: string[];
  limits: ResultLimits;
  /** Runs inside the transaction that stores the result; a failure stores nothing. */
  beforeCommit?: (tx: Kysely<DB>, meta: ResultMeta) => Promise<void>;
}

/**
 * Consumes a runner's batches into compressed chunks, one chunk in memory at a time. Stops
 * reading at the row cap (the result is marked truncated and the runner is told to stop) and
 * fails at the byte cap. A failed write leaves nothing behind. A result that fits in one chunk
 * (the common case) is written in one transaction; a bigger one gets its metadata row, under a
 * masked hash, when its first chunk is written.
 */
export async function writeResult(db: Kysely<DB>, input: NewResult): Promise<ResultMeta> {
  const { limits, columns } = input;
  // With object storage configured, new chunks go there under a place chosen now.
  const store = objectChunkStore(db) ?? databaseChunks;
  const location = store.newLocation();
  const rowsPerChunk = limits.rowsPerChunk;
  const build = rowObjectBuilder(columns);
  const metaRow = (values: { queryHash: string; runtime: number; retrievedAt: string }) => ({
    org_id: input.orgId,
    data_source_id: input.dataSourceId,
    query_hash: values.queryHash,
    query: input.query,
    runtime: values.runtime,
    retrieved_at: values.retrievedAt,
    columns: toJson(columns),
    row_count: rowCount,
    byte_size: byteSize,
    truncated,
    log: toJson(input.log ?? []),
    chunk_count: chunkCount,
    chunk_location: location,
  });

  let resultId: number | null = null;
  // Chunks are compressed on the thread pool while the next ones are read, a few at once (the
  // compression, not the query, is the slowest step of a big result), and stored in order.
  let writing: Promise<void> = Promise.resolve();
  // Object storage groups chunks into bigger objects and uploads a few at once.
  let writer = null as ChunkWriter | null;
  const chunkWriter = (id: number) => (writer ??= store.writer(db, { resultId: id, location }));
  const inFlight: Promise<void>[] = [];
  let pieces: Buffer[] = [];
  let pendingRows = 0;
  let pendingBytes = 0;
  let rowCount = 0;
  let byteSize = 0;
  let chunkCount = 0;
  let truncated = false;

  /** The pending rows as one chunk's text; resets the pending state. */
  const takeChunk = () => {
    const chunk = { seq: chunkCount, rowCount: pendingRows, text: joinRows(pieces) };
    chunkCount += 1;
    pieces = [];
    pendingRows = 0;
    pendingBytes = 0;
    return chunk;
  };
  const encoded = async (chunk: ReturnType<typeof takeChunk>) => ({
    ...chunk,
    data: await encodeChunk(chunk.text),
  });
  const insertChunk = (
    target: Kysely<DB>,
    id: number,
    chunk: Awaited<ReturnType<typeof encoded>>,
  ) => store.put(target, { resultId: id, location }, chunk);

  try {
    for await (const batch of input.batches) {
      let rows = batch;
      if (rowCount + rows.length > limits.maxRows) {
        const keep = limits.maxRows - rowCount;
        rows = rows instanceof JsonRows ? rows.slice(keep) : rows.slice(0, keep);
        truncated = true;
      }
      if (rows.length > 0) {
        const text = rows instanceof JsonRows ? jsonRowsText(rows.texts) : rowsText(rows, build);
        byteSize += text.length + (rowCount > 0 ? 1 : 0);
        if (byteSize > limits.maxBytes) throw new ResultTooLargeError(limits.maxBytes);
        pieces.push(text);
        pendingRows += rows.length;
        pendingBytes += text.length;
        rowCount += rows.length;
        if (pendingRows >= rowsPerChunk || pendingBytes >= CHUNK_BYTES) {
          const chunk = takeChunk();
          resultId ??= await insertPendingMeta();
          if (inFlight.length >= CHUNKS_IN_FLIGHT) await inFlight.shift();
          const id = resultId;
          const data = settled(encodeChunk(chunk.text));
          writing = settled(
            writing.then(async () => chunkWriter(id).put({ ...chunk, data: await data })),
          );
          inFlight.push(writing);
        }
      }
      // Leaving the loop closes the runner's iterator, which stops the query.
      if (truncated) break;
    }
    await writing;
    const last = pendingRows > 0 ? await encoded(takeChunk()) : null;
    // An object is uploaded before the transaction; a database chunk is written inside it.
    if (last && location !== null) await chunkWriter(resultId ?? 0).put(last);
    await writer?.finish();
    const lastInTx = location === null ? last : null;
    const retrievedAt = now();
    const runtime = Math.max(0, (Date.now() - input.startedAt) / 1000);
    const final = { queryHash: input.queryHash, runtime, retrievedAt };
    const meta: ResultMeta = {
      id: resultId ?? 0,
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
      chunkLocation: location,
    };
    // The last writes and the caller's (linking the result to its queries) commit together.
    const pendingId = resultId;
    await db.transaction().execute(async (tx) => {
      if (pendingId === null) {
        const { id } = await tx
          .insertInto("query_results")
          .values(metaRow(final))
          .returning("id")
          .executeTakeFirstOrThrow();
        meta.id = id;
        if (lastInTx) await insertChunk(tx, id, lastInTx);
      } else {
        if (lastInTx) await insertChunk(tx, pendingId, lastInTx);
        const { query_hash, runtime: r, retrieved_at, row_count, byte_size } = metaRow(final);
        await tx
          .updateTable("query_results")
          .set({
            query_hash,
            runtime: r,
            retrieved_at,
            row_count,
            byte_size,
            truncated,
            chunk_count: chunkCount,
          })
          .where("id", "=", pendingId)
          .execute();
      }
      await input.beforeCommit?.(tx, meta);
    });
    if (last && chunkCount === 1) rememberResult(db, meta, last.text);
    return meta;
  } catch (error) {
    await writing.catch(() => undefined);
    await writer?.abort();
    // A pending row names the place, so deleting it deletes uploaded objects; when that fails
    // too, the row stays for the cleanup of unused results (cache.ts) to delete later.
    if (resultId !== null) await deleteResults(db, [resultId]).catch(() => undefined);
    else if (location !== null) {
      await store.remove(db, [{ resultId: 0, location }]).catch(() => undefined);
    }
    throw error;
  }

  async function insertPendingMeta(): Promise<number> {
    const row = metaRow({
      queryHash: PENDING_PREFIX + input.queryHash,
      runtime: 0,
      retrievedAt: now(),
    });
    const { id } = await db
      .insertInto("query_results")
      .values({ ...row, row_count: 0, byte_size: 0, truncated: false, chunk_count: 0 })
      .returning("id")
      .executeTakeFirstOrThrow();
    return id;
  }
}

/** The promise, marked handled until awaited: its failure is met where it is awaited. */
function settled<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

/** Chunks compressed or being stored at once while a result is written. */
const CHUNKS_IN_FLIGHT = 2;

/** A chunk holds at most this much text besides the row count (wide rows). */
const CHUNK_BYTES = 8 * 1024 * 1024;
const COMMA = Buffer.from(",");

function joinRows(pieces: Buffer[]): Buffer {
  if (pieces.length === 1) return pieces[0];
  const parts: Buffer[] = [];
  for (const piece of pieces) {
    if (parts.length > 0) parts.push(COMMA);
    parts.push(piece);
  }
  return Buffer.concat(parts);
}

/** The stored rows as cells in column order, chunk by chunk (one decoded at a time), up to `maxRows`. */
export async function* readResultRows(
  db: Kysely<DB>,
  meta: ResultMeta,
  maxRows = Number.POSITIVE_INFINITY,
): AsyncGenerator<Cell[][]> {
  const names = meta.columns.map((c) => c.name);
  for await (const objects of readResultRowObjects(db, meta, maxRows)) {
    yield objects.map((object) => names.map((name) => object[name] ?? null));
  }
}

/** The stored rows as Redash's row objects (keyed by column name), chunk by chunk. */
export async function* readResultRowObjects(
  db: Kysely<DB>,
  meta: ResultMeta,
  maxRows = Number.POSITIVE_INFINITY,
): AsyncGenerator<Record<string, Cell>[]> {
  let sent = 0;
  for await (const { text } of readResultChunkTexts(db, meta, maxRows)) {
    let rows = parseRowObjects(text);
    if (sent + rows.length > maxRows) rows = rows.slice(0, maxRows - sent);
    sent += rows.length;
    yield rows;
  }
}

/**
 * The stored rows as Redash's row-object JSON text, a piece per chunk (no brackets, no commas
 * between pieces), up to `maxRows`. Whole chunks are sent as stored, without parsing.
 */
export async function* readResultRowsJson(
  db: Kysely<DB>,
  meta: ResultMeta,
  maxRows = Number.POSITIVE_INFINITY,
): AsyncGenerator<Buffer> {
  let sent = 0;
  for await (const { rowCount, text } of readResultChunkTexts(db, meta, maxRows)) {
    if (sent + rowCount <= maxRows) {
      sent += rowCount;
      yield text;
    } else {
      // The display cap ends inside this chunk: re-encode the rows it keeps.
      const kept = parseRowObjects(text).slice(0, maxRows - sent);
      sent += kept.length;
      yield Buffer.from(JSON.stringify(kept).slice(1, -1));
    }
  }
}

/**
 * Each stored chunk's inflated text (row objects, see chunks.ts) with its row count, in order,
 * until `maxRows` rows have been read; the next chunk inflates on the thread pool while the
 * current one is being used.
 */
export async function* readResultChunkTexts(
  db: Kysely<DB>,
  meta: ResultMeta,
  maxRows = Number.POSITIVE_INFINITY,
): AsyncGenerator<{ rowCount: number; text: Buffer }> {
  const recent = recentResult(db, meta.orgId, meta.id);
  if (recent) {
    if (maxRows > 0) yield { rowCount: meta.rowCount, text: recent.text };
    return;
  }
  let next: Promise<Buffer> | null = null;
  const chunks = readChunks(db, meta, maxRows);
  let current = await chunks.next();
  while (!current.done) {
    const { rowCount } = current.value;
    const text: Buffer = await (next ?? decodeChunkText(current.value.data));
    current = await chunks.next();
    next = current.done ? null : decodeChunkText(current.value.data);
    // Awaited on the next turn; until then a failure must not count as unhandled.
    next?.catch(() => undefined);
    yield { rowCount, text };
  }
}

/** The stored chunks in order, one at a time, until `maxRows` rows have been read. */
export function readChunks(
  db: Kysely<DB>,
  meta: ResultMeta,
  maxRows: number,
): AsyncGenerator<{ rowCount: number; data: Buffer | Uint8Array }> {
  const place = { resultId: meta.id, location: meta.chunkLocation };
  return chunkStoreAt(db, meta.chunkLocation).read(db, place, meta.chunkCount, maxRows);
}

/**
 * Deletes the objects of a data source's results kept in object storage, before the data source
 * and its result rows go (store/dataSources.ts deleteDataSource): if the store fails, nothing is
 * deleted and the admin can try again.
 */
export async function deleteDataSourceResultObjects(
  db: Kysely<DB>,
  dataSourceId: number,
): Promise<void> {
  const inObjects: ChunkPlace[] = (
    await db
      .selectFrom("query_results")
      .select(["id", "chunk_location"])
      .where("data_source_id", "=", dataSourceId)
      .where("chunk_location", "is not", null)
      .execute()
  ).map((row) => ({ resultId: row.id, location: row.chunk_location }));
  if (inObjects.length > 0) {
    await chunkStoreAt(db, inObjects[0]!.location).remove(db, inObjects);
  }
}

export async function deleteResults(db: Kysely<DB>, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  forgetResults(db, ids);
  // Objects first: if their store fails, the rows stay and a later cleanup tries again.
  const inObjects: ChunkPlace[] = (
    await db
      .selectFrom("query_results")
      .select(["id", "chunk_location"])
      .where("id", "in", ids)
      .where("chunk_location", "is not", null)
      .execute()
  ).map((row) => ({ resultId: row.id, location: row.chunk_location }));
  if (inObjects.length > 0) {
    await chunkStoreAt(db, inObjects[0]!.location).remove(db, inObjects);
  }
  await databaseChunks.remove(
    db,
    ids.map((resultId) => ({ resultId, location: null })),
  );
  await db.deleteFrom("query_results").where("id", "in", ids).execute();
}
