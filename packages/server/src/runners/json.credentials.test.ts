// The data source's stored Basic-auth credentials go only to its base_url's origin
// (SECURITY.md rule 1): never to a host a query author names, nor along a pagination link.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createOutboundClient } from "../outbound/client";
import { jsonRunner } from "./json";
import { runAll, testContext } from "./testSupport";

interface Seen {
  path: string;
  auth?: string;
}

/** A JSON server; `/page?next=<url>` answers one item and the given next link. */
async function startServer(seen: Seen[]) {
  const server = http.createServer((req, res) => {
    seen.push({ path: req.url ?? "", auth: req.headers.authorization });
    const url = new URL(req.url ?? "/", "http://x");
    res.setHeader("content-type", "application/json");
    if (url.pathname === "/secured") {
      if (!req.headers.authorization) {
        res.statusCode = 401;
        return res.end("{}");
      }
      return res.end(JSON.stringify([{ ok: true }]));
    }
    const next = url.searchParams.get("next");
    res.end(JSON.stringify({ items: [{ at: url.pathname }], ...(next ? { next } : {}) }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const apiSeen: Seen[] = [];
const otherSeen: Seen[] = [];
let servers: http.Server[] = [];
let api: string;
let other: string;

beforeAll(async () => {
  const a = await startServer(apiSeen);
  const b = await startServer(otherSeen);
  servers = [a.server, b.server];
  api = a.origin;
  other = b.origin;
});

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

beforeEach(() => {
  apiSeen.length = 0;
  otherSeen.length = 0;
});

const ctx = testContext({ outbound: createOutboundClient({ allowedRanges: ["127.0.0.0/8"] }) });
const secret = `Basic ${Buffer.from("svc:s3cret").toString("base64")}`;
const stored = () => ({ base_url: api, username: "svc", password: "s3cret" });
const rows = async (options: Record<string, unknown>, query: string) =>
  (await runAll(jsonRunner.run(options, query, ctx))).rows;

describe("json runner stored credentials", () => {
  it("sends them to base_url's origin, on every pagination hop", async () => {
    const last = encodeURIComponent(`${api}/last`);
    const result = await rows(
      stored(),
      `url: /first?next=${encodeURIComponent(`/second?next=${last}`)}\npath: items\npagination: {type: url, path: next}`,
    );
    expect(result).toEqual([["/first"], ["/second"], ["/last"]]);
    expect(apiSeen.map((s) => s.auth)).toEqual([secret, secret, secret]);
  });

  it("refuses an absolute URL when base_url is set, like Redash", async () => {
    const refusal = `Accepting only relative URLs to '${api}'`;
    for (const url of [`${other}/steal`, `//127.0.0.1:${new URL(other).port}/steal`, `${api}/x`]) {
      await expect(jsonRunner.run(stored(), `url: "${url}"`, ctx)).rejects.toThrow(refusal);
    }
    // Backslashes count as slashes in http URLs: "/\host" is another host, not a path.
    await expect(
      jsonRunner.run(stored(), `url: '/\\127.0.0.1:${new URL(other).port}/steal'`, ctx),
    ).rejects.toThrow(refusal);
    expect(otherSeen).toEqual([]);
    expect(apiSeen).toEqual([]);
  });

  it("never puts credentials in the refusal (base_url with user info)", async () => {
    const options = { base_url: `http://svc:s3cret@127.0.0.1:${new URL(api).port}/` };
    const error = await jsonRunner.run(options, `url: ${other}/steal`, ctx).catch((e: Error) => e);
    expect((error as Error).message).toBe(
      `Accepting only relative URLs to 'http://127.0.0.1:${new URL(api).port}/'`,
    );
    expect(otherSeen).toEqual([]);
  });

  it("refuses a pagination link to another origin and never sends it the credentials", async () => {
    const query = `url: /first?next=${encodeURIComponent(`${other}/steal`)}\npath: items\npagination: {type: url, path: next}`;
    await expect(jsonRunner.run(stored(), query, ctx)).rejects.toThrow(
      `Accepting only relative URLs to '${api}' (the pagination link leads to ${other}).`,
    );
    expect(apiSeen.map((s) => s.auth)).toEqual([secret]);
    expect(otherSeen).toEqual([]);
  });

  it("sends no stored credentials when base_url is not set", async () => {
    const options = { username: "svc", password: "s3cret" };
    expect(await rows(options, `url: ${other}/steal\npath: items`)).toEqual([["/steal"]]);
    expect(otherSeen).toEqual([{ path: "/steal", auth: undefined }]);
    // An endpoint that needs them says why they were not sent.
    await expect(jsonRunner.run(options, `url: ${other}/secured`, ctx)).rejects.toThrow(
      "Endpoint returned unexpected status code (401). The data source's username and password are sent only to its Base URL, and none is set.",
    );
  });

  it("drops the query's own auth when a pagination link leaves its origin", async () => {
    const query = `url: ${api}/first?next=${encodeURIComponent(`${other}/next`)}\npath: items\nauth: [me, mine]\npagination: {type: url, path: next}`;
    expect(await rows({}, query)).toEqual([["/first"], ["/next"]]);
    expect(apiSeen.map((s) => s.auth)).toEqual([
      `Basic ${Buffer.from("me:mine").toString("base64")}`,
    ]);
    expect(otherSeen.map((s) => s.auth)).toEqual([undefined]);
  });
});
