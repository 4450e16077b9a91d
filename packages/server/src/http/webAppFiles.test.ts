import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config";
import { createServer, type RunningServer } from "../server";
import { setUpAndLogin, type TestClient } from "../testing/httpClient";
import { decodedBody, rawGet } from "../testing/rawHttp";

// The built web app's files: Vite's content-hashed bundles are cached for a year, everything else
// is revalidated; the compressed copies the build writes beside each file are sent to clients that
// accept them.

const BUNDLE = "assets/antd-C6t-GH_1.js";
const STYLES = "assets/src--0srtD3t.css";
const LONG_CACHE = "public, max-age=31536000, immutable";

/** A small stand-in for packages/web/dist, compressed as the build compresses it. */
function fakeWebApp(): string {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), "sightline-web-"));
  const write = (file: string, text: string, precompress = true) => {
    fs.mkdirSync(path.dirname(path.join(dist, file)), { recursive: true });
    fs.writeFileSync(path.join(dist, file), text);
    if (!precompress) return;
    fs.writeFileSync(path.join(dist, `${file}.br`), zlib.brotliCompressSync(text));
    fs.writeFileSync(path.join(dist, `${file}.gz`), zlib.gzipSync(text));
  };
  const scripts = Array.from({ length: 20 }, (_, i) => `<!-- module ${i} -->`).join("\n");
  write("index.html", `<!doctype html><html><head>${scripts}</head><body></body></html>`);
  write(BUNDLE, "export const table = () => 'a table';\n".repeat(2000));
  write(STYLES, "a{}", false);
  write("favicon.svg", `<svg xmlns="http://www.w3.org/2000/svg">${" ".repeat(2000)}</svg>`);
  write("docs/index.html", `<h1>Help</h1>${"<p>text</p>".repeat(300)}`);
  return dist;
}

describe("the web app's files", () => {
  let server: RunningServer;
  let url: string;
  let dataDir: string;
  let webDist: string;
  let admin: TestClient;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sightline-test-"));
    webDist = fakeWebApp();
    const config = loadConfig({
      SIGHTLINE_DATA_DIR: dataDir,
      SIGHTLINE_LOG_LEVEL: "warn",
      SIGHTLINE_SECRET_KEY: crypto.randomBytes(32).toString("hex"),
    });
    server = await createServer(config, {
      webDist,
      background: false,
      hooks: { afterSetup: async () => {} },
    });
    await server.app.listen({ port: 0, host: "127.0.0.1" });
    url = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
    admin = await setUpAndLogin(url);
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(webDist, { recursive: true, force: true });
  });

  const original = (file: string) => fs.readFileSync(path.join(webDist, file));

  it("sends hashed bundles compressed as each client accepts, cached for a year", async () => {
    for (const [accept, encoding] of [
      ["gzip, deflate, br", "br"],
      ["gzip, deflate", "gzip"],
      ["identity", undefined],
      ["", undefined],
    ] as const) {
      const res = await rawGet(`${url}/${BUNDLE}`, accept ? { "accept-encoding": accept } : {});
      expect(res.status).toBe(200);
      expect(res.headers["content-encoding"]).toBe(encoding);
      expect(res.headers["cache-control"]).toBe(LONG_CACHE);
      expect(res.headers["content-type"]).toMatch(/javascript/);
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(decodedBody(res).equals(original(BUNDLE))).toBe(true);
      if (encoding) expect(res.body.length).toBeLessThan(original(BUNDLE).length / 5);
    }
  });

  it("sends a file without a compressed copy as it is", async () => {
    const res = await rawGet(`${url}/${STYLES}`, { "accept-encoding": "gzip, br" });
    expect(res.status).toBe(200);
    expect(res.headers["cache-control"]).toBe(LONG_CACHE);
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(decodedBody(res).equals(original(STYLES))).toBe(true);
  });

  it("has files without a content hash revalidated", async () => {
    for (const file of ["favicon.svg", "docs/index.html"]) {
      const res = await rawGet(`${url}/${file}`, { "accept-encoding": "br" });
      expect(res.status).toBe(200);
      expect(res.headers["cache-control"]).toBe("no-cache");
      expect(res.headers["content-encoding"]).toBe("br");
      expect(decodedBody(res).equals(original(file))).toBe(true);
      const again = await rawGet(`${url}/${file}`, {
        "accept-encoding": "br",
        "if-none-match": String(res.headers.etag),
      });
      expect(again.status).toBe(304);
    }
  });

  it("never caches the app's page, and compresses it", async () => {
    const cookie = [...admin.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    const res = await rawGet(`${url}/queries/1`, { cookie, "accept-encoding": "gzip" });
    expect(res.status).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.headers["content-encoding"]).toBe("gzip");
    expect(decodedBody(res).equals(original("index.html"))).toBe(true);
  });

  it("answers 404 for missing files and paths outside the app", async () => {
    const outside = await rawGet(`${url}/assets/../../package.json`);
    expect(outside.status).not.toBe(200);
    expect(outside.body.toString()).not.toContain("sightline");
    expect((await rawGet(`${url}/assets/missing-AAAAAAAA.js`)).status).toBe(404);
  });
});
