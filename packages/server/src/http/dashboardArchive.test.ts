// Archived dashboards can be found again (GET /api/dashboards/archive, as /api/queries/archive)
// and restored with a save of is_archived false; the live lists never show them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestClient } from "../testing/httpClient";
import { metadataDatabases } from "../testing/services";
import { startWithAdminAndMember, type AdminAndMember } from "../testing/signedIn";

const DATABASES = await metadataDatabases();

const names = (body: { results: { name: string }[] }) => body.results.map((d) => d.name);

describe.each(DATABASES)("archived dashboards on %s", (db) => {
  let setup: AdminAndMember<TestClient>;

  beforeAll(async () => {
    setup = await startWithAdminAndMember(db);
  });
  afterAll(async () => {
    await setup?.server.close();
  });

  it("lists archived dashboards apart and restores one", async () => {
    const { admin, member } = setup;
    const kept = (await admin.post("/api/dashboards", { name: "Kept board" })).body;
    const gone = (await admin.post("/api/dashboards", { name: "Archived board" })).body;
    const mine = (await member.post("/api/dashboards", { name: "Member's old board" })).body;
    expect((await admin.delete(`/api/dashboards/${gone.id}`)).status).toBe(200);
    expect((await member.delete(`/api/dashboards/${mine.id}`)).status).toBe(200);

    const archive = await admin.get("/api/dashboards/archive");
    expect(archive.status).toBe(200);
    expect(names(archive.body)).toEqual(["Archived board"]);
    expect(archive.body.results[0].is_archived).toBe(true);
    expect(names((await admin.get("/api/dashboards")).body)).toContain(kept.name);
    expect(names((await admin.get("/api/dashboards")).body)).not.toContain(gone.name);
    // The same rule as the live list: a member sees their own draft, not the admin's.
    expect(names((await member.get("/api/dashboards/archive")).body)).toEqual([
      "Member's old board",
    ]);
    // Search and paging work as on the other lists.
    expect(names((await admin.get("/api/dashboards/archive?q=nothing")).body)).toEqual([]);

    // Someone else's dashboard cannot be restored by a member; its owner can.
    const refused = await member.post(`/api/dashboards/${gone.id}`, { is_archived: false });
    expect(refused.status).toBe(403);
    const restored = await admin.post(`/api/dashboards/${gone.id}`, { is_archived: false });
    expect(restored.status).toBe(200);
    expect(restored.body.is_archived).toBe(false);
    expect(names((await admin.get("/api/dashboards/archive")).body)).toEqual([]);
    expect(names((await admin.get("/api/dashboards")).body)).toContain("Archived board");
  });

  it("is not open to a dashboard share key or without a session", async () => {
    const anonymous = await fetch(`${setup.server.url}/api/dashboards/archive`);
    expect(anonymous.status).toBe(404);
  });
});
