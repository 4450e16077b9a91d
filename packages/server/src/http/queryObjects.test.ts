import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metadataDatabases, randomName } from "../testing/services";
import type { TestServer } from "../testing/testServer";
import { TestClient } from "../testing/httpClient";
import {
  createShopDataSource,
  startWithAdmin,
  linkGroup,
  newGroup,
  otherOrgObjects,
  settledJob,
} from "../testing/apiServer";
import { userClient } from "../testing/signedIn";
import { createDemoDataSource, DEMO_FILE } from "../services/demoDataSource";

const DATABASES = await metadataDatabases();

describe.each(DATABASES)(
  "query execution, dropdowns, visualizations, snippets and ACL on %s",
  (db) => {
    let server: TestServer;
    let admin: TestClient;
    let member: TestClient;
    let memberId: number;
    let dsId: number;
    let other: Awaited<ReturnType<typeof otherOrgObjects>>;

    beforeAll(async () => {
      ({ server, admin } = await startWithAdmin(db));
      ({ client: member, id: memberId } = await userClient(server, "member@example.com"));
      dsId = await createShopDataSource(server, admin);
      other = await otherOrgObjects(server);
    });
    afterAll(async () => {
      await server?.close();
    });

    const create = async (client: TestClient, fields: Record<string, unknown>) =>
      (
        await client.post("/api/queries", {
          name: "q",
          data_source_id: dsId,
          query: "SELECT 1",
          ...fields,
        })
      ).body;

    it("executes saved queries with parameter checks, then serves dropdown values", async () => {
      const source = await create(member, {
        query: "SELECT id, name, value FROM people ORDER BY id",
      });
      const first = await member.post(`/api/queries/${source.id}/results`);
      expect(first.status).toBe(200);
      const job = await settledJob(member, first.body);
      if (job) expect(job.status).toBe(3);
      const dropdown = await member.get(`/api/queries/${source.id}/dropdown`);
      expect(dropdown.body).toEqual([
        { name: "John", value: "John Doe" },
        { name: "Ann", value: "Ann Lee" },
      ]);
      // Cached now: -1 max age serves the stored result.
      const cached = await member.post(`/api/queries/${source.id}/results`, { parameters: {} });
      expect(cached.body.query_result.data.rows).toHaveLength(2);

      const withParams = await create(member, {
        query: "SELECT {{n}} AS n, '{{who}}' AS who",
        options: {
          parameters: [
            { name: "n", type: "number", value: 1 },
            { name: "who", type: "query", queryId: source.id, value: "John Doe" },
          ],
        },
      });
      const bad = await member.post(`/api/queries/${withParams.id}/results`, {
        parameters: { n: "abc", who: "Nobody" },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toBe(
        "The following parameter values are incompatible with their definitions: n, who",
      );
      const missing = await member.post(`/api/queries/${withParams.id}/results`, {
        parameters: { n: 2 },
      });
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({
        job: { status: 4, error: "Missing parameter value for: who" },
      });
      const ok = await member.post(`/api/queries/${withParams.id}/results`, {
        parameters: { n: 2, who: "Ann Lee" },
        max_age: 0,
      });
      expect(ok.status).toBe(200);
      await settledJob(member, ok.body);

      const dd = await member.get(`/api/queries/${withParams.id}/dropdowns/${source.id}`);
      expect(dd.status).toBe(200);
      expect(dd.body).toHaveLength(2);
      expect((await member.get(`/api/queries/${withParams.id}/dropdowns/999999`)).status).toBe(404);
      expect((await member.get(`/api/queries/${other.query.id}/dropdown`)).status).toBe(404);
    });

    it("refuses unsafe queries on view-only data sources and API keys; refresh rules", async () => {
      const vo = await newGroup(server, randomName("vo"));
      await linkGroup(server, dsId, vo.id, true);
      const { client: viewer, id: viewerId } = await userClient(
        server,
        `v-${randomName("u")}@example.com`,
        [vo.id],
      );
      const unsafe = await create(admin, {
        query: "SELECT '{{t}}'",
        options: { parameters: [{ name: "t", type: "text" }] },
      });
      const safe = await create(admin, {
        query: "SELECT {{n}}",
        options: { parameters: [{ name: "n", type: "number" }] },
      });
      const readOnly = await viewer.post(`/api/queries/${unsafe.id}/results`, {
        parameters: { t: "x" },
      });
      expect(readOnly.status).toBe(403);
      expect(readOnly.body.job.error).toContain("read-only access");
      const allowed = await viewer.post(`/api/queries/${safe.id}/results`, {
        parameters: { n: 1 },
      });
      expect(allowed.status).toBe(200);
      await settledJob(viewer, allowed.body);
      expect((await viewer.get(`/api/queries/${safe.id}`)).body.can_edit).toBe(false);
      expect((await viewer.post(`/api/queries/${safe.id}/refresh?p_n=1`)).status).toBe(403);

      // A grant to modify the query does not let read-only access save new text to run.
      await admin.post(`/api/queries/${safe.id}/acl`, { access_type: "modify", user_id: viewerId });
      const rewritten = await viewer.post(`/api/queries/${safe.id}`, {
        query: "DELETE FROM orders RETURNING {{n}}",
      });
      expect(rewritten.status).toBe(403);
      expect((await admin.get(`/api/queries/${safe.id}`)).body.query).toBe("SELECT {{n}}");
      const renamed = await viewer.post(`/api/queries/${safe.id}`, { name: "Renamed by viewer" });
      expect(renamed.status).toBe(200);

      const key = new TestClient(server.url);
      key.apiKey = unsafe.api_key;
      const shared = await key.post(`/api/queries/${unsafe.id}/results`, {
        parameters: { t: "x" },
      });
      expect(shared.status).toBe(403);
      expect(shared.body.job.error).toContain("shared dashboard");
      expect((await key.post(`/api/queries/${unsafe.id}/refresh`)).body.message).toBe(
        "Please use a user API key.",
      );

      // A name in the text without a definition is as unsafe as a text parameter: its value would
      // be checked against nothing.
      const undeclared = await create(admin, { query: "SELECT {{ id }} AS id", options: {} });
      expect((await admin.get(`/api/queries/${undeclared.id}`)).body.is_safe).toBe(false);
      const keyed = new TestClient(server.url);
      keyed.apiKey = undeclared.api_key;
      const injected = await keyed.post(`/api/queries/${undeclared.id}/results`, {
        parameters: { id: "1 UNION ALL SELECT 2" },
      });
      expect(injected.status).toBe(403);
      expect(injected.body.job.error).toContain("shared dashboard");
      const viewerRun = await viewer.post(`/api/queries/${undeclared.id}/results`, {
        parameters: { id: "1" },
      });
      expect(viewerRun.status).toBe(403);
      expect(viewerRun.body.job.error).toContain("read-only access");

      const refreshed = await admin.post(`/api/queries/${safe.id}/refresh?p_n=1`);
      expect(refreshed.status).toBe(200);
      // A quick run may be answered inline (the fast path) instead of with a job.
      expect(refreshed.body.job ?? refreshed.body.query_result).toBeDefined();
      await settledJob(admin, refreshed.body);
      const noParam = await admin.post(`/api/queries/${safe.id}/refresh`);
      expect(noParam.status).toBe(400);
      expect(noParam.body.job.status).toBe(4);

      await admin.post(`/api/data_sources/${dsId}/pause`, { reason: "busy" });
      const paused = await admin.post(`/api/queries/${safe.id}/results`, { parameters: { n: 1 } });
      expect(paused.body).toEqual({
        job: { status: 4, error: "Shop is paused (busy). Please try later." },
      });
      await admin.delete(`/api/data_sources/${dsId}/pause`);
    });

    it("manages visualizations of queries the caller can modify", async () => {
      const q = await create(member, {});
      const created = await member.post("/api/visualizations", {
        query_id: q.id,
        name: "Chart",
        description: "",
        options: {},
        type: "CHART",
      });
      expect(created.status).toBe(200);
      expect(created.body).toMatchObject({
        name: "Chart",
        description: "",
        options: {},
        type: "CHART",
      });
      const id = created.body.id;
      const { client: peer, id: peerId } = await userClient(
        server,
        `z-${randomName("u")}@example.com`,
      );
      expect((await peer.post(`/api/visualizations/${id}`, { name: "x" })).status).toBe(403);
      expect(
        (await peer.post("/api/visualizations", { query_id: q.id, name: "x", type: "T" })).status,
      ).toBe(403);
      await member.post(`/api/queries/${q.id}/acl`, { access_type: "modify", user_id: peerId });
      const updated = await peer.post(`/api/visualizations/${id}`, {
        name: "Renamed",
        query_id: 999,
        id: 5,
      });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({ id, name: "Renamed", type: "CHART" });
      expect((await admin.post("/api/visualizations", { query_id: q.id, name: "x" })).status).toBe(
        400,
      );
      expect(
        (await admin.post("/api/visualizations", { query_id: q.id, name: "x", type: 5 })).status,
      ).toBe(400);
      expect((await admin.post("/api/visualizations", { name: "x", type: "T" })).status).toBe(400);
      expect(
        (
          await admin.post("/api/visualizations", {
            query_id: other.query.id,
            name: "x",
            type: "T",
          })
        ).status,
      ).toBe(404);
      expect(
        (await admin.post(`/api/visualizations/${other.visualization.id}`, { name: "x" })).status,
      ).toBe(404);
      expect((await admin.delete(`/api/visualizations/${other.visualization.id}`)).status).toBe(
        404,
      );
      const deleted = await peer.delete(`/api/visualizations/${id}`);
      expect(deleted.status).toBe(200);
      expect(deleted.body).toBeNull();
      expect((await admin.delete(`/api/visualizations/${id}`)).status).toBe(404);
    });

    it("manages query snippets", async () => {
      const created = await member.post("/api/query_snippets", {
        trigger: "sel",
        description: "d",
        snippet: "SELECT 1",
      });
      expect(created.status).toBe(200);
      expect(created.body).toMatchObject({
        trigger: "sel",
        description: "d",
        snippet: "SELECT 1",
        user: { id: memberId },
      });
      const id = created.body.id;
      expect(
        (await member.post("/api/query_snippets", { trigger: "x", description: "d" })).status,
      ).toBe(400);
      expect(
        (
          await member.post("/api/query_snippets", {
            trigger: "sel",
            description: "d",
            snippet: "x",
          })
        ).status,
      ).toBe(400);
      const list = await admin.get("/api/query_snippets");
      expect(list.body.map((s: { trigger: string }) => s.trigger)).toEqual(["sel"]);
      expect((await admin.get(`/api/query_snippets/${id}`)).body.snippet).toBe("SELECT 1");
      expect((await admin.get(`/api/query_snippets/${other.snippet.id}`)).status).toBe(404);
      const { client: peer } = await userClient(server, `sn-${randomName("u")}@example.com`);
      const denied = await peer.post(`/api/query_snippets/${id}`, { snippet: "x" });
      expect(denied.status).toBe(403);
      expect(denied.body.message).toBe("You don't have permission to edit this resource.");
      const updated = await member.post(`/api/query_snippets/${id}`, {
        snippet: "SELECT 2",
        user_id: 1,
      });
      expect(updated.body).toMatchObject({
        snippet: "SELECT 2",
        trigger: "sel",
        user: { id: memberId },
      });
      expect((await peer.delete(`/api/query_snippets/${id}`)).status).toBe(403);
      expect((await admin.delete(`/api/query_snippets/${id}`)).body).toBeNull();
      expect((await admin.get(`/api/query_snippets/${id}`)).status).toBe(404);
    });

    it("serves object ACLs", async () => {
      const q = await create(member, {});
      expect((await member.get(`/api/queries/${q.id}/acl`)).body).toEqual({});
      const self = await member.post(`/api/queries/${q.id}/acl`, {
        access_type: "modify",
        user_id: memberId,
      });
      expect(self.status).toBe(200);
      const acl = await member.get(`/api/queries/${q.id}/acl`);
      expect(acl.body.modify[0].id).toBe(memberId);
      expect((await member.get(`/api/queries/${q.id}/acl/modify`)).body).toEqual({
        response: true,
      });
      expect((await admin.get(`/api/queries/${q.id}/acl/modify`)).body).toEqual({
        response: false,
      });
      const again = await member.post(`/api/queries/${q.id}/acl`, {
        access_type: "modify",
        user_id: memberId,
      });
      expect(again.body.id).toBe(self.body.id);
      const { client: peer, id: peerId } = await userClient(
        server,
        `acl-${randomName("u")}@example.com`,
      );
      expect(
        (await peer.post(`/api/queries/${q.id}/acl`, { access_type: "modify", user_id: peerId }))
          .status,
      ).toBe(403);
      expect(
        (
          await member.post(`/api/queries/${q.id}/acl`, {
            access_type: "random string",
            user_id: peerId,
          })
        ).body.message,
      ).toBe("Unknown access type.");
      expect(
        (
          await member.post(`/api/queries/${q.id}/acl`, {
            access_type: "modify",
            user_id: other.user.id,
          })
        ).body.message,
      ).toBe("User not found.");
      expect((await member.get(`/api/queries/${other.query.id}/acl`)).status).toBe(404);
      expect((await member.get(`/api/widgets/${q.id}/acl`)).status).toBe(404);
      expect(
        (
          await peer.request("DELETE", `/api/queries/${q.id}/acl`, {
            json: { access_type: "modify", user_id: memberId },
          })
        ).status,
      ).toBe(403);
      const revoked = await admin.request("DELETE", `/api/queries/${q.id}/acl`, {
        json: { access_type: "modify", user_id: memberId },
      });
      expect(revoked.status).toBe(200);
      expect(revoked.body).toBeNull();
      expect((await member.get(`/api/queries/${q.id}/acl`)).body).toEqual({});
      expect(
        (
          await admin.request("DELETE", `/api/queries/${q.id}/acl`, {
            json: { access_type: "modify", user_id: 987654 },
          })
        ).status,
      ).toBe(400);
    });

    it("creates the Demo data source, paused until its file is ready", async () => {
      const org = await server.ctx.database.db
        .selectFrom("organizations")
        .select("id")
        .where("slug", "=", "default")
        .executeTakeFirstOrThrow();
      const { dataSource, ready } = await createDemoDataSource(server.ctx, org.id);
      const during = await admin.get(`/api/data_sources/${dataSource.id}`);
      expect(during.body).toMatchObject({ name: "Demo", type: "duckdb" });
      await ready;
      expect(fs.existsSync(path.join(server.config.fileDataDir!, DEMO_FILE))).toBe(true);
      const after = await admin.get(`/api/data_sources/${dataSource.id}`);
      expect(after.body.paused).toBe(0);
      expect(Object.values(after.body.groups)).toEqual([false]);
      const schema = await member.get(`/api/data_sources/${dataSource.id}/schema`);
      expect(schema.body.schema.map((t: { name: string }) => t.name)).toEqual(
        expect.arrayContaining(["customers", "orders"]),
      );
    });
  },
);
