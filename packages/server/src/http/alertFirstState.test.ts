// A new alert is evaluated at once against its query's latest result, and "last triggered" moves
// only when the alert triggers (issue 25).
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createShopDataSource, saveAndRun, startWithAdmin } from "../testing/apiServer";
import type { TestClient } from "../testing/httpClient";
import { metadataDatabases } from "../testing/services";
import type { TestServer } from "../testing/testServer";

const DATABASES = await metadataDatabases();

describe.each(DATABASES)("a new alert's first state on %s", (db) => {
  let server: TestServer;
  let admin: TestClient;
  let shop: number;
  /** SELECT id FROM people: rows 1 and 2, run once. */
  let ranQuery: number;

  const create = async (queryId: number, value: number) => {
    const res = await admin.post("/api/alerts", {
      name: `Above ${value}`,
      query_id: queryId,
      options: { column: "id", op: ">", value, selector: "first" },
    });
    expect(res.status, res.text).toBe(200);
    return res.body as { id: number; state: string; last_triggered_at: string | null };
  };

  const stored = async (id: number) => (await admin.get(`/api/alerts/${id}`)).body;

  beforeAll(async () => {
    ({ server, admin } = await startWithAdmin(db));
    shop = await createShopDataSource(server, admin);
    const { query } = await saveAndRun<{ id: number }>(admin, shop, "SELECT id FROM people");
    ranQuery = query.id;
    await vi.waitFor(
      async () => {
        const saved = await admin.get(`/api/queries/${ranQuery}`);
        expect(saved.body.latest_query_data_id).not.toBeNull();
      },
      { timeout: 15_000, interval: 100 },
    );
  });

  afterAll(async () => {
    await server?.close();
  });

  it("is evaluated at once: triggered, with the time it triggered", async () => {
    const before = new Date().toISOString();
    const alert = await create(ranQuery, 0);
    expect(alert.state).toBe("triggered");
    expect(alert.last_triggered_at! >= before).toBe(true);
    expect((await stored(alert.id)).state).toBe("triggered");
  });

  it("is evaluated at once: ok, never triggered", async () => {
    const alert = await create(ranQuery, 5);
    expect(alert.state).toBe("ok");
    expect(alert.last_triggered_at).toBeNull();
  });

  it("stays unknown while its query has no result", async () => {
    const res = await admin.post("/api/queries", {
      name: "Never run",
      query: "SELECT id FROM people WHERE id > 1",
      data_source_id: shop,
    });
    const alert = await create(res.body.id, 0);
    expect(alert.state).toBe("unknown");
    expect(alert.last_triggered_at).toBeNull();
  });

  it("keeps the last trigger's time when it goes back to normal, and moves it on the next", async () => {
    const alert = await create(ranQuery, 0);
    const triggeredAt = alert.last_triggered_at!;
    const options = { column: "id", op: ">", value: 5, selector: "first" };
    await admin.post(`/api/alerts/${alert.id}`, { options });
    expect((await admin.post(`/api/alerts/${alert.id}/eval`)).status).toBe(200);
    const back = await stored(alert.id);
    expect(back.state).toBe("ok");
    expect(back.last_triggered_at).toBe(triggeredAt);

    await new Promise((resolve) => setTimeout(resolve, 5));
    await admin.post(`/api/alerts/${alert.id}`, { options: { ...options, value: 0 } });
    expect((await admin.post(`/api/alerts/${alert.id}/eval`)).status).toBe(200);
    const again = await stored(alert.id);
    expect(again.state).toBe("triggered");
    expect(again.last_triggered_at > triggeredAt).toBe(true);
  });
});
