import { promisify } from "node:util";
import zlib from "node:zlib";
import type { Cell } from "../runners/types";

const deflate = promisify(zlib.deflate);
const inflate = promisify(zlib.inflate);

/**
 * Below these sizes (bytes of JSON in, of compressed data out) the work takes microseconds and a
 * trip through the thread pool costs more than it saves (~0.3 ms per small result), so it runs
 * inline. 2 KB of deflated data inflates to at most ~2 MB, a few milliseconds at worst.
 */
const INLINE_JSON_BYTES = 16 * 1024;
const INLINE_DEFLATED_BYTES = 2 * 1024;

/**
 * A stored chunk: the JSON array of row arrays (column order), deflated. Compression of all but
 * small chunks runs on the thread pool, so big results do not block the event loop.
 */
export async function encodeChunk(rowsJson: string): Promise<Buffer> {
  const input = Buffer.from(rowsJson, "utf8");
  if (input.length <= INLINE_JSON_BYTES) return zlib.deflateSync(input, { level: 6 });
  return deflate(input, { level: 6 });
}

export async function decodeChunk(data: Buffer | Uint8Array): Promise<Cell[][]> {
  const inflated =
    data.byteLength <= INLINE_DEFLATED_BYTES ? zlib.inflateSync(data) : await inflate(data);
  return JSON.parse(inflated.toString("utf8")) as Cell[][];
}
