// The `{"query_result": …}` JSON of a stored result as a gzip stream built from the stored chunks
// themselves: a chunk stored in the gzip-ready form (chunks.ts) is sent as it is, without being
// inflated and compressed again, which is most of the cost of a big download.
import zlib from "node:zlib";
import type { Kysely } from "kysely";
import type { DB } from "../store/schema";
import {
  decodeChunkText,
  deflatePiece,
  parseRowObjects,
  storedDeflatePiece,
  type DeflatedPiece,
} from "./chunks";
import { crc32Combine } from "./crc32Combine";
import {
  queryResultJsonHead,
  queryResultJsonTail,
  type QueryResultJsonOptions,
} from "./queryResultJson";
import { recentResult } from "./recentResults";
import type { ResultMeta } from "./resultMeta";
import { readChunks } from "./resultStore";

/** gzip's member header: deflate, no flags, no time, no extra flags, unknown OS. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xff]);
const COMMA = Buffer.from(",");
const COMMA_PIECE: DeflatedPiece = {
  deflated: zlib.deflateRawSync(COMMA, { finishFlush: zlib.constants.Z_SYNC_FLUSH }),
  crc: zlib.crc32(COMMA),
  length: 1,
};

/** The JSON of `queryResultJsonStream`, gzip-compressed, piece by piece. */
export async function* queryResultGzipStream(
  db: Kysely<DB>,
  meta: ResultMeta,
  options: QueryResultJsonOptions = {},
): AsyncGenerator<Buffer> {
  const maxRows = options.maxRows ?? Number.POSITIVE_INFINITY;
  let crc = 0;
  let length = 0;
  const add = (piece: DeflatedPiece) => {
    crc = crc32Combine(crc, piece.crc, piece.length);
    length += piece.length;
    return piece.deflated;
  };
  // One piece, so the first stored rows are the second (primedStream.ts).
  const head = add(await deflatePiece(Buffer.from(queryResultJsonHead(meta, options))));
  yield Buffer.concat([GZIP_HEADER, head]);
  let first = true;
  for await (const piece of readRowsDeflated(db, meta, maxRows)) {
    if (piece.length === 0) continue;
    if (!first) yield add(COMMA_PIECE);
    yield add(piece);
    first = false;
  }
  const tail = Buffer.from(queryResultJsonTail(meta, options));
  // The last block is the final one (deflate's end of stream), then the trailer.
  const last = zlib.deflateRawSync(tail);
  crc = crc32Combine(crc, zlib.crc32(tail), tail.length);
  length += tail.length;
  const trailer = Buffer.allocUnsafe(8);
  trailer.writeUInt32LE(crc, 0);
  trailer.writeUInt32LE(length % 2 ** 32, 4);
  yield Buffer.concat([last, trailer]);
}

/**
 * The rows of each chunk as gzip parts, up to `maxRows`: as stored when the chunk is whole and
 * stored gzip-ready, else its text (or the rows the cap keeps) compressed now.
 */
async function* readRowsDeflated(
  db: Kysely<DB>,
  meta: ResultMeta,
  maxRows: number,
): AsyncGenerator<DeflatedPiece> {
  const recent = recentResult(db, meta.orgId, meta.id);
  if (recent) {
    if (maxRows >= meta.rowCount) yield deflatePiece(recent.text);
    else if (maxRows > 0) yield deflatePiece(keptRows(recent.text, maxRows));
    return;
  }
  let sent = 0;
  for await (const { rowCount, data } of readChunks(db, meta, maxRows)) {
    const whole = sent + rowCount <= maxRows;
    const stored = whole ? storedDeflatePiece(data) : null;
    if (stored) yield stored;
    else {
      const text = await decodeChunkText(data);
      yield deflatePiece(whole ? text : keptRows(text, maxRows - sent));
    }
    sent += Math.min(rowCount, maxRows - sent);
  }
}

/** The first `count` rows of a chunk's text, as text. */
function keptRows(text: Buffer, count: number): Buffer {
  return Buffer.from(JSON.stringify(parseRowObjects(text).slice(0, count)).slice(1, -1));
}

/** Whether the request's Accept-Encoding takes gzip (a `q=0` refuses it). */
export function acceptsGzip(acceptEncoding: string | string[] | undefined): boolean {
  const header = Array.isArray(acceptEncoding) ? acceptEncoding.join(",") : acceptEncoding;
  if (!header) return false;
  const weights = new Map<string, number>();
  for (const part of header.split(",")) {
    const [name = "", ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    weights.set(name.trim(), q ? Number(q.slice(2)) : 1);
  }
  const weight = weights.get("gzip") ?? weights.get("x-gzip") ?? weights.get("*") ?? 0;
  return weight > 0;
}
