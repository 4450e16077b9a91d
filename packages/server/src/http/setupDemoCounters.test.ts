import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metadataDatabases } from "../testing/services";
import { startTestServer, type TestServer } from "../testing/testServer";
import { setUpAndLogin, type TestClient } from "../testing/httpClient";

const DATABASES = await metadataDatabases();

interface Status {
  object_counters: { queries: number; dashboards: number };
  demo_counters: { queries: number; dashboards: number };
}

/** The home page's welcome steps do not take setup's Demo objects for the user's own. */
describe.each(DATABASES)("setup's Demo objects in /api/organization/status on %s", (dbKind) => {
  let server: TestServer;
  let admin: TestClient;

  beforeAll(async () => {
    server = await startTestServer(dbKind);
    admin = await setUpAndLogin(server.url);
  });
  afterAll(async () => {
    await server?.close();
  });

  const status = async () => (await admin.get<Status>("/api/organization/status")).body;

  it("counts the demo queries and dashboard apart, until the user makes them their own", async () => {
    const first = await status();
    expect(first.demo_counters).toEqual({ queries: 7, dashboards: 1 });
    expect(first.object_counters).toMatchObject({ queries: 7, dashboards: 1 });

    // The user's own query and dashboard count; the demo ones still do not.
    const sources = (await admin.get<{ id: number; name: string }[]>("/api/data_sources")).body;
    const demo = sources.find((s) => s.name === "Demo")!;
    await admin.post("/api/queries", { name: "Mine", query: "SELECT 1", data_source_id: demo.id });
    await admin.post("/api/dashboards", { name: "Demo: Online shop" });
    const second = await status();
    expect(second.object_counters).toMatchObject({ queries: 8, dashboards: 2 });
    expect(second.demo_counters).toEqual({ queries: 7, dashboards: 1 });

    // A renamed demo query is the user's work.
    const queries = (await admin.get<{ results: { id: number; name: string }[] }>("/api/queries"))
      .body.results;
    const demoQuery = queries.find((q) => q.name === "Demo: Customers")!;
    await admin.post(`/api/queries/${demoQuery.id}`, { name: "Customers" });
    expect((await status()).demo_counters).toEqual({ queries: 6, dashboards: 1 });
  });
});
