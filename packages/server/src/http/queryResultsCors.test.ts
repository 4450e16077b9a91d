import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setUpAndLogin, TestClient } from "../testing/httpClient";
import { startTestServer, type TestServer } from "../testing/testServer";

const ALLOWED = "https://app.example.com";

describe("CORS on the result routes (§4.5)", () => {
  let server: TestServer;
  let admin: TestClient;
  let resultId: number;
  let queryId: number;

  beforeAll(async () => {
    server = await startTestServer("sqlite", { SIGHTLINE_CORS_ORIGINS: ` ${ALLOWED} ,` });
    admin = await setUpAndLogin(server.url);
    const source = await admin.post("/api/data_sources", {
      name: "results",
      type: "results",
      options: {},
    });
    const query = await admin.post("/api/queries", {
      name: "one",
      data_source_id: source.body.id,
      query: "SELECT 1 AS one",
    });
    queryId = query.body.id;
    const run = await admin.post(`/api/queries/${queryId}/results`, {});
    expect(run.status).toBe(200);
    resultId = run.body.query_result.id;
  });

  afterAll(() => server?.close());

  const paths = () => [
    `/api/query_results/${resultId}`,
    `/api/query_results/${resultId}.csv`,
    `/api/queries/${queryId}/results`,
    `/api/queries/${queryId}/results.json`,
    `/api/queries/${queryId}/results/${resultId}.csv`,
  ];

  it("answers preflights without authentication for allowed origins only", async () => {
    const visitor = new TestClient(server.url);
    for (const path of paths()) {
      const res = await visitor.request("OPTIONS", path, { headers: { origin: ALLOWED } });
      expect(res.status, path).toBe(200);
      expect(res.text).toBe("");
      expect(res.headers.get("access-control-allow-origin")).toBe(ALLOWED);
      expect(res.headers.get("access-control-allow-credentials")).toBe("false");
      expect(res.headers.get("access-control-request-method")).toBe("GET, POST, PUT");
      expect(res.headers.get("access-control-allow-headers")).toBe("Content-Type");
    }
    const other = await visitor.request("OPTIONS", paths()[0]!, {
      headers: { origin: "https://evil.example.org" },
    });
    expect(other.status).toBe(200);
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("adds the headers to results for allowed origins, errors included", async () => {
    const ok = await admin.request("GET", paths()[0]!, { headers: { origin: ALLOWED } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("access-control-allow-origin")).toBe(ALLOWED);
    const plain = await admin.get(paths()[0]!);
    expect(plain.headers.get("access-control-allow-origin")).toBeNull();
    const denied = await new TestClient(server.url).request("GET", paths()[0]!, {
      headers: { origin: ALLOWED },
    });
    expect(denied.status).toBe(404);
    expect(denied.headers.get("access-control-allow-origin")).toBe(ALLOWED);
  });

  it("`*` allows any origin, echoed, with the credentials setting", async () => {
    server.ctx.config.corsOrigins = ["*"];
    server.ctx.config.corsAllowCredentials = true;
    try {
      const res = await admin.request("GET", paths()[2]!, {
        headers: { origin: "https://anywhere.example.net" },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get("access-control-allow-origin")).toBe("https://anywhere.example.net");
      expect(res.headers.get("access-control-allow-credentials")).toBe("true");
    } finally {
      server.ctx.config.corsOrigins = [ALLOWED];
      server.ctx.config.corsAllowCredentials = false;
    }
  });

  it("no origins configured: no CORS headers at all", async () => {
    server.ctx.config.corsOrigins = [];
    try {
      const res = await new TestClient(server.url).request("OPTIONS", paths()[0]!, {
        headers: { origin: ALLOWED },
      });
      expect(res.headers.get("access-control-allow-origin")).toBeNull();
    } finally {
      server.ctx.config.corsOrigins = [ALLOWED];
    }
  });
});
