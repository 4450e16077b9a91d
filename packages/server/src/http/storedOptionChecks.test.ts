import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metadataDatabases } from "../testing/services";
import { startTestServer, type TestServer } from "../testing/testServer";
import { createDataSource, setUpAndLogin, type TestClient } from "../testing/httpClient";

const DATABASES = await metadataDatabases();

/**
 * Schedules, parameter definitions and visualization types are checked against the rules in
 * packages/core before they are stored; Redash clients' shapes keep working.
 */
describe.each(DATABASES)("checks of stored schedules and options on %s", (dbKind) => {
  let server: TestServer;
  let admin: TestClient;
  let dataSourceId: number;
  let queryId: number;

  beforeAll(async () => {
    server = await startTestServer(dbKind);
    admin = await setUpAndLogin(server.url);
    dataSourceId = await createDataSource(admin, "Scratch", "duckdb", { dbpath: ":memory:" });
    const query = await admin.post("/api/queries", {
      name: "Scheduled",
      query: "SELECT 1",
      data_source_id: dataSourceId,
      schedule: { interval: 3600, time: null, day_of_week: null, until: null },
    });
    expect(query.status).toBe(200);
    queryId = query.body.id;
  });
  afterAll(async () => {
    await server?.close();
  });

  it.each([
    [{ interval: "abc" }, "schedule.interval"],
    [{ interval: -5 }, "schedule.interval"],
    [{ interval: 1e20 }, "schedule.interval"],
    [{ interval: 86400, time: "25:99" }, "schedule.time"],
    [{ interval: 604800, time: "10:00", day_of_week: "Funday" }, "schedule.day_of_week"],
    [{ interval: 3600, until: "notadate" }, "schedule.until"],
    ["3600", "schedule must be an object"],
  ])("refuses the schedule %j with a 400 naming %s, storing nothing", async (schedule, field) => {
    const before = (await admin.get("/api/queries")).body.count;
    const created = await admin.post("/api/queries", {
      name: "Bad schedule",
      query: "SELECT 1",
      data_source_id: dataSourceId,
      schedule,
    });
    expect(created.status).toBe(400);
    expect(created.body.message).toContain(field);
    expect((await admin.get("/api/queries")).body.count).toBe(before);

    const updated = await admin.post(`/api/queries/${queryId}`, { schedule });
    expect(updated.status).toBe(400);
    expect(updated.body.message).toContain(field);
    const stored = await admin.get(`/api/queries/${queryId}`);
    expect(stored.body.schedule).toMatchObject({ interval: 3600 });
  });

  it("stores the schedules Redash clients send", async () => {
    for (const schedule of [
      { interval: "86400", time: "10:30", day_of_week: null, until: "2030-01-31" },
      { interval: 604800, time: "00:00", day_of_week: "Monday", until: null },
      null,
      { interval: 3600, time: null, day_of_week: null, until: null },
    ]) {
      const res = await admin.post(`/api/queries/${queryId}`, { schedule });
      expect(res.status, JSON.stringify(schedule)).toBe(200);
      expect(res.body.schedule).toEqual(schedule);
    }
  });

  it("refuses unknown parameter types and keeps the known ones", async () => {
    const bad = await admin.post(`/api/queries/${queryId}`, {
      options: { parameters: [{ name: "x", title: "x", type: "evil", value: "1" }] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain("options.parameters[0].type must be one of text,");
    const nameless = await admin.post(`/api/queries/${queryId}`, {
      options: { parameters: [{ type: "text", value: "1" }] },
    });
    expect(nameless.status).toBe(400);
    expect(nameless.body.message).toContain("options.parameters[0].name");

    const parameters = [
      { name: "n", title: "N", type: "number", value: 1 },
      {
        name: "d",
        title: "D",
        type: "date-range",
        value: { start: "2024-01-01", end: "2024-01-31" },
      },
      { name: "e", title: "E", type: "enum", value: "a", enumOptions: "a\nb" },
    ];
    const good = await admin.post(`/api/queries/${queryId}`, { options: { parameters } });
    expect(good.status).toBe(200);
    expect(good.body.options.parameters).toEqual(parameters);
  });

  it("refuses unknown visualization types on create and update", async () => {
    const bad = await admin.post("/api/visualizations", {
      query_id: queryId,
      type: "NOPE",
      name: "Nope",
      options: {},
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain("type must be one of CHART, TABLE,");
    const good = await admin.post("/api/visualizations", {
      query_id: queryId,
      type: "COUNTER",
      name: "Counter",
      options: {},
    });
    expect(good.status).toBe(200);
    const changed = await admin.post(`/api/visualizations/${good.body.id}`, { type: "NOPE" });
    expect(changed.status).toBe(400);
    const query = await admin.get(`/api/queries/${queryId}`);
    const types = query.body.visualizations.map((v: { type: string }) => v.type);
    expect(types).not.toContain("NOPE");
  });
});
