import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metadataDatabases } from "../testing/services";
import { startTestServer, type TestServer } from "../testing/testServer";
import { setUpAndLogin, type TestClient } from "../testing/httpClient";

const DATABASES = await metadataDatabases();

/** Pages and API calls of every kind the policy tells apart. */
const APP_ADDRESSES = [
  "/",
  "/queries/1",
  "/api/session",
  "/login",
  "/public/dashboards/no-such-key",
  "/embed/query/1/visualization/1",
  "/docs/",
];
const SANDBOX = "/sandbox/custom-chart.html";

/**
 * The Content-Security-Policy: forms submit only to the app (a form slipped into a page cannot
 * post a password elsewhere), and no page may evaluate code except the custom chart sandbox, and
 * that only where custom JavaScript visualizations are switched on.
 */
describe.each(DATABASES)("Content-Security-Policy on %s", (dbKind) => {
  const servers: TestServer[] = [];
  let admin: TestClient;
  let allowing: TestClient;

  beforeAll(async () => {
    servers.push(await startTestServer(dbKind));
    admin = await setUpAndLogin(servers[0]!.url);
    servers.push(
      await startTestServer(dbKind, { SIGHTLINE_ALLOW_CUSTOM_JS_VISUALIZATIONS: "true" }),
    );
    allowing = await setUpAndLogin(servers[1]!.url);
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
  });

  const policy = async (client: TestClient, address: string) => {
    const res = await client.get(address);
    const csp = res.headers.get("content-security-policy");
    expect(csp, address).toBeTruthy();
    return csp!;
  };

  it("lets forms submit only to the app and evaluates no code, custom charts off", async () => {
    for (const address of APP_ADDRESSES) {
      const csp = await policy(admin, address);
      expect(csp, address).toContain("form-action 'self'");
      expect(csp, address).not.toContain("unsafe-eval");
    }
    const sandbox = await policy(admin, SANDBOX);
    expect(sandbox).not.toContain("unsafe-eval");
    expect(sandbox).toContain("form-action 'none'");
    expect(sandbox).toContain("default-src 'none'");
  });

  it("allows eval only in the custom chart sandbox when custom charts are on", async () => {
    for (const address of APP_ADDRESSES) {
      const csp = await policy(allowing, address);
      expect(csp, address).toContain("form-action 'self'");
      expect(csp, address).not.toContain("unsafe-eval");
    }
    const sandbox = await policy(allowing, SANDBOX);
    expect(sandbox).toContain("script-src 'unsafe-inline' 'unsafe-eval'");
    expect(sandbox).toContain("default-src 'none'");
  });

  it("keeps who may frame which page", async () => {
    expect(await policy(admin, "/api/session")).toContain("frame-ancestors 'none'");
    expect(await policy(admin, "/public/dashboards/x")).toContain("frame-ancestors *");
    expect(await policy(admin, "/docs/")).toContain("frame-ancestors 'self'");
    expect(await policy(admin, SANDBOX)).toContain("frame-ancestors 'self'");
  });
});
