import { promisify } from "node:util";
import zlib from "node:zlib";
import type { Cell, JsonText, ResultColumn } from "../runners/types";

const deflateRaw = promisify<zlib.InputType, zlib.ZlibOptions, Buffer>(zlib.deflateRaw);
const inflateRaw = promisify<zlib.InputType, zlib.ZlibOptions, Buffer>(zlib.inflateRaw);
const inflate = promisify(zlib.inflate);

/**
 * A stored chunk holds its rows as the text Redash's API sends them: row objects separated by
 * commas (`{"a":1,"b":"x"},{"a":2,"b":"y"}`), deflated. The result view and the JSON download,
 * by far the most frequent reads, then only inflate and send; CSV, XLSX and the Query Results
 * runner parse the rows back into cells.
 */

/**
 * Below these sizes (bytes of text in, of compressed data out) the work takes microseconds and a
 * trip through the thread pool costs more than it saves (~0.3 ms per small result), so it runs
 * inline. 2 KB of deflated data inflates to at most ~2 MB, a few milliseconds at worst.
 */
const INLINE_TEXT_BYTES = 16 * 1024;
const INLINE_DEFLATED_BYTES = 2 * 1024;
/** Row objects repeat their keys, so the fastest level still compresses them ~8×. */
const DEFLATE_LEVEL = 1;

/** Builds one row object from cells in column order; JSON.stringify of such objects is native. */
export type RowObjectBuilder = (row: Cell[]) => Record<string, Cell>;

export function rowObjectBuilder(columns: ResultColumn[]): RowObjectBuilder {
  const names = columns.map((c) => c.name);
  // An own "__proto__" property cannot be assigned on a plain object; such rare results take the
  // slower prototype-less objects.
  const make = names.includes("__proto__")
    ? () => Object.create(null) as Record<string, Cell>
    : () => ({}) as Record<string, Cell>;
  return (row) => {
    const object = make();
    for (let i = 0; i < names.length; i += 1) object[names[i]] = row[i] ?? null;
    return object;
  };
}

/** Rows encoded at once: their text stays small enough for V8's young generation. */
const ROWS_PER_TEXT = 500;

/**
 * The chunk text of some rows, UTF-8 (no surrounding brackets). NaN and ±Infinity become null.
 * Encoded a few hundred rows at a time: a big batch as one string lands in V8's large-object
 * space, which is only swept by full collections, so a million rows piled up ~100 MB of dead text.
 */
export function rowsText(rows: Cell[][], build: RowObjectBuilder): Buffer {
  if (rows.length <= ROWS_PER_TEXT) {
    return Buffer.from(JSON.stringify(rows.map(build)).slice(1, -1), "utf8");
  }
  const parts: Buffer[] = [];
  for (let start = 0; start < rows.length; start += ROWS_PER_TEXT) {
    if (start > 0) parts.push(COMMA);
    const slice = rows.slice(start, start + ROWS_PER_TEXT);
    parts.push(Buffer.from(JSON.stringify(slice.map(build)).slice(1, -1), "utf8"));
  }
  return Buffer.concat(parts);
}

const COMMA = Buffer.from(",");

/** The chunk text of rows the database wrote as JSON, joined a few hundred at a time as above. */
export function jsonRowsText(texts: JsonText[]): Buffer {
  const parts: Buffer[] = [];
  let joined: string[] = [];
  let rows = 0;
  const flush = () => {
    if (parts.length > 0) parts.push(COMMA);
    parts.push(Buffer.from(joined.join(","), "utf8"));
    joined = [];
    rows = 0;
  };
  for (const text of texts) {
    joined.push(text.text);
    rows += text.rows;
    if (rows >= ROWS_PER_TEXT) flush();
  }
  if (joined.length > 0) flush();
  return parts.length === 1 ? parts[0] : Buffer.concat(parts);
}

/**
 * Compression of all but small chunks runs on the thread pool, off the event loop. A tiny chunk
 * (a few rows) is stored as its text: deflating it saves a few hundred bytes but costs more than
 * the rest of writing it. Stored text starts with "{"; a deflated chunk starts with
 * GZIP_READY (0x01), then the text's CRC-32 and byte length (4 bytes each, little-endian), then
 * raw deflate data ended by a sync flush (no final block), so a gzip answer can send chunks as
 * stored, one after the other (gzipJson.ts). Chunks written before that start with 0x78 (a zlib
 * stream) and are still read.
 */
export async function encodeChunk(input: Buffer): Promise<Buffer> {
  if (input.length <= PLAIN_TEXT_BYTES) return input;
  const data =
    input.length <= INLINE_TEXT_BYTES
      ? zlib.deflateRawSync(input, DEFLATE_OPTIONS)
      : await deflateRaw(input, DEFLATE_OPTIONS);
  const header = Buffer.allocUnsafe(GZIP_READY_HEADER);
  header[0] = GZIP_READY;
  header.writeUInt32LE(zlib.crc32(input), 1);
  header.writeUInt32LE(input.length, 5);
  return Buffer.concat([header, data]);
}

const PLAIN_TEXT_BYTES = 512;
const OPEN_BRACE = 0x7b;
const GZIP_READY = 0x01;
const GZIP_READY_HEADER = 9;
const DEFLATE_OPTIONS: zlib.ZlibOptions = {
  level: DEFLATE_LEVEL,
  finishFlush: zlib.constants.Z_SYNC_FLUSH,
};
const INFLATE_OPTIONS: zlib.ZlibOptions = { finishFlush: zlib.constants.Z_SYNC_FLUSH };

/** A stored chunk as gzip's parts: raw deflate data without a final block, its text's CRC-32 and length. */
export interface DeflatedPiece {
  deflated: Buffer;
  crc: number;
  length: number;
}

/** The stored chunk's deflate data as it is, when it was stored in the gzip-ready form; else null. */
export function storedDeflatePiece(data: Buffer | Uint8Array): DeflatedPiece | null {
  if (data[0] !== GZIP_READY || data.byteLength < GZIP_READY_HEADER) return null;
  const buffer = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return {
    crc: buffer.readUInt32LE(1),
    length: buffer.readUInt32LE(5),
    deflated: buffer.subarray(GZIP_READY_HEADER),
  };
}

/** Some text as a gzip part (sync-flushed raw deflate), for the pieces not stored that way. */
export async function deflatePiece(text: Buffer): Promise<DeflatedPiece> {
  const deflated =
    text.length <= INLINE_TEXT_BYTES
      ? zlib.deflateRawSync(text, DEFLATE_OPTIONS)
      : await deflateRaw(text, DEFLATE_OPTIONS);
  return { deflated, crc: zlib.crc32(text), length: text.length };
}

/** The chunk's text, as UTF-8 bytes. */
export async function decodeChunkText(data: Buffer | Uint8Array): Promise<Buffer> {
  if (data[0] === OPEN_BRACE) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const piece = storedDeflatePiece(data);
  if (piece) {
    return piece.deflated.length <= INLINE_DEFLATED_BYTES
      ? zlib.inflateRawSync(piece.deflated, INFLATE_OPTIONS)
      : inflateRaw(piece.deflated, INFLATE_OPTIONS);
  }
  return data.byteLength <= INLINE_DEFLATED_BYTES ? zlib.inflateSync(data) : inflate(data);
}

/** The chunk's row objects. */
export function parseRowObjects(text: Buffer | string): Record<string, Cell>[] {
  return JSON.parse(`[${text.toString()}]`) as Record<string, Cell>[];
}
