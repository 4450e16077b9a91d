import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metadataDatabases } from "../testing/services";
import { startTestServer, type TestServer } from "../testing/testServer";
import { createDataSource, ownApiKey, setUpAndLogin, type TestClient } from "../testing/httpClient";

const DATABASES = await metadataDatabases();

/** JSON nested `depth` levels deep: {"a":{"a":...{}}}. */
function nested(depth: number): string {
  return '{"a":'.repeat(depth - 1) + "{}" + "}".repeat(depth - 1);
}

/**
 * Input every route gets checked at the HTTP edge, before any route or database sees it: nesting
 * depth of JSON bodies, NUL characters anywhere, and paths with repeated slashes.
 */
describe.each(DATABASES)("input checks at the HTTP edge on %s", (dbKind) => {
  let server: TestServer;
  let admin: TestClient;
  let apiKey: string;
  let dataSourceId: number;
  let queryId: number;

  /** A script's call with the user's API key. */
  const script = async (method: string, path: string, body?: string) => {
    const res = await fetch(server.url + path, {
      method,
      body,
      headers: { authorization: `Key ${apiKey}`, "content-type": "application/json" },
    });
    const text = await res.text();
    return {
      status: res.status,
      type: res.headers.get("content-type") ?? "",
      body: (res.headers.get("content-type") ?? "").includes("json") ? JSON.parse(text) : text,
    };
  };

  beforeAll(async () => {
    server = await startTestServer(dbKind);
    admin = await setUpAndLogin(server.url);
    apiKey = await ownApiKey(admin);
    dataSourceId = await createDataSource(admin, "Scratch", "duckdb", { dbpath: ":memory:" });
    const query = await admin.post("/api/queries", {
      name: "Base",
      query: "SELECT 1",
      data_source_id: dataSourceId,
    });
    queryId = query.body.id;
  });
  afterAll(async () => {
    await server?.close();
  });

  it("refuses deeply nested JSON with a 400 and stores nothing", async () => {
    const before = (await admin.get("/api/queries")).body.count;
    const deep = nested(20_000);
    const asQuery = await script(
      "POST",
      "/api/queries",
      `{"name":"Deep","query":"SELECT 1","data_source_id":${dataSourceId},"options":${deep}}`,
    );
    expect(asQuery.status).toBe(400);
    expect(asQuery.body.message).toMatch(/nested too deeply/);
    const asVisualization = await script(
      "POST",
      "/api/visualizations",
      `{"query_id":${queryId},"type":"TABLE","name":"Deep","options":${deep}}`,
    );
    expect(asVisualization.status).toBe(400);
    expect(asVisualization.body.message).toMatch(/nested too deeply/);
    // Arrays count as levels too.
    const arrays = await script("POST", "/api/queries/format", "[".repeat(5000) + "]".repeat(5000));
    expect(arrays.status).toBe(400);
    expect((await admin.get("/api/queries")).body.count).toBe(before);

    // Ordinary nesting is fine.
    const ok = await script(
      "POST",
      "/api/visualizations",
      `{"query_id":${queryId},"type":"TABLE","name":"Nested","options":${nested(30)}}`,
    );
    expect(ok.status).toBe(200);
  });

  it("refuses NUL characters in bodies, query strings and paths with a 400", async () => {
    const before = (await admin.get("/api/queries")).body.count;
    for (const fields of [{ name: "a\u0000b" }, { query: "SELECT 1 -- \u0000" }]) {
      const res = await admin.post("/api/queries", {
        name: "Fine",
        query: "SELECT 1",
        data_source_id: dataSourceId,
        ...fields,
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/NUL character/);
    }
    // In an object key, deep inside options.
    const inKey = await admin.post(`/api/queries/${queryId}`, {
      options: { parameters: [{ ["x\u0000"]: 1 }] },
    });
    expect(inKey.status).toBe(400);
    expect((await admin.get("/api/queries")).body.count).toBe(before);

    const snippet = await admin.post("/api/query_snippets", {
      trigger: "t\u0000",
      snippet: "SELECT 1",
      description: "",
    });
    expect(snippet.status).toBe(400);
    expect(snippet.body.message).toMatch(/NUL character/);

    for (const path of [
      "/api/users?q=%00",
      "/api/queries?q=a%00b",
      "/api/queries?api_key=%00",
      "/api/queries/search?q=%00",
      "/public/dashboards/abc%00",
      "/api/dashboards/public/abc%00",
    ]) {
      const res = await admin.get(path);
      expect(res.status, path).toBe(400);
      expect(res.body.message, path).toMatch(/NUL character/);
    }
    // The sign-in form too.
    const login = await admin.submitForm("/login", { email: "a\u0000@example.com", password: "x" });
    expect(login.status).toBe(400);
  });

  it("routes API paths with repeated slashes to the API", async () => {
    // A client whose base URL ends in "/" asks for //api/queries.
    const list = await script("GET", "//api/queries");
    expect(list.status).toBe(200);
    expect(list.type).toContain("application/json");
    expect(list.body.count).toBeGreaterThan(0);
    const one = await script("GET", `/api//queries//${queryId}`);
    expect(one.status).toBe(200);
    expect(one.body.id).toBe(queryId);
    const created = await script(
      "POST",
      "//api/queries",
      JSON.stringify({ name: "Slashes", query: "SELECT 3", data_source_id: dataSourceId }),
    );
    expect(created.status).toBe(200);
    expect(created.body.name).toBe("Slashes");
    // With the organisation's slug too.
    const prefixed = await script("GET", "//default//api/queries");
    expect(prefixed.status).toBe(200);
    expect(prefixed.body.count).toBeGreaterThan(0);
    // An unknown API path is still the API's JSON 404, not the web app.
    const unknown = await script("GET", "//api/no_such_thing");
    expect(unknown.status).toBe(404);
    expect(unknown.type).toContain("application/json");
  });
});
