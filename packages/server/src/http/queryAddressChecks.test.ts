// Queries whose text names an address (JSON, files by URL) are refused when saved if the outbound
// guard would refuse to fetch it when run (SECURITY.md rule 12), on both metadata stores.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWithAdmin } from "../testing/apiServer";
import type { TestClient } from "../testing/httpClient";
import { metadataDatabases } from "../testing/services";
import type { TestServer } from "../testing/testServer";

const DATABASES = await metadataDatabases();
const METADATA = "http://169.254.169.254/latest/meta-data/iam/security-credentials/role";

describe.each(DATABASES)("query address checks on save on %s", (store) => {
  let server: TestServer;
  let admin: TestClient;
  const sources: Record<string, number> = {};

  beforeAll(async () => {
    ({ server, admin } = await startWithAdmin(store));
    for (const type of ["json", "csv", "excel"]) {
      const res = await admin.post<{ id: number }>("/api/data_sources", {
        name: `Addresses ${type}`,
        type,
        options: {},
      });
      expect(res.status, res.text).toBe(200);
      sources[type] = res.body.id;
    }
  });

  afterAll(async () => {
    await server?.close();
  });

  const create = (type: string, query: string) =>
    admin.post<{ id: number; message?: string }>("/api/queries", {
      name: `A ${type} query`,
      data_source_id: sources[type],
      query,
    });

  const queryCount = async () =>
    (await server.ctx.database.db.selectFrom("queries").select("id").execute()).length;

  it("refuses a new query naming a refused address, saying why without the URL's path", async () => {
    const before = await queryCount();
    for (const [type, text] of [
      ["json", `url: ${METADATA}`],
      ["csv", `url: ${METADATA}`],
      ["excel", "url: http://10.1.2.3/secret/report.xlsx"],
    ]) {
      const res = await create(type, text);
      expect(res.status, res.text).toBe(400);
      expect(res.body.message).toMatch(/^The query's URL cannot be fetched: /);
      expect(res.body.message).not.toMatch(/security-credentials|secret\/report/);
    }
    const fileScheme = await create("csv", "url: file:///etc/passwd");
    expect(fileScheme.status).toBe(400);
    expect(fileScheme.body.message).toContain("Only http and https URLs are allowed (got file)");
    expect(await queryCount()).toBe(before);
  });

  it("saves what cannot be checked yet: a parameter in the host, unfinished text, other types", async () => {
    for (const text of [
      "url: https://{{ host }}/data.json",
      "url: [not finished",
      "",
      "url: data/relative.csv",
    ]) {
      const res = await create("json", text);
      expect(res.status, `${text}: ${res.text}`).toBe(200);
    }
    const duck = await admin.post<{ id: number }>("/api/data_sources", {
      name: "Not fetched",
      type: "duckdb",
      options: { dbpath: ":memory:" },
    });
    // SQL text is not fetched by the server: an address in it is only text.
    const sql = await admin.post("/api/queries", {
      name: "SQL",
      data_source_id: duck.body.id,
      query: `SELECT '${METADATA}' AS u`,
    });
    expect(sql.status, sql.text).toBe(200);
  });

  it("refuses a save that changes the text or the data source to a refused address, and keeps the query", async () => {
    const made = await create("json", "url: https://example.org/data.json");
    expect(made.status, made.text).toBe(200);
    const id = made.body.id;
    const changed = await admin.post(`/api/queries/${id}`, { query: `url: ${METADATA}` });
    expect(changed.status).toBe(400);
    expect(changed.body.message).toContain("169.254.169.254");
    expect((await admin.get(`/api/queries/${id}`)).body.query).toBe(
      "url: https://example.org/data.json",
    );

    // A SQL query moved to a JSON source: its text is now fetched, so it is checked.
    const duck = await admin.post<{ id: number }>("/api/data_sources", {
      name: "Moved from",
      type: "duckdb",
      options: { dbpath: ":memory:" },
    });
    const sql = await admin.post<{ id: number }>("/api/queries", {
      name: "Moves",
      data_source_id: duck.body.id,
      query: `url: ${METADATA}`,
    });
    expect(sql.status, sql.text).toBe(200);
    const moved = await admin.post(`/api/queries/${sql.body.id}`, {
      data_source_id: sources.json,
    });
    expect(moved.status).toBe(400);
    expect((await admin.get(`/api/queries/${sql.body.id}`)).body.data_source_id).toBe(duck.body.id);
  });

  it("lets a query saved before the check keep its other fields editable", async () => {
    const made = await create("json", "url: https://example.org/data.json");
    await server.ctx.database.db
      .updateTable("queries")
      .set({ query: `url: ${METADATA}` })
      .where("id", "=", made.body.id)
      .execute();
    const renamed = await admin.post(`/api/queries/${made.body.id}`, { name: "Renamed" });
    expect(renamed.status, renamed.text).toBe(200);
  });

  it("accepts an address the operator allowed", async () => {
    const { server: open, admin: openAdmin } = await startWithAdmin(store, {
      SIGHTLINE_OUTBOUND_ALLOWED_RANGES: "10.0.0.0/8",
    });
    try {
      const ds = await openAdmin.post<{ id: number }>("/api/data_sources", {
        name: "Internal files",
        type: "csv",
        options: {},
      });
      const res = await openAdmin.post("/api/queries", {
        name: "Internal",
        data_source_id: ds.body.id,
        query: "url: http://10.1.2.3/report.csv",
      });
      expect(res.status, res.text).toBe(200);
    } finally {
      await open.close();
    }
  });
});
