// Version history of queries (issue 29) through the real HTTP layer, on both metadata stores:
// every save a version, the list, one version, restore (with visualizations), rights, conflicts,
// bad input, and the size of a version.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultGroupId } from "../services/organizationSetup";
import { queryVersions, restoreQuery, type QuerySnapshot } from "../services/queryVersions";
import { recordBaseline } from "../services/versioning";
import { otherOrgObjects } from "../testing/apiServer";
import { insertTestQuery } from "../testing/storeRows";
import { findVersion, snapshotBytes } from "../store/objectVersions";
import { findQuery } from "../store/queries";
import { metadataDatabases } from "../testing/services";
import { createDataSource, type TestClient } from "../testing/httpClient";
import { startWithAdminAndMember, type AdminAndMember } from "../testing/signedIn";
import { DATA_SOURCE_GONE, DATA_SOURCE_REFUSED } from "./queries/versionRoutes";

const DATABASES = await metadataDatabases();

interface Version {
  version: number;
  created_at: string;
  user: { id: number; name: string } | null;
  changes: string[];
}
interface VersionList {
  count: number;
  page: number;
  page_size: number;
  results: Version[];
}
interface QueryAnswer {
  id: number;
  version: number;
  name: string;
  query: string;
  data_source_id: number;
  options: Record<string, unknown>;
  visualizations: { id: number; type: string; name: string; options: Record<string, unknown> }[];
}

/** A 5 kB query text of varied lines, as a real report's SQL. */
export function longQueryText(): string {
  const lines = ["SELECT"];
  const words = ["revenue", "orders", "customers", "region", "channel", "margin", "refunds"];
  for (let i = 0; lines.join("\n").length < 5000; i += 1) {
    const w = words[i % words.length]!;
    lines.push(
      `  SUM(CASE WHEN t.${w}_kind = 'k${(i * 37) % 101}' THEN t.${w}_amount * ${((i * 13) % 17) + 1} ELSE 0 END) AS ${w}_${i},`,
    );
  }
  lines.push("  COUNT(*) AS n\nFROM facts t\nWHERE t.day >= date('now', '-30 days')");
  return lines.join("\n");
}

