import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metadataDatabases } from "../testing/services";
import { startTestServer, type TestServer } from "../testing/testServer";
import { setUpAndLogin, type TestClient } from "../testing/httpClient";

// First-run setup gives a newcomer working examples on the Demo data: published queries with a
// chart or counter, on the admin's home page as favorites, with their first results in.

const DATABASES = await metadataDatabases();

interface ListedQuery {
  id: number;
  name: string;
  is_draft: boolean;
  tags: string[];
  latest_query_data_id: number | null;
}

describe.each(DATABASES)("demo queries after setup on %s", (db) => {
  let server: TestServer;
  let admin: TestClient;

  beforeAll(async () => {
    server = await startTestServer(db);
    admin = await setUpAndLogin(server.url);
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  const demoQueries = async () =>
    (await admin.get<{ results: ListedQuery[] }>("/api/queries?tags=demo")).body.results;

  it("creates published demo queries with a chart or counter first, as favorites", async () => {
    const queries = await demoQueries();
    expect(queries.map((q) => q.name).sort()).toEqual([
      "Demo: Customers",
      "Demo: Orders by country",
      "Demo: Orders per day",
      "Demo: Orders per month",
    ]);
    for (const query of queries) expect(query.is_draft).toBe(false);
    const favorites = (await admin.get<{ results: ListedQuery[] }>("/api/queries/favorites")).body;
    expect(favorites.results.map((q) => q.id).sort()).toEqual(queries.map((q) => q.id).sort());

    const types: string[][] = [];
    for (const query of queries) {
      const full = await admin.get<{ description: string; visualizations: { type: string }[] }>(
        `/api/queries/${query.id}`,
      );
      expect(full.body.description).toContain("Demo data: an online shop");
      types.push(full.body.visualizations.map((v) => v.type));
    }
    expect(types.sort()).toEqual([
      ["CHART", "TABLE"],
      ["CHART", "TABLE"],
      ["CHART", "TABLE"],
      ["COUNTER", "TABLE"],
    ]);
  });

  it("runs them once the Demo data is ready, so they open with a result", async () => {
    await expect
      .poll(async () => (await demoQueries()).every((q) => q.latest_query_data_id !== null), {
        timeout: 90_000,
        interval: 500,
      })
      .toBe(true);
    const customers = (await demoQueries()).find((q) => q.name === "Demo: Customers")!;
    const result = await admin.get<{ query_result: { data: { rows: { customers: number }[] } } }>(
      `/api/query_results/${customers.latest_query_data_id}`,
    );
    expect(result.body.query_result.data.rows).toEqual([{ customers: 50_000 }]);
    // Generating the data may take a while on a loaded machine.
  }, 120_000);
});
