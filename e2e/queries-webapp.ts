// The browser tests load the web app from a snapshot of packages/web/dist taken once per file.
// The server serves the live folder, which any `npm run build` in the same checkout rewrites while
// the tests run: the build empties it (pages answer 404 for a few seconds) and renames every chunk
// (a page loaded before the build can no longer load its lazy pages). Both showed as pages that
// never rendered. A file's own test server serves the snapshot (fixtures/browserApp.ts); for a
// server that serves the live folder, useWebAppSnapshot routes the app's files from the snapshot
// while the server still answers every document request (sign-in redirects, the embed-page API
// key checks).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { BrowserContext } from "playwright-core";

const DIST = path.resolve("packages/web/dist");
const SNAPSHOT_WAIT_MS = 120_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function indexTime(dir: string): number | null {
  try {
    return fs.statSync(path.join(dir, "index.html")).mtimeMs;
  } catch {
    return null;
  }
}

/** Every file that index.html and the chunks name exists: the copy is one whole build. */
function isComplete(dir: string): boolean {
  const texts = [fs.readFileSync(path.join(dir, "index.html"), "utf8")];
  const assets = path.join(dir, "assets");
  for (const name of fs.readdirSync(assets)) {
    if (name.endsWith(".js")) texts.push(fs.readFileSync(path.join(assets, name), "utf8"));
  }
  for (const text of texts) {
    for (const match of text.matchAll(/(?:\/assets\/|"\.\/|"assets\/)([\w.-]+\.(?:js|css))/g)) {
      if (!fs.existsSync(path.join(assets, match[1]))) return false;
    }
  }
  return true;
}

/** Copies the built web app once no build is under way; waits for one to finish if needed. */
export async function snapshotWebApp(): Promise<string> {
  const deadline = Date.now() + SNAPSHOT_WAIT_MS;
  while (Date.now() < deadline) {
    const before = indexTime(DIST);
    if (before !== null) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sightline-web-"));
      try {
        fs.cpSync(DIST, dir, { recursive: true });
        if (indexTime(DIST) === before && isComplete(dir)) return dir;
      } catch {
        // A build emptied the folder during the copy: try again.
      }
      fs.rmSync(dir, { recursive: true, force: true });
    }
    await sleep(1000);
  }
  throw new Error(`no complete web build in ${DIST}: run npm run build -w @sightline/web`);
}

/** Serves the app's page and its files to every page of the context from the snapshot. */
export async function useWebAppSnapshot(context: BrowserContext, dir: string): Promise<void> {
  const page = fs.readFileSync(path.join(dir, "index.html"), "utf8");
  await context.route(
    (url) => !url.pathname.startsWith("/api/"),
    async (route) => {
      const request = route.request();
      const { pathname } = new URL(request.url());
      if (pathname.startsWith("/assets/")) {
        const file = path.join(dir, path.normalize(pathname));
        if (file.startsWith(dir) && fs.existsSync(file)) return route.fulfill({ path: file });
        return route.continue();
      }
      if (request.resourceType() !== "document" || request.method() !== "GET") {
        return route.continue();
      }
      // The server decides (redirects, its own pages); when its answer is the app, or the 404 of
      // a folder being rebuilt, the snapshot's page is used.
      const response = await route.fetch({ maxRedirects: 0 });
      const html = (response.headers()["content-type"] ?? "").includes("text/html");
      const isApp =
        response.status() === 200 && html && (await response.text()).includes('<div id="root">');
      if (isApp || response.status() === 404) {
        const headers = { ...response.headers() };
        delete headers["content-length"];
        delete headers["content-encoding"];
        headers["content-type"] = "text/html; charset=utf-8";
        return route.fulfill({ status: 200, headers, body: page });
      }
      return route.fulfill({ response });
    },
  );
}
