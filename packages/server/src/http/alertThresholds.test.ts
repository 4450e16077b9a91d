// The alert threshold (`options.value`): a number must be finite; numbers beyond 2^53 are kept as
// JSON reads them and compare as doubles, as Redash's floats do (reference §9.1, §9.3).
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { metadataDatabases } from "../testing/services";
import type { TestServer } from "../testing/testServer";
import { startWithAdmin, makeSqliteFile } from "../testing/apiServer";
import type { TestClient } from "../testing/httpClient";

const DATABASES = await metadataDatabases();

const REFUSAL = "The threshold (options.value) must be a finite number.";

describe.each(DATABASES)("alert thresholds on %s", (db) => {
  let server: TestServer;
  let admin: TestClient;
  let queryId: number;

  /** The alert as the body names it, sent as raw JSON so that numbers keep their spelling. */
  const postRaw = (url: string, json: string) => admin.request("POST", url, { raw: json });

  const alertJson = (value: string, op = "==") =>
    `{"name": "Big", "query_id": ${queryId}, ` +
    `"options": {"column": "big", "op": "${op}", "value": ${value}}}`;

  const alertCount = async () =>
    Number(
      (
        await server.ctx.database.db
          .selectFrom("alerts")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  const evaluate = async (id: number) => {
    expect((await admin.post(`/api/alerts/${id}/eval`)).status).toBe(200);
    return (await admin.get(`/api/alerts/${id}`)).body.state as string;
  };

  beforeAll(async () => {
    ({ server, admin } = await startWithAdmin(db));
    const file = makeSqliteFile(server);
    const source = await admin.post("/api/data_sources", {
      name: "Shop",
      type: "sqlite",
      options: { dbpath: file },
    });
    // SQLite reads an integer beyond 64 bits as a double, as the threshold is read.
    const query = await admin.post("/api/queries", {
      name: "Big number",
      query: "SELECT 12345678901234567890 AS big",
      data_source_id: source.body.id,
    });
    queryId = query.body.id;
    await admin.post(`/api/queries/${queryId}`, { is_draft: false });
    expect((await admin.post(`/api/queries/${queryId}/results`, { max_age: 0 })).status).toBe(200);
    await vi.waitFor(
      async () => {
        const query = await admin.get(`/api/queries/${queryId}`);
        expect(query.body.latest_query_data_id).not.toBeNull();
      },
      { timeout: 15_000, interval: 100 },
    );
  });

  afterAll(async () => {
    await server?.close();
  });

  it.each(["1e400", "-1e400", '"1e400"', '"inf"', '"-Infinity"', '"nan"'])(
    "refuses %s on create with a message and stores nothing",
    async (value) => {
      const before = await alertCount();
      const res = await postRaw("/api/alerts", alertJson(value));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: REFUSAL });
      expect(await alertCount()).toBe(before);
    },
  );

  it("refuses a threshold that is not finite on edit and keeps the stored one", async () => {
    const created = await postRaw("/api/alerts", alertJson("5"));
    expect(created.status).toBe(200);
    const id = created.body.id as number;
    const res = await postRaw(
      `/api/alerts/${id}`,
      '{"options": {"column": "big", "op": "==", "value": 1e400}}',
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: REFUSAL });
    expect((await admin.get(`/api/alerts/${id}`)).body.options.value).toBe(5);
  });

  it("keeps text that is not a number (a number against it is unknown, §9.3)", async () => {
    const res = await postRaw("/api/alerts", alertJson('"many"'));
    expect(res.status).toBe(200);
    expect(res.body.options.value).toBe("many");
    expect(await evaluate(res.body.id)).toBe("unknown");
  });

  it("stores a number beyond 2^53 as JSON reads it and compares it as a double", async () => {
    const res = await postRaw("/api/alerts", alertJson("12345678901234567890"));
    expect(res.status).toBe(200);
    expect(res.body.options.value).toBe(Number("12345678901234567890"));
    expect(res.text).toContain('"value":12345678901234567000');
    expect(await evaluate(res.body.id)).toBe("triggered");
  });

  it("compares the same threshold sent as text the same way, and keeps its digits", async () => {
    const equal = await postRaw("/api/alerts", alertJson('"12345678901234567890"'));
    expect(equal.status).toBe(200);
    expect(equal.body.options.value).toBe("12345678901234567890");
    expect(await evaluate(equal.body.id)).toBe("triggered");
    const greater = await postRaw("/api/alerts", alertJson('"1.2e19"', ">"));
    expect(await evaluate(greater.body.id)).toBe("triggered");
    const less = await postRaw("/api/alerts", alertJson("2e19", "<"));
    expect(less.body.options.value).toBe(2e19);
    expect(await evaluate(less.body.id)).toBe("triggered");
  });
});
