import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOutboundClient } from "../outbound/client";
import { jsonRunner, parseJsonQuery } from "./json";
import { abortAfter, runAll, testContext, timeRejection } from "./testSupport";
import { SchemaNotSupportedError } from "./types";

let server: http.Server;
let base: string;
const seen: { url: string; auth?: string; body: string; method?: string }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      seen.push({ url: req.url ?? "", auth: req.headers.authorization, body, method: req.method });
      const url = new URL(req.url ?? "/", "http://x");
      res.setHeader("content-type", "application/json");
      if (url.pathname === "/users") {
        return res.end(
          JSON.stringify({
            data: {
              users: [
                {
                  id: 1,
                  name: "Ada",
                  score: 9.5,
                  admin: true,
                  address: { city: "London", zip: "N1" },
                  tags: ["a"],
                },
                { id: 2, name: "Grace", score: 7, admin: false, address: { city: "NYC" } },
              ],
            },
          }),
        );
      }
      if (url.pathname === "/pages") {
        const page = Number(url.searchParams.get("page_token") ?? "0");
        return res.end(
          JSON.stringify({
            items: [{ n: page }],
            next_page_token: page < 2 ? String(page + 1) : "",
          }),
        );
      }
      if (url.pathname === "/echo") return res.end(JSON.stringify({ method: req.method, body }));
      if (url.pathname === "/slow") return void setTimeout(() => res.end("[]"), 5000);
      res.statusCode = 404;
      res.end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const allowed = testContext({ outbound: createOutboundClient({ allowedRanges: ["127.0.0.0/8"] }) });

describe("json runner", () => {
  it("fetches, follows the path and flattens nested objects", async () => {
    const { columns, rows } = await runAll(
      jsonRunner.run({}, `url: ${base}/users\npath: data.users`, allowed),
    );
    expect(columns.map((c) => [c.name, c.type])).toEqual([
      ["id", "integer"],
      ["name", "string"],
      ["score", "float"],
      ["admin", "boolean"],
      ["address.city", "string"],
      ["address.zip", "string"],
      ["tags", "string"],
    ]);
    expect(rows).toEqual([
      [1, "Ada", 9.5, true, "London", "N1", '["a"]'],
      [2, "Grace", 7, false, "NYC", null, null],
    ]);
  });

  it("keeps only the listed fields, in their order, and uses the base URL and basic auth", async () => {
    seen.length = 0;
    const { columns, rows } = await runAll(
      jsonRunner.run(
        { base_url: base, username: "u", password: "p" },
        '{"url": "/users", "path": "data.users", "fields": ["address.city", "id"], "params": {"q": "x"}}',
        allowed,
      ),
    );
    expect(columns.map((c) => c.name)).toEqual(["address.city", "id"]);
    expect(rows).toEqual([
      ["London", 1],
      ["NYC", 2],
    ]);
    expect(seen[0]).toMatchObject({
      url: "/users?q=x",
      auth: `Basic ${Buffer.from("u:p").toString("base64")}`,
    });
  });

  it("posts JSON bodies and follows token pagination", async () => {
    const posted = await runAll(
      jsonRunner.run({}, `url: ${base}/echo\nmethod: post\njson: {a: 1}`, allowed),
    );
    expect(posted.rows).toEqual([["POST", '{"a":1}']]);
    const pages = await runAll(
      jsonRunner.run({}, `url: ${base}/pages\npath: items\npagination: {type: token}`, allowed),
    );
    expect(pages.rows).toEqual([[0], [1], [2]]);
  });

  it("refuses internal addresses unless their range is allowed", async () => {
    await expect(jsonRunner.run({}, `url: ${base}/users`, testContext())).rejects.toThrow(
      "Refusing to connect to 127.0.0.1: loopback addresses are not allowed",
    );
    await expect(
      jsonRunner.run({}, "url: http://169.254.169.254/latest/meta-data/", allowed),
    ).rejects.toThrow("link-local addresses are not allowed");
  });

  it("reports query and endpoint errors like Redash", async () => {
    await expect(jsonRunner.run({}, "  ", allowed)).rejects.toThrow("Query is empty.");
    await expect(jsonRunner.run({}, "- a", allowed)).rejects.toThrow(
      "Query should be a YAML object describing the URL to query.",
    );
    await expect(jsonRunner.run({}, "method: get", allowed)).rejects.toThrow(
      "Query must include 'url' option.",
    );
    await expect(jsonRunner.run({}, `url: ${base}/x\nmethod: delete`, allowed)).rejects.toThrow(
      "Only GET or POST methods are allowed.",
    );
    await expect(jsonRunner.run({}, `url: ${base}/missing`, allowed)).rejects.toThrow(
      "Endpoint returned unexpected status code (404).",
    );
    await expect(jsonRunner.run({}, `url: ${base}/users\npath: nope`, allowed)).rejects.toThrow(
      "Couldn't find path nope in response.",
    );
    expect(() => parseJsonQuery("url: x\nfields: a")).toThrow("'fields' needs to be a list.");
  });

  it("can be cancelled", async () => {
    const { error, ms } = await timeRejection(
      jsonRunner.run({}, `url: ${base}/slow`, { ...allowed, signal: abortAfter(200) }),
    );
    expect(error.message).toBe("Query cancelled by user.");
    expect(ms).toBeLessThan(2000);
  });

  it("has no schema", async () => {
    await expect(jsonRunner.getSchema({}, allowed)).rejects.toBeInstanceOf(SchemaNotSupportedError);
  });
});
