import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metadataDatabases } from "../testing/services";
import { startTestServer, type TestServer } from "../testing/testServer";
import { ADMIN, setUpAndLogin, type TestClient } from "../testing/httpClient";
import { changesOf, columnChanges } from "../store/changes";
import { findOrgBySlug } from "../store/organizations";
import { findUserByEmail } from "../store/users";

const DATABASES = await metadataDatabases();

describe("columnChanges", () => {
  it("reports every tracked column of a new object and only the changed ones of an edit", () => {
    expect(
      columnChanges(null, { id: 1, version: 1, name: "A", api_key: "secret", tags: [] }),
    ).toEqual({ name: { previous: null, current: "A" }, tags: { previous: null, current: [] } });
    expect(
      columnChanges(
        { id: 1, version: 1, name: "A", tags: ["x"], updated_at: "t1" },
        { id: 1, version: 2, name: "B", tags: ["x"], updated_at: "t2" },
      ),
    ).toEqual({ name: { previous: "A", current: "B" } });
  });
});

/** The changes audit (api-platform.md §7.5) through the real HTTP layer; no API exposes it. */
describe.each(DATABASES)("changes audit on %s", (dbKind) => {
  let server: TestServer;
  let api: TestClient;
  let userId: number;

  beforeAll(async () => {
    server = await startTestServer(dbKind);
    api = await setUpAndLogin(server.url);
    const db = server.ctx.database.db;
    const org = (await findOrgBySlug(db, "default"))!;
    userId = (await findUserByEmail(db, org.id, ADMIN.email))!.id;
  });
  afterAll(async () => {
    await server?.close();
  });

  const changes = (type: "dashboards" | "queries", id: number) =>
    changesOf(server.ctx.database.db, type, id);

  it("records creating and archiving a dashboard", async () => {
    const created = await api.post<{ id: number; version: number }>("/api/dashboards", {
      name: "Audited",
    });
    expect(created.status, created.text).toBe(200);
    const id = created.body.id;
    const first = await changes("dashboards", id);
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({
      object_type: "dashboards",
      object_id: id,
      object_version: created.body.version,
      user_id: userId,
    });
    expect(first[0]!.change).toMatchObject({
      name: { previous: null, current: "Audited" },
      is_archived: { previous: null, current: false },
      is_draft: { previous: null, current: true },
    });

    const archived = await api.delete<{ version: number }>(`/api/dashboards/${id}`);
    expect(archived.status, archived.text).toBe(200);
    const both = await changes("dashboards", id);
    expect(both).toHaveLength(2);
    expect(both[1]).toMatchObject({ object_version: archived.body.version, user_id: userId });
    expect(both[1]!.change).toEqual({ is_archived: { previous: false, current: true } });
  });

  it("records a query's creation, each save's changed columns and its archiving", async () => {
    const sources = (await api.get<{ id: number; name: string }[]>("/api/data_sources")).body;
    const demo = sources.find((s) => s.name === "Demo")!;
    const created = await api.post<{ id: number; version: number; api_key: string }>(
      "/api/queries",
      { name: "Audited query", query: "SELECT 1 AS n", data_source_id: demo.id },
    );
    expect(created.status, created.text).toBe(200);
    const id = created.body.id;
    const [create] = await changes("queries", id);
    expect(create).toMatchObject({ object_version: created.body.version, user_id: userId });
    expect(create!.change).toMatchObject({
      name: { previous: null, current: "Audited query" },
      query: { previous: null, current: "SELECT 1 AS n" },
    });
    // The query's API key is a credential: never copied into the audit.
    expect(JSON.stringify(create!.change)).not.toContain(created.body.api_key);

    const saved = await api.post<{ version: number }>(`/api/queries/${id}`, {
      query: "SELECT 2 AS n",
      version: created.body.version,
    });
    expect(saved.status, saved.text).toBe(200);
    const afterSave = await changes("queries", id);
    expect(afterSave).toHaveLength(2);
    expect(afterSave[1]!.object_version).toBe(saved.body.version);
    expect(afterSave[1]!.change.query).toEqual({
      previous: "SELECT 1 AS n",
      current: "SELECT 2 AS n",
    });
    expect(Object.keys(afterSave[1]!.change)).not.toContain("name");

    // A refused save (stale version) records nothing.
    const stale = await api.post(`/api/queries/${id}`, {
      name: "Stale",
      version: created.body.version,
    });
    expect(stale.status).toBe(409);
    expect(await changes("queries", id)).toHaveLength(2);

    expect((await api.delete(`/api/queries/${id}`)).status).toBe(200);
    const all = await changes("queries", id);
    expect(all).toHaveLength(3);
    expect(all[2]!.change.is_archived).toEqual({ previous: false, current: true });
  });
});
