import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metadataDatabases } from "../testing/services";
import { startTestServer, type TestServer } from "../testing/testServer";
import { createDataSource, ownApiKey, setUpAndLogin, type TestClient } from "../testing/httpClient";
import { GENERIC_MESSAGES } from "./errors";

const DATABASES = await metadataDatabases();

/**
 * Request bodies as Redash reads them (api-queries.md §1.1), sent the way scripts send them: with
 * a user API key and whatever Content-Type their HTTP library picks.
 */
describe.each(DATABASES)("request bodies and methods on %s", (dbKind) => {
  let server: TestServer;
  let admin: TestClient;
  let apiKey: string;
  let dataSourceId: number;

  /** A script's request: the user's API key, the body as given, and only the headers given. */
  const script = (method: string, path: string, body?: string, headers = {}) =>
    fetch(server.url + path, {
      method,
      body,
      headers: { authorization: `Key ${apiKey}`, ...headers },
    }).then(async (res) => ({
      status: res.status,
      headers: res.headers,
      body: (await res.json()) as any,
    }));

  beforeAll(async () => {
    server = await startTestServer(dbKind);
    admin = await setUpAndLogin(server.url);
    apiKey = await ownApiKey(admin);
    dataSourceId = await createDataSource(admin, "Scratch", "duckdb", { dbpath: ":memory:" });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("reads /api bodies as JSON whatever their Content-Type", async () => {
    const query = { name: "From a script", query: "SELECT 1", data_source_id: dataSourceId };
    // Python's requests with data=json.dumps(...): no Content-Type at all.
    const untyped = await script("POST", "/api/queries", JSON.stringify(query));
    expect(untyped.status).toBe(200);
    expect(untyped.body).toMatchObject({ name: "From a script", query: "SELECT 1" });
    // curl -d sends the form type.
    const form = await script("POST", "/api/queries/format", '{"query": "select a from b"}', {
      "content-type": "application/x-www-form-urlencoded",
    });
    expect(form.status).toBe(200);
    expect(form.body.query).toMatch(/^SELECT\s+a\s+FROM\s+b$/i);
    const plain = await script(
      "POST",
      "/api/query_results",
      JSON.stringify({ ...query, max_age: 0 }),
      {
        "content-type": "text/plain; charset=utf-8",
      },
    );
    expect(plain.status).toBe(200);
    expect(plain.body.query_result ?? plain.body.job).toBeTruthy();
  });

  it("refuses malformed JSON with a 400 and changes nothing", async () => {
    const before = (await admin.get("/api/queries")).body.count;
    for (const type of [undefined, "application/json", "application/x-www-form-urlencoded"]) {
      const res = await script(
        "POST",
        "/api/queries",
        '{"name": "half',
        type ? { "content-type": type } : {},
      );
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: "The request body is not valid JSON." });
    }
    expect((await admin.get("/api/queries")).body.count).toBe(before);
  });

  it("lets a saved query's run and the pause route read a malformed body as none", async () => {
    const query = await admin.post("/api/queries", {
      name: "Lenient",
      query: "SELECT 2 AS two",
      data_source_id: dataSourceId,
    });
    const run = await script("POST", `/api/queries/${query.body.id}/results`, "not json", {
      "content-type": "application/json",
    });
    expect(run.status).toBe(200);
    expect(run.body.query_result ?? run.body.job).toBeTruthy();

    const paused = await script(
      "POST",
      `/api/data_sources/${dataSourceId}/pause?reason=zz`,
      "garbage",
      {
        "content-type": "application/json",
      },
    );
    expect(paused.status).toBe(200);
    expect(paused.body).toMatchObject({ paused: 1, pause_reason: "zz" });
    expect((await admin.delete(`/api/data_sources/${dataSourceId}/pause`)).status).toBe(200);
  });

  it("still reads the sign-in pages' forms, and refuses other types there", async () => {
    const res = await fetch(`${server.url}/login`, {
      method: "POST",
      body: "email=a@example.com&password=x",
      headers: { "content-type": "text/plain" },
      redirect: "manual",
    });
    expect(res.status).toBe(415);
    expect(((await res.json()) as { message: string }).message).toContain("Unsupported Media Type");
  });

  it("answers 405 with Allow when the path exists under other methods", async () => {
    const put = await script("PUT", "/api/queries", "{}", { "content-type": "application/json" });
    expect(put.status).toBe(405);
    expect(put.body).toEqual({ message: GENERIC_MESSAGES[405] });
    expect(put.headers.get("allow")?.split(", ").sort()).toEqual(["GET", "HEAD", "POST"]);

    const patch = await script("PATCH", `/api/data_sources/${dataSourceId}`);
    expect(patch.status).toBe(405);
    expect(patch.headers.get("allow")?.split(", ")).toEqual(
      expect.arrayContaining(["GET", "POST", "DELETE"]),
    );
    // Without authentication too: the method is wrong whoever asks.
    const anonymous = await fetch(`${server.url}/api/query_results`);
    expect(anonymous.status).toBe(405);
    expect(anonymous.headers.get("allow")).toBe("POST");
    // A path that exists under no method stays a 404.
    const unknown = await script("PUT", "/api/no_such_thing");
    expect(unknown.status).toBe(404);
  });
});
