import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import https from "node:https";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clickhouseRunner } from "./clickhouse";
import { prometheusRunner } from "./prometheus";
import { SilentServer } from "../testing/silentServer";
import { testContext } from "./testSupport";
import { TlsHandshakeAgent } from "../outbound/tlsHandshakeAgent";

/**
 * https:// to a server that is not speaking TLS: Debian's ClickHouse 18.16 takes the client's
 * hello as the start of a request and waits for more. The handshake has a limit of its own.
 */
const silent = new SilentServer();
let silentPort = 0;
let dir = "";

beforeAll(async () => {
  silentPort = (await silent.start()).port;
  dir = mkdtempSync(path.join(os.tmpdir(), "sightline-tls-"));
  execFileSync(
    "openssl",
    ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1"]
      .concat(["-addext", "subjectAltName=IP:127.0.0.1"])
      .concat(["-keyout", "key.pem", "-out", "cert.pem"]),
    { cwd: dir, stdio: "ignore" },
  );
});
afterAll(async () => {
  await silent.close();
  rmSync(dir, { recursive: true, force: true });
});

function get(url: string, agent: https.Agent): Promise<string> {
  return new Promise((resolve, reject) => {
    https
      .get(url, { agent, ca: readFileSync(path.join(dir, "cert.pem")) }, (res) => {
        let body = "";
        res.on("data", (chunk: Buffer) => (body += chunk.toString()));
        res.on("end", () => resolve(body));
      })
      .on("error", reject);
  });
}

describe("the TLS handshake limit", () => {
  it("gives up a handshake the server never answers, naming the likely cause", async () => {
    const started = Date.now();
    await expect(
      get(`https://127.0.0.1:${silentPort}/`, new TlsHandshakeAgent({}, 300)),
    ).rejects.toThrow(
      `TLS handshake with 127.0.0.1:${silentPort} did not complete within 0.3 s: is the server speaking HTTPS on this port?`,
    );
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await silent.allClosed()).toBe(true);
  });

  it("leaves a handshake that completes alone, however long the answer takes after it", async () => {
    const server = https.createServer(
      {
        key: readFileSync(path.join(dir, "key.pem")),
        cert: readFileSync(path.join(dir, "cert.pem")),
      },
      (_req, res) => setTimeout(() => res.end("late but fine"), 600),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      expect(await get(`https://127.0.0.1:${port}/`, new TlsHandshakeAgent({}, 300))).toBe(
        "late but fine",
      );
    } finally {
      server.close();
    }
  });

  it("ends ClickHouse's and Prometheus's connection tests with it, not the test's 30 s", async () => {
    const ctx = testContext({ timeoutMs: 30_000 });
    const url = `https://127.0.0.1:${silentPort}`;
    const started = Date.now();
    const [clickhouse, prometheus] = await Promise.allSettled([
      clickhouseRunner.test!({ url, dbname: "default" }, ctx),
      prometheusRunner.test!({ url }, ctx),
    ]);
    expect(Date.now() - started).toBeLessThan(15_000);
    const said = (result: PromiseSettledResult<unknown>) =>
      result.status === "rejected" ? String((result.reason as Error).message) : "answered";
    expect(said(clickhouse)).toBe(
      `TLS connection to ClickHouse at ${url} failed: TLS handshake with 127.0.0.1:${silentPort} did not complete within 10 s: is the server speaking HTTPS on this port?`,
    );
    expect(said(prometheus)).toContain(
      `TLS handshake with 127.0.0.1:${silentPort} did not complete within 10 s: is the server speaking HTTPS on this port?`,
    );
  }, 20_000);
});
