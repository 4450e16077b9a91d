import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SilentServer } from "../testing/silentServer";
import { refusalReason } from "./addressPolicy";
import { createOutboundClient, OutboundError } from "./client";

let server: http.Server;
let base: string;
let hits: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url} auth=${req.headers.authorization ?? "-"}`);
    if (req.url === "/data") {
      res.setHeader("content-type", "application/json");
      return res.end(JSON.stringify({ ok: true }));
    }
    if (req.url?.startsWith("/redirect/")) {
      const left = Number(req.url.split("/")[2]);
      res.writeHead(302, { location: left > 0 ? `/redirect/${left - 1}` : "/data" });
      return res.end();
    }
    if (req.url === "/to-metadata") {
      res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" });
      return res.end();
    }
    if (req.url === "/post-redirect") {
      res.writeHead(303, { location: "/data" });
      return res.end();
    }
    if (req.url === "/big") {
      res.setHeader("content-type", "text/plain");
      return res.end("x".repeat(5000));
    }
    if (req.url === "/stalled-body") {
      res.writeHead(200, { "content-type": "text/plain" });
      res.write("half of it");
      return;
    }
    if (req.url === "/slow") {
      setTimeout(() => res.end("late"), 3000);
      return;
    }
    res.statusCode = 404;
    res.end("not found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("address policy", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["10.1.2.3", "private"],
    ["172.20.0.1", "private"],
    ["192.168.1.1", "private"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["169.254.169.254", "link-local"],
    ["0.0.0.0", "unspecified"],
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["fe80::1", "link-local"],
    ["fd12:3456::1", "unique-local"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:a9fe:a9fe", "link-local"],
  ])("refuses %s (%s)", (address, label) => {
    expect(refusalReason(address, null)).toBe(
      `Refusing to connect to ${address}: ${label} addresses are not allowed`,
    );
  });

  it.each(["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "93.184.216.34"])(
    "allows %s",
    (address) => {
      expect(refusalReason(address, null)).toBeNull();
    },
  );
});

describe("outbound client", () => {
  const strict = createOutboundClient();
  const loopbackAllowed = createOutboundClient({ allowedRanges: ["127.0.0.0/8"] });

  it("refuses loopback, private, metadata and IPv6 loopback addresses", async () => {
    await expect(strict.request(`${base}/data`)).rejects.toThrow(
      "Refusing to connect to 127.0.0.1: loopback addresses are not allowed",
    );
    await expect(strict.request("http://10.0.0.1/")).rejects.toThrow(
      "Refusing to connect to 10.0.0.1: private addresses are not allowed",
    );
    await expect(strict.request("http://169.254.169.254/latest/meta-data/")).rejects.toThrow(
      "link-local addresses are not allowed",
    );
    await expect(strict.request("http://[::1]:80/")).rejects.toThrow(
      "Refusing to connect to ::1: loopback addresses are not allowed",
    );
    expect(hits).toEqual([]);
  });

  it("refuses a hostname that resolves to loopback (checked on the resolved address)", async () => {
    const port = (server.address() as AddressInfo).port;
    await expect(strict.request(`http://localhost:${port}/data`)).rejects.toThrow(
      /Refusing to connect to (127\.0\.0\.1|::1): loopback addresses are not allowed/,
    );
    expect(hits).toEqual([]);
  });

  it("refuses other protocols", async () => {
    await expect(strict.request("file:///etc/passwd")).rejects.toThrow(
      "Only http and https URLs are allowed (got file).",
    );
    await expect(strict.request("ftp://example.com/")).rejects.toBeInstanceOf(OutboundError);
  });

  it("fetches from an allowed range and follows redirects", async () => {
    hits = [];
    const response = await loopbackAllowed.request(`${base}/redirect/3`);
    expect(response.status).toBe(200);
    expect(response.json()).toEqual({ ok: true });
    expect(response.url).toBe(`${base}/data`);
    expect(hits).toHaveLength(5);
  });

  it("stops after 5 redirects", async () => {
    await expect(loopbackAllowed.request(`${base}/redirect/9`)).rejects.toThrow(
      "Too many redirects (more than 5).",
    );
  });

  it("checks every redirect target", async () => {
    await expect(loopbackAllowed.request(`${base}/to-metadata`)).rejects.toThrow(
      "Refusing to connect to 169.254.169.254: link-local addresses are not allowed",
    );
  });

  it("refuses a redirect to loopback when loopback is not allowed", async () => {
    // The public side cannot be simulated offline, so allow only the exact test address
    // and redirect to a different loopback address.
    const port = (server.address() as AddressInfo).port;
    const onlyFirst = createOutboundClient({ allowedRanges: ["127.0.0.1/32"] });
    const redirecting = http.createServer((_req, res) => {
      res.writeHead(302, { location: `http://127.0.0.2:${port}/data` });
      res.end();
    });
    await new Promise<void>((resolve) => redirecting.listen(0, "127.0.0.1", resolve));
    const redirectPort = (redirecting.address() as AddressInfo).port;
    try {
      await expect(onlyFirst.request(`http://127.0.0.1:${redirectPort}/`)).rejects.toThrow(
        "Refusing to connect to 127.0.0.2: loopback addresses are not allowed",
      );
    } finally {
      redirecting.closeAllConnections();
      await new Promise((resolve) => redirecting.close(resolve));
    }
  });

  it("turns a POST into a GET on 303 and keeps credentials on the same origin", async () => {
    hits = [];
    const response = await loopbackAllowed.request(`${base}/post-redirect`, {
      method: "POST",
      body: "{}",
      headers: { Authorization: "Basic abc" },
    });
    expect(response.status).toBe(200);
    expect(hits).toEqual(["POST /post-redirect auth=Basic abc", "GET /data auth=Basic abc"]);
  });

  it("caps the response size", async () => {
    await expect(
      loopbackAllowed.request(`${base}/big`, { maxResponseBytes: 1000 }),
    ).rejects.toThrow("is larger than the limit of 1 KB");
    const ok = await loopbackAllowed.request(`${base}/big`, { maxResponseBytes: 10_000 });
    expect(ok.text()).toHaveLength(5000);
  });

  it("times out", async () => {
    const started = Date.now();
    await expect(loopbackAllowed.request(`${base}/slow`, { timeoutMs: 300 })).rejects.toThrow(
      "timed out after 0.3 s",
    );
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("times out while the body is still arriving", async () => {
    await expect(
      loopbackAllowed.request(`${base}/stalled-body`, { timeoutMs: 300 }),
    ).rejects.toThrow("timed out after 0.3 s");
  });

  it("ends when the caller's signal aborts, and the time-out then stays quiet", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await expect(
      loopbackAllowed.request(`${base}/slow`, { signal: controller.signal, timeoutMs: 5000 }),
    ).rejects.toThrow("was cancelled");
    const aborted = AbortSignal.abort();
    await expect(loopbackAllowed.request(`${base}/data`, { signal: aborted })).rejects.toThrow(
      "was cancelled",
    );
  });

  it("gives up an https:// handshake that a plain port never answers, naming why", async () => {
    const silent = await new SilentServer().start();
    const client = createOutboundClient({ allowedRanges: ["127.0.0.0/8"], tlsHandshakeMs: 300 });
    const started = Date.now();
    try {
      await expect(client.request(`https://127.0.0.1:${silent.port}/data`)).rejects.toThrow(
        `Request to 127.0.0.1:${silent.port} failed: TLS handshake with 127.0.0.1:${silent.port} did not complete within 0.3 s: is the server speaking HTTPS on this port?`,
      );
      expect(Date.now() - started).toBeLessThan(3000);
      expect(await silent.allClosed()).toBe(true);
    } finally {
      await silent.close();
    }
  });

  it("rejects an invalid allowed range", () => {
    expect(() => createOutboundClient({ allowedRanges: ["nope/8"] })).toThrow(
      "Invalid address range: nope/8",
    );
  });
});
