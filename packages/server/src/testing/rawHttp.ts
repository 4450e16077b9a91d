import http from "node:http";
import zlib from "node:zlib";

/** A response as it crossed the wire: the body's bytes before any decoding. */
export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/**
 * A GET that sends exactly the given headers (fetch always asks for gzip and decodes it), to see
 * the bytes a server sends for a given Accept-Encoding.
 */
export function rawGet(url: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks),
        }),
      );
      response.on("error", reject);
    });
    request.on("error", reject);
  });
}

/** The body decoded according to its Content-Encoding (br, gzip or none). */
export function decodedBody(response: RawResponse): Buffer {
  switch (response.headers["content-encoding"]) {
    case "br":
      return zlib.brotliDecompressSync(response.body);
    case "gzip":
      return zlib.gunzipSync(response.body);
    case undefined:
    case "identity":
      return response.body;
    default:
      throw new Error(`unexpected Content-Encoding ${response.headers["content-encoding"]}`);
  }
}
