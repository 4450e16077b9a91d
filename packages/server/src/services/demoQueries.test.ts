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
      "Demo: Latest orders",
      "Demo: Orders by country",
      "Demo: Orders by status",
      "Demo: Orders from a city",
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
      ["CHART", "TABLE"],
      ["COUNTER", "TABLE"],
      ["TABLE"],
      ["TABLE"],
    ]);
  });

  it("links the latest orders' cities to the orders of the city clicked (a drill-down)", async () => {
    const queries = await demoQueries();
    const target = queries.find((q) => q.name === "Demo: Orders from a city")!;
    const latest = queries.find((q) => q.name === "Demo: Latest orders")!;
    const full = await admin.get<{
      visualizations: { type: string; options: { columns?: Record<string, unknown>[] } }[];
    }>(`/api/queries/${latest.id}`);
    expect(full.body.visualizations[0]!.options.columns).toEqual([
      {
        name: "city",
        displayAs: "link",
        linkTextTemplate: "{{ @ }}",
        drillDown: {
          target: { type: "query", id: target.id, name: "Demo: Orders from a city" },
          parameters: { city: { column: "city", type: "enum" } },
          newTab: false,
        },
      },
    ]);
    const city = await admin.get<{
      options: { parameters: { name: string; enumOptions: string; value: string }[] };
    }>(`/api/queries/${target.id}`);
    const [parameter] = city.body.options.parameters;
    expect(parameter).toMatchObject({ name: "city", value: "Paris" });
    expect(parameter!.enumOptions.split("\n")).toEqual(
      expect.arrayContaining(["Paris", "Rome", "São Paulo", "Tokyo"]),
    );
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

    // The tables the Demo dashboard cross-filters carry the country (and the status).
    const columnsOf = async (name: string) => {
      const query = (await demoQueries()).find((q) => q.name === name)!;
      const res = await admin.get<{
        query_result: { data: { columns: { name: string }[]; rows: unknown[] } };
      }>(`/api/query_results/${query.latest_query_data_id}`);
      return {
        columns: res.body.query_result.data.columns.map((c) => c.name),
        rows: res.body.query_result.data.rows.length,
      };
    };
    expect(await columnsOf("Demo: Orders by status")).toMatchObject({
      columns: ["country", "status", "orders"],
    });
    const latest = await columnsOf("Demo: Latest orders");
    expect(latest.columns).toEqual(["ordered_at", "customer", "country", "city", "status"]);
    expect(latest.rows).toBe(200);
    expect((await columnsOf("Demo: Orders from a city")).rows).toBeGreaterThan(0);
    // Generating the data may take a while on a loaded machine.
  }, 120_000);
});
