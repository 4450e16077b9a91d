import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config";
import { freePort } from "../testing/processes";
import { metadataDatabases } from "../testing/services";
import { startTestServer, type TestServer } from "../testing/testServer";
import { startBackgroundMetrics } from "./backgroundServer";

// /metrics guarded by the trusted-proxy rule (SIGHTLINE_METRICS_FROM_TRUSTED_PROXIES) instead of,
// or beside, the token: served to a connection from a trusted address asking directly, refused
// to anyone else and to requests a proxy relayed (X-Forwarded-For).

const DATABASES = await metadataDatabases();
const TOKEN = "metrics-token-0123456789abcdef";

async function get(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers });
  return { status: response.status, text: await response.text() };
}

describe.each(DATABASES)("/metrics by the trusted-proxy rule on %s", (db) => {
  const servers: TestServer[] = [];
  const start = async (env: Record<string, string>) => {
    const server = await startTestServer(db, env);
    servers.push(server);
    return server;
  };
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
  });

  it("serves a trusted address asking directly, without a token", async () => {
    const server = await start({ SIGHTLINE_METRICS_FROM_TRUSTED_PROXIES: "true" });
    const scrape = await get(`${server.url}/metrics`);
    expect(scrape.status).toBe(200);
    expect(scrape.text).toContain("sightline_http_requests_total");
    // Relayed by a proxy for someone else: refused, even from the proxy's address.
    const relayed = await get(`${server.url}/metrics`, { "x-forwarded-for": "203.0.113.9" });
    expect(relayed.status).toBe(403);
    expect(JSON.parse(relayed.text).message).toBe(
      "Metrics are served only to the addresses in SIGHTLINE_TRUSTED_PROXIES, asking directly.",
    );
    // A token nobody set opens nothing.
    const withToken = await get(`${server.url}/metrics`, {
      authorization: `Bearer ${TOKEN}`,
      "x-forwarded-for": "203.0.113.9",
    });
    expect(withToken.status).toBe(403);
  });

  it("refuses an address not listed; the token still works beside the rule", async () => {
    const server = await start({
      SIGHTLINE_METRICS_FROM_TRUSTED_PROXIES: "true",
      SIGHTLINE_TRUSTED_PROXIES: "10.0.0.0/8",
      SIGHTLINE_METRICS_TOKEN: TOKEN,
    });
    const untrusted = await get(`${server.url}/metrics`);
    expect(untrusted.status).toBe(401);
    expect(JSON.parse(untrusted.text).message).toMatch(/SIGHTLINE_METRICS_TOKEN/);
    const byToken = await get(`${server.url}/metrics`, { authorization: `Bearer ${TOKEN}` });
    expect(byToken.status).toBe(200);
  });

  it("stays off by default: a trusted address gets 404", async () => {
    const server = await start({});
    expect((await get(`${server.url}/metrics`)).status).toBe(404);
  });
});

describe("SIGHTLINE_METRICS_FROM_TRUSTED_PROXIES", () => {
  it("is off by default and needs trusted proxies", () => {
    expect(loadConfig({}).metricsFromTrustedProxies).toBe(false);
    expect(loadConfig({ SIGHTLINE_METRICS_FROM_TRUSTED_PROXIES: "true" })).toMatchObject({
      metricsFromTrustedProxies: true,
      trustedProxies: ["127.0.0.1", "::1"],
    });
    expect(() =>
      loadConfig({
        SIGHTLINE_METRICS_FROM_TRUSTED_PROXIES: "true",
        SIGHTLINE_TRUSTED_PROXIES: "none",
      }),
    ).toThrow(/SIGHTLINE_METRICS_FROM_TRUSTED_PROXIES needs SIGHTLINE_TRUSTED_PROXIES/);
  });

  it("lets a worker's metrics port serve by the rule alone", async () => {
    const port = await freePort();
    const config = loadConfig({
      SIGHTLINE_METRICS_FROM_TRUSTED_PROXIES: "true",
      SIGHTLINE_METRICS_PORT: String(port),
    });
    const app = await startBackgroundMetrics({ ...config, host: "127.0.0.1" });
    try {
      expect(app).not.toBeNull();
      const scrape = await get(`http://127.0.0.1:${port}/metrics`);
      expect(scrape.status).toBe(200);
      expect(scrape.text).toContain("process_cpu_user_seconds_total");
    } finally {
      await app?.close();
    }
    // Neither the rule nor a token: no metrics server at all.
    expect(await startBackgroundMetrics({ ...loadConfig({}), metricsPort: port })).toBeNull();
  });
});
