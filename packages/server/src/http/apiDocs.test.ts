import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setUpAndLogin } from "../testing/httpClient";
import { startTestServer, type TestServer } from "../testing/testServer";

/**
 * The OpenAPI document at /api/docs is generated from the route schemas: every /api route must
 * declare its tags, summary and answers. The schemas only document, so the hand-written input
 * checks keep answering.
 */

interface Operation {
  tags?: string[];
  summary?: string;
  requestBody?: { content: Record<string, { schema: any }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: any }> }>;
}

/** What @fastify/swagger writes for a route without response schemas. */
const SWAGGER_DEFAULT_DESCRIPTION = "Default Response";

describe("API documentation", () => {
  let server: TestServer;
  let paths: Record<string, Record<string, Operation>>;

  beforeAll(async () => {
    server = await startTestServer();
    const res = await fetch(`${server.url}/api/docs/json`);
    expect(res.status).toBe(200);
    paths = ((await res.json()) as { paths: typeof paths }).paths;
  });

  afterAll(async () => {
    await server?.close();
  });

  const json = (content: Record<string, { schema: any }> | undefined) =>
    content?.["application/json"]?.schema;

  it("serves the docs page", async () => {
    const res = await fetch(`${server.url}/api/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
  });

  it("gives every /api route tags, a summary and a success answer", () => {
    const operations = Object.entries(paths)
      .filter(([path]) => path.startsWith("/api/"))
      .flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, op]) => ({ name: `${method} ${path}`, op })),
      );
    expect(operations.length).toBeGreaterThan(90);
    const undocumented = operations
      .filter(({ op }) => {
        const success = Object.entries(op.responses).filter(([status]) => /^[23]/.test(status));
        return (
          !op.tags?.length ||
          !op.summary ||
          success.length === 0 ||
          success.some(([, answer]) => answer.description === SWAGGER_DEFAULT_DESCRIPTION)
        );
      })
      .map(({ name }) => name);
    expect(undocumented).toEqual([]);
  });

  it("describes the body of POST /api/query_results", () => {
    const body = json(paths["/api/query_results"]!.post!.requestBody?.content);
    expect(Object.keys(body.properties)).toEqual(
      expect.arrayContaining(["query", "data_source_id", "max_age", "parameters"]),
    );
    expect(body.required).toEqual(expect.arrayContaining(["query", "data_source_id"]));
  });

  it("describes the query GET /api/queries/{id} answers, and its errors", () => {
    const op = paths["/api/queries/{id}"]!.get!;
    expect(op.tags).toEqual(["queries"]);
    const query = json(op.responses["200"]!.content);
    expect(query.properties).toMatchObject({
      id: { type: "integer" },
      name: { type: "string" },
      query: { type: "string" },
      version: { type: "integer" },
    });
    expect(query.additionalProperties).toBe(true);
    expect(json(op.responses["404"]!.content).properties).toEqual({ message: { type: "string" } });
  });

  it("leaves input checks to the routes", async () => {
    const admin = await setUpAndLogin(server.url);
    const res = await admin.post("/api/queries/format", { query: 5 });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: "query must be a string." });
  });
});
