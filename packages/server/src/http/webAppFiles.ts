import fs from "node:fs";
import path from "node:path";
import type { FastifyInstance, FastifyReply } from "fastify";
import fastifyStatic from "@fastify/static";

/**
 * The built web app's files (packages/web/dist). The build writes a brotli (.br) and a gzip (.gz)
 * copy beside each text file (packages/web/precompress.ts); a client is sent the smallest copy it
 * accepts, so nothing is compressed per request. Vite's content-hashed bundles never change under
 * their name and are cached for a year; every other file is revalidated (ETag) on each use.
 */

/** Vite's output names: `/assets/<name>-<8-character hash>.<ext>`. */
const HASHED_NAME = /^\/assets\/.+-[A-Za-z0-9_-]{8}\.[A-Za-z0-9]+$/;

function cacheControlFor(urlPath: string): string {
  return HASHED_NAME.test(urlPath) ? "public, max-age=31536000, immutable" : "no-cache";
}

/** Adds `reply.sendFile` for the files under `root` (the app's page uses it too), and their routes. */
export async function registerWebAppFiles(app: FastifyInstance, root: string): Promise<void> {
  await app.register(fastifyStatic, {
    root,
    serve: false,
    index: false,
    preCompressed: true,
    // The Cache-Control header is ours (cacheControlFor); send's own would replace it.
    cacheControl: false,
  });
  for (const url of ["/assets/*", "/docs/*", "/sandbox/*", "/static/*", "/favicon*"]) {
    // No compression per request: a file without a copy is one where compressing saves nothing.
    app.get(url, { schema: { hide: true }, compress: false }, async (request, reply) =>
      sendWebAppFile(reply, root, request.url.split("?")[0]!),
    );
  }
}

/** Sends one of the web app's files, or a plain 404 when `urlPath` names none. */
function sendWebAppFile(reply: FastifyReply, root: string, urlPath: string) {
  const file = path.join(root, path.normalize(urlPath).replace(/^(\.\.[/\\])+/, ""));
  if (!file.startsWith(root + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
    return reply.code(404).type("text/plain").send("Not found");
  }
  return reply
    .header("Cache-Control", cacheControlFor(urlPath))
    .sendFile(path.relative(root, file));
}