describe.each(DATABASES)("query versions on %s", (dbKind) => {
  let ctx: AdminAndMember<TestClient>;
  let admin: TestClient;
  let member: TestClient;
  let demoId: number;

  beforeAll(async () => {
    ctx = await startWithAdminAndMember(dbKind);
    ({ admin, member } = ctx);
    const sources = (await admin.get<{ id: number; name: string }[]>("/api/data_sources")).body;
    demoId = sources.find((s) => s.name === "Demo")!.id;
  });
  afterAll(async () => {
    await ctx?.server.close();
  });

  async function newQuery(client: TestClient, text = "SELECT 1 AS n", dataSourceId = demoId) {
    const res = await client.post<QueryAnswer>("/api/queries", {
      name: "Versioned",
      query: text,
      data_source_id: dataSourceId,
    });
    expect(res.status, res.text).toBe(200);
    return res.body;
  }
  const versions = (client: TestClient, id: number, qs = "") =>
    client.get<VersionList>(`/api/queries/${id}/versions${qs}`);

  it("records every save, newest first, with who and which fields changed", async () => {
    const q = await newQuery(admin);
    const saved = await admin.post<QueryAnswer>(`/api/queries/${q.id}`, {
      query: "SELECT 2 AS n",
      version: q.version,
    });
    expect(saved.status, saved.text).toBe(200);
    const renamed = await admin.post<QueryAnswer>(`/api/queries/${q.id}`, {
      name: "Renamed",
      schedule: { interval: 3600, time: null, until: null, day_of_week: null },
      version: saved.body.version,
    });
    expect(renamed.status, renamed.text).toBe(200);
    const list = await versions(admin, q.id);
    expect(list.status, list.text).toBe(200);
    expect(list.body).toMatchObject({ count: 3, page: 1, page_size: 25 });
    expect(list.body.results.map((v) => v.version)).toEqual([
      renamed.body.version,
      saved.body.version,
      q.version,
    ]);
    expect(list.body.results[0]!.changes.sort()).toEqual(["name", "schedule"]);
    expect(list.body.results[1]!.changes).toEqual(["query"]);
    expect(list.body.results[2]!.changes).toEqual(
      expect.arrayContaining(["query", "name", "data_source_id", "visualizations"]),
    );
    expect(list.body.results[0]!.user).toMatchObject({
      id: ctx.adminUser.id,
      name: ctx.adminUser.name,
    });
    // Pages.
    const second = await versions(admin, q.id, "?page=2&page_size=2");
    expect(second.body).toMatchObject({ count: 3, page: 2, page_size: 2 });
    expect(second.body.results.map((v) => v.version)).toEqual([q.version]);
  });

  it("shows a version as the query was, with its visualizations", async () => {
    const q = await newQuery(admin);
    const table =
      q.visualizations?.[0] ??
      (await admin.get<QueryAnswer>(`/api/queries/${q.id}`)).body.visualizations[0]!;
    const viz = await admin.post(`/api/visualizations/${table.id}`, {
      options: { itemsPerPage: 50 },
    });
    expect(viz.status, viz.text).toBe(200);
    const now = (await admin.get<QueryAnswer>(`/api/queries/${q.id}`)).body;
    expect(now.version).toBe(q.version + 1);
    const list = await versions(admin, q.id);
    expect(list.body.results[0]).toMatchObject({
      version: now.version,
      changes: ["visualizations"],
    });
    const old = await admin.get<QueryAnswer>(`/api/queries/${q.id}/versions/${q.version}`);
    expect(old.status, old.text).toBe(200);
    expect(old.body).toMatchObject({ id: q.id, version: q.version, query: "SELECT 1 AS n" });
    expect(old.body.visualizations[0]).toMatchObject({ id: table.id, options: {} });
    // A save sent with the version the page had before the visualization's change still goes.
    const stale = await admin.post<QueryAnswer>(`/api/queries/${q.id}`, {
      query: "SELECT 3 AS n",
      version: q.version,
    });
    expect(stale.status, stale.text).toBe(200);
    expect(stale.body.version).toBe(now.version + 1);
    // ...but not once the text itself was saved meanwhile.
    const conflicting = await admin.post(`/api/queries/${q.id}`, {
      query: "SELECT 4 AS n",
      version: now.version,
    });
    expect(conflicting.status).toBe(409);
  });

  it("restores the text and the visualizations' options as a new version", async () => {
    const q = await newQuery(admin);
    const table = (await admin.get<QueryAnswer>(`/api/queries/${q.id}`)).body.visualizations[0]!;
    const chart = await admin.post<{ id: number }>("/api/visualizations", {
      query_id: q.id,
      type: "CHART",
      name: "Chart",
      options: { globalSeriesType: "line" },
    });
    expect(chart.status, chart.text).toBe(200);
    const before = (await admin.get<QueryAnswer>(`/api/queries/${q.id}`)).body;
    await admin.post(`/api/visualizations/${chart.body.id}`, {
      options: { globalSeriesType: "column" },
    });
    await admin.post(`/api/visualizations/${table.id}`, { options: { itemsPerPage: 5 } });
    const extra = await admin.post<{ id: number }>("/api/visualizations", {
      query_id: q.id,
      type: "COUNTER",
      name: "Counter",
      options: {},
    });
    const edited = await admin.post<QueryAnswer>(`/api/queries/${q.id}`, {
      query: "SELECT 42 AS n",
      name: "Broken",
    });
    expect(edited.status, edited.text).toBe(200);

    const restored = await admin.post<QueryAnswer>(
      `/api/queries/${q.id}/versions/${before.version}/restore`,
      { version: edited.body.version },
    );
    expect(restored.status, restored.text).toBe(200);
    expect(restored.body.version).toBe(edited.body.version + 1);
    expect(restored.body).toMatchObject({ query: "SELECT 1 AS n", name: "Versioned" });
    const byId = new Map(restored.body.visualizations.map((v) => [v.id, v]));
    expect(byId.get(chart.body.id)?.options).toEqual({ globalSeriesType: "line" });
    expect(byId.get(table.id)?.options).toEqual({});
    expect(byId.has(extra.body.id)).toBe(false);
    const list = await versions(admin, q.id);
    expect(list.body.results[0]).toMatchObject({ version: restored.body.version });
    expect(list.body.results[0]!.changes).toEqual(
      expect.arrayContaining(["query", "name", "visualizations"]),
    );
    // The history is kept: the version restored from is still there.
    const old = await admin.get<QueryAnswer>(
      `/api/queries/${q.id}/versions/${edited.body.version}`,
    );
    expect(old.body.query).toBe("SELECT 42 AS n");
  });

  it("lets viewers read versions, and only editors restore", async () => {
    const q = await newQuery(admin);
    await admin.post(`/api/queries/${q.id}`, { query: "SELECT 5 AS n" });
    const list = await versions(member, q.id);
    expect(list.status, list.text).toBe(200);
    expect(list.body.count).toBe(2);
    const refused = await member.post(`/api/queries/${q.id}/versions/${q.version}/restore`, {});
    expect(refused.status).toBe(403);
    expect(refused.body).toHaveProperty("message");
    const after = (await admin.get<QueryAnswer>(`/api/queries/${q.id}`)).body;
    expect(after.query).toBe("SELECT 5 AS n");
  });

  it("refuses a stale restore with the current version, unknown versions and bad pages", async () => {
    const q = await newQuery(admin);
    const saved = await admin.post<QueryAnswer>(`/api/queries/${q.id}`, { query: "SELECT 6 AS n" });
    const stale = await admin.post<{ message: string; version: number }>(
      `/api/queries/${q.id}/versions/${q.version}/restore`,
      { version: q.version },
    );
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ version: saved.body.version });
    expect(typeof stale.body.message).toBe("string");
    for (const path of [
      `/api/queries/${q.id}/versions/999`,
      `/api/queries/${q.id}/versions/abc`,
      `/api/queries/${q.id}/versions/0`,
      `/api/queries/999999/versions`,
    ]) {
      const res = await admin.get(path);
      expect(res.status, path).toBe(404);
      expect(res.body).toHaveProperty("message");
    }
    const unknownRestore = await admin.post(`/api/queries/${q.id}/versions/999/restore`, {});
    expect(unknownRestore.status).toBe(404);
    for (const qs of ["?page=0", "?page=x", "?page_size=0", "?page_size=251", "?page_size=1.5"]) {
      const res = await versions(admin, q.id, qs);
      expect(res.status, qs).toBe(400);
      expect(res.body).toHaveProperty("message");
    }
    const badBody = await admin.post(`/api/queries/${q.id}/versions/${q.version}/restore`, {
      version: "2",
    });
    expect(badBody.status).toBe(400);
    const after = (await admin.get<QueryAnswer>(`/api/queries/${q.id}`)).body;
    expect(after).toMatchObject({ version: saved.body.version, query: "SELECT 6 AS n" });
  });

  it("refuses to restore a version whose data source the user can no longer use", async () => {
    const other = await createDataSource(admin, `Scratch ${dbKind}`, "duckdb", {
      dbpath: ":memory:",
    });
    const groupId = await defaultGroupId(ctx.server.ctx.database.db, ctx.org.id);
    const link = await admin.post(`/api/groups/${groupId}/data_sources`, {
      data_source_id: other,
    });
    expect([200, 409]).toContain(link.status);
    const q = await newQuery(member, "SELECT 7 AS n", other);
    const moved = await member.post<QueryAnswer>(`/api/queries/${q.id}`, {
      data_source_id: demoId,
    });
    expect(moved.status, moved.text).toBe(200);
    const viewOnly = await admin.post(`/api/groups/${groupId}/data_sources/${other}`, {
      view_only: true,
    });
    expect(viewOnly.status, viewOnly.text).toBe(200);
    const refused = await member.post(`/api/queries/${q.id}/versions/${q.version}/restore`, {});
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: DATA_SOURCE_REFUSED });
    const after = (await member.get<QueryAnswer>(`/api/queries/${q.id}`)).body;
    expect(after).toMatchObject({ version: moved.body.version, data_source_id: demoId });
  });

  it("refuses with 400 to restore a version whose data source was deleted", async () => {
    const gone = await createDataSource(admin, `Gone ${dbKind}`, "duckdb", { dbpath: ":memory:" });
    const q = await newQuery(admin, "SELECT 9 AS n", gone);
    const moved = await admin.post<QueryAnswer>(`/api/queries/${q.id}`, { data_source_id: demoId });
    expect(moved.status, moved.text).toBe(200);
    expect((await admin.delete(`/api/data_sources/${gone}`)).status).toBeLessThan(300);
    const refused = await admin.post(`/api/queries/${q.id}/versions/${q.version}/restore`, {});
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ message: DATA_SOURCE_GONE });
    expect((await admin.get<QueryAnswer>(`/api/queries/${q.id}`)).body.data_source_id).toBe(demoId);
  });

  it("keeps the history of an archived query, and of another org's queries nothing shows", async () => {
    const q = await newQuery(admin);
    const archived = await admin.delete(`/api/queries/${q.id}`);
    expect(archived.status, archived.text).toBe(200);
    const list = await versions(admin, q.id);
    expect(list.body.count).toBe(2);
    expect(list.body.results[0]!.changes).toContain("is_archived");
  });

  it("answers 404 for another organisation's query and its versions", async () => {
    const other = await otherOrgObjects(ctx.server);
    await recordBaseline(ctx.server.ctx.database.db, queryVersions, other.query.id);
    const base = `/api/queries/${other.query.id}/versions`;
    for (const res of [
      await admin.get(base),
      await admin.get(`${base}/1`),
      await admin.post(`${base}/1/restore`, {}),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toHaveProperty("message");
    }
  });

  it("records an older query's state before its first recorded save, so it can be restored", async () => {
    const db = ctx.server.ctx.database.db;
    const old = await insertTestQuery(db, ctx.org.id, {
      dataSourceId: demoId,
      userId: ctx.adminUser.id,
      lastModifiedById: ctx.adminUser.id,
      name: "From before versions",
      text: "SELECT 'before' AS t",
      hash: "x",
    });
    expect((await versions(admin, old.id)).body.count).toBe(0);
    const saved = await admin.post<QueryAnswer>(`/api/queries/${old.id}`, {
      query: "SELECT 'after' AS t",
      version: old.version,
    });
    expect(saved.status, saved.text).toBe(200);
    const list = await versions(admin, old.id);
    expect(list.body.results.map((v) => v.version)).toEqual([saved.body.version, old.version]);
    expect(list.body.results[0]!.changes).toEqual(["query"]);
    const restored = await admin.post<QueryAnswer>(
      `/api/queries/${old.id}/versions/${old.version}/restore`,
    );
    expect(restored.status, restored.text).toBe(200);
    expect(restored.body.query).toBe("SELECT 'before' AS t");
  });

  it("changes nothing when another save wins the race to a restore", async () => {
    const db = ctx.server.ctx.database.db;
    const q = await newQuery(admin);
    const saved = await admin.post<QueryAnswer>(`/api/queries/${q.id}`, { query: "SELECT 8" });
    const query = (await findQuery(db, ctx.org.id, q.id))!;
    const record = await findVersion<QuerySnapshot>(db, { type: "queries", objectId: q.id }, 1);
    // The restore checked the version it read (q.version); the save above moved it meanwhile.
    const restored = await db
      .transaction()
      .execute((tx) => restoreQuery(tx, query, record!.snapshot, ctx.adminUser.id, q.version));
    expect(restored).toBe(false);
    const after = (await admin.get<QueryAnswer>(`/api/queries/${q.id}`)).body;
    expect(after).toMatchObject({ version: saved.body.version, query: "SELECT 8" });
    expect((await versions(admin, q.id)).body.count).toBe(2);
  });

  it("documents the version routes of queries and dashboards in the OpenAPI document", async () => {
    const res = await fetch(`${ctx.server.url}/api/docs/json`);
    const paths = ((await res.json()) as { paths: Record<string, Record<string, unknown>> }).paths;
    for (const kind of ["queries", "dashboards"]) {
      expect(paths[`/api/${kind}/{id}/versions`]).toHaveProperty("get");
      expect(paths[`/api/${kind}/{id}/versions/{version}`]).toHaveProperty("get");
      expect(paths[`/api/${kind}/{id}/versions/{version}/restore`]).toHaveProperty("post");
    }
  });

  it("stores a one-line change of a 5 kB query in under 2 kB", async () => {
    const text = longQueryText();
    expect(text.length).toBeGreaterThanOrEqual(5000);
    const q = await newQuery(admin, text);
    const lines = text.split("\n");
    lines[3] = "  SUM(t.revenue_amount) AS total_revenue,";
    const saved = await admin.post<QueryAnswer>(`/api/queries/${q.id}`, {
      query: lines.join("\n"),
    });
    expect(saved.status, saved.text).toBe(200);
    const bytes = await snapshotBytes(
      ctx.server.ctx.database.db,
      { type: "queries", objectId: q.id },
      saved.body.version,
    );
    expect(bytes).toBeGreaterThan(0);
    expect(bytes).toBeLessThan(2048);
  });
});
