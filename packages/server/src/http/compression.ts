import zlib from "node:zlib";
import type { FastifyCompressOptions } from "@fastify/compress";

/**
 * Compression of the answers built per request (API JSON, result downloads, pages), as the client
 * accepts. These are compressed on every request, so speed matters more than the last percent:
 * gzip first (level 5: a 13 MB result JSON shrinks 10× in about 0.2 s, where brotli at its lowest
 * useful quality, 4, takes half as long again for 3% less); brotli (quality 4, never its default
 * 11, which takes seconds) only for clients without gzip. The web app's files are compressed once,
 * at build time, with brotli at a high quality (webAppFiles.ts). Streams (big results, CSV) stay
 * streams, compressed as they go.
 */
export const responseCompression: FastifyCompressOptions = {
  encodings: ["gzip", "br"],
  zlibOptions: { level: 5 },
  brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
  // Below this, the saving is smaller than the headers and the time it costs.
  threshold: 1024,
  // Answers already in memory up to this size are compressed in one call rather than through a
  // zlib stream, whose set-up and thread hops cost more than the work (a 74 KB dashboard of 50
  // widgets: 0.3 ms in one call). The library's default on 2 cores is 8 KB.
  syncThreshold: 128 * 1024,
  // Request bodies are read as sent: compressed uploads are not part of the API.
  globalDecompression: false,
};
