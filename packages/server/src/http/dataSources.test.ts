import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import fs from "node:fs";
import path from "node:path";
import {
  metadataDatabases,
  pgSourceDatabaseUrl,
  plainPgRole,
  postgresAvailable,
  randomName,
} from "../testing/services";
import type { TestServer } from "../testing/testServer";
import { TestClient } from "../testing/httpClient";
import {
  startWithAdmin,
  linkGroup,
  makeSqliteFile,
  newGroup,
  otherOrgObjects,
} from "../testing/apiServer";
import { findDataSource } from "../store/dataSources";
import { readDataSourceOptions } from "../services/dataSourceOptions";
import { userClient } from "../testing/signedIn";

const DATABASES = await metadataDatabases();
const HAS_PG = await postgresAvailable();

describe.each(DATABASES)("data sources API on %s", (db) => {
  let server: TestServer;
  let admin: TestClient;
  let member: TestClient;
  let sqliteId: number;
  let other: Awaited<ReturnType<typeof otherOrgObjects>>;

  beforeAll(async () => {
    ({ server, admin } = await startWithAdmin(db));
    member = (await userClient(server, "member@example.com")).client;
    other = await otherOrgObjects(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  it("lists the types to admins only, with the common options added", async () => {
    const res = await admin.get("/api/data_sources/types");
    expect(res.status).toBe(200);
    const types = res.body.map((t: { type: string }) => t.type);
    expect(types).toEqual(expect.arrayContaining(["sqlite", "duckdb", "pg", "mysql", "json"]));
    const names = res.body.map((t: { name: string }) => t.name.toLowerCase());
    expect(names).toEqual([...names].sort());
    const pgType = res.body.find((t: { type: string }) => t.type === "pg");
    expect(pgType.configuration_schema.required).toEqual(["dbname"]);
    expect(pgType.configuration_schema.secret).toContain("password");
    expect(pgType.configuration_schema.properties.timeout.type).toBe("number");
    expect(pgType.supports_auto_limit).toBe(true);
    expect((await member.get("/api/data_sources/types")).status).toBe(403);
  });

  it("creates a data source linked to the default group; validates input", async () => {
    const file = makeSqliteFile(server);
    const res = await admin.post("/api/data_sources", {
      name: "Shop",
      type: "sqlite",
      options: { dbpath: file },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: "Shop", type: "sqlite", paused: 0, pause_reason: null });
    expect(res.body.options).toEqual({ dbpath: file });
    expect(Object.values(res.body.groups)).toEqual([false]);
    sqliteId = res.body.id;

    expect(
      (await admin.post("/api/data_sources", { name: "x", type: "pg", options: {} })).status,
    ).toBe(400);
    expect(
      (await admin.post("/api/data_sources", { name: "x", type: "nope", options: {} })).status,
    ).toBe(400);
    expect((await admin.post("/api/data_sources", { type: "sqlite", options: {} })).status).toBe(
      400,
    );
    expect((await admin.post("/api/data_sources", { name: "x", type: "sqlite" })).status).toBe(400);
    const longName = { name: "x".repeat(256), type: "sqlite", options: { dbpath: file } };
    const long = await admin.post("/api/data_sources", longName);
    expect([long.status, long.body.message]).toEqual([
      400,
      "name is too long (at most 255 characters).",
    ]);
    const wrongType = await admin.post("/api/data_sources", {
      name: "x",
      type: "pg",
      options: { dbname: "d", port: "5432" },
    });
    expect(wrongType.status).toBe(400);
    const dup = await admin.post("/api/data_sources", {
      name: "Shop",
      type: "sqlite",
      options: { dbpath: file },
    });
    expect(dup.status).toBe(400);
    expect(dup.body.message).toBe("Data source with the name Shop already exists.");
    expect(
      (
        await member.post("/api/data_sources", {
          name: "m",
          type: "sqlite",
          options: { dbpath: file },
        })
      ).status,
    ).toBe(403);
  });

  it("masks secrets and keeps the stored secret when the mask comes back", async () => {
    const created = await admin.post("/api/data_sources", {
      name: "Warehouse",
      type: "pg",
      options: { dbname: "d", password: "hunter2", host: "127.0.0.1" },
    });
    expect(created.status).toBe(200);
    expect(created.body.options.password).toBe("--------");
    expect(created.text).not.toContain("hunter2");
    const id = created.body.id;
    expect((await admin.get(`/api/data_sources/${id}`)).text).not.toContain("hunter2");

    const saved = await admin.post(`/api/data_sources/${id}`, {
      name: "Warehouse",
      type: "pg",
      options: { dbname: "d2", password: "--------" },
    });
    expect(saved.status).toBe(200);
    const row = (await findDataSource(
      server.ctx.database.db,
      saved.body.id === id ? await orgId() : 0,
      id,
    ))!;
    expect(readDataSourceOptions(server.ctx, row)).toEqual({ dbname: "d2", password: "hunter2" });

    const replaced = await admin.post(`/api/data_sources/${id}`, {
      name: "Warehouse",
      type: "pg",
      options: { dbname: "newdb" },
    });
    expect(replaced.status).toBe(200);
    const after = (await findDataSource(server.ctx.database.db, await orgId(), id))!;
    expect(readDataSourceOptions(server.ctx, after)).toEqual({ dbname: "newdb" });
    expect(
      (await admin.post(`/api/data_sources/${id}`, { name: "Warehouse", type: "pg", options: {} }))
        .status,
    ).toBe(400);
    expect(
      (
        await admin.post(`/api/data_sources/${id}`, {
          name: "Shop",
          type: "pg",
          options: { dbname: "x" },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await member.post(`/api/data_sources/${id}`, {
          name: "W",
          type: "pg",
          options: { dbname: "x" },
        })
      ).status,
    ).toBe(403);
    // The encrypted column never holds the plain secret.
    expect(after.encrypted_options).not.toContain("newdb");
  });

  async function orgId() {
    return (
      await server.ctx.database.db
        .selectFrom("organizations")
        .select("id")
        .where("slug", "=", "default")
        .executeTakeFirstOrThrow()
    ).id;
  }

  it("gets one data source with the right detail for each caller", async () => {
    const asAdmin = await admin.get(`/api/data_sources/${sqliteId}`);
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.body.options).toBeDefined();
    // The admin is in the default group, which has full access.
    expect(asAdmin.body.view_only).toBe(false);
    const asMember = await member.get(`/api/data_sources/${sqliteId}`);
    expect(asMember.status).toBe(200);
    expect(asMember.body.options).toBeUndefined();
    expect(asMember.body.view_only).toBe(false);

    const bare = await newGroup(server, randomName("bare"), []);
    await linkGroup(server, sqliteId, bare.id, true);
    const bareUser = (await userClient(server, "bare@example.com", [bare.id])).client;
    expect((await bareUser.get(`/api/data_sources/${sqliteId}`)).body).toEqual({ view_only: true });

    const outsider = (
      await userClient(server, "outsider@example.com", [
        (await newGroup(server, randomName("out"))).id,
      ])
    ).client;
    expect((await outsider.get(`/api/data_sources/${sqliteId}`)).status).toBe(403);
    expect((await admin.get(`/api/data_sources/${other.dataSource.id}`)).status).toBe(404);
    expect((await admin.get("/api/data_sources/999999")).status).toBe(404);
    expect((await admin.get("/api/data_sources/abc")).status).toBe(404);
  });

  it("lists data sources by name with view_only", async () => {
    const asAdmin = await admin.get("/api/data_sources");
    expect(asAdmin.status).toBe(200);
    const names = asAdmin.body.map((d: { name: string }) => d.name);
    expect(names).toEqual(
      [...names].sort((a: string, b: string) => a.toLowerCase().localeCompare(b.toLowerCase())),
    );
    expect(names).not.toContain("Other DS");
    const asMember = await member.get("/api/data_sources");
    expect(asMember.body.find((d: { id: number }) => d.id === sqliteId).view_only).toBe(false);
    expect(asMember.body[0].options).toBeUndefined();
  });

  it("reads and caches the schema, and refreshes it on request", async () => {
    const first = await member.get(`/api/data_sources/${sqliteId}/schema`);
    expect(first.status).toBe(200);
    expect(first.body.schema).toEqual([
      {
        name: "people",
        columns: [
          { name: "id", type: "INTEGER" },
          { name: "name", type: "TEXT" },
          { name: "value", type: "TEXT" },
        ],
      },
    ]);
    const cached = await member.get(`/api/data_sources/${sqliteId}/schema`);
    expect(cached.body).toEqual(first.body);
    expect(
      (await member.get(`/api/data_sources/${sqliteId}/schema?refresh=true`)).body.schema,
    ).toHaveLength(1);
    expect((await admin.get(`/api/data_sources/${other.dataSource.id}/schema`)).status).toBe(404);
  });

  it("reports schema errors as a failed job, which can be polled as Redash's clients do", async () => {
    const json = await admin.post("/api/data_sources", { name: "Api", type: "json", options: {} });
    expect(json.status).toBe(200);
    const res = await admin.get(`/api/data_sources/${json.body.id}/schema`);
    expect(res.body.job.status).toBe(4);
    expect(res.body.job.error.code).toBe(1);
    const polled = await member.get(`/api/jobs/${res.body.job.id}`);
    expect(polled.status).toBe(200);
    expect(polled.body).toEqual(res.body);
    expect((await new TestClient(server.url).get(`/api/jobs/${res.body.job.id}`)).status).toBe(404);
    // A file that went away after the data source was saved.
    const broken = await admin.post("/api/data_sources", {
      name: "Broken",
      type: "sqlite",
      options: { dbpath: makeSqliteFile(server, "going.sqlite") },
    });
    fs.rmSync(path.join(server.config.fileDataDir!, "going.sqlite"));
    const err = await admin.get(`/api/data_sources/${broken.body.id}/schema`);
    expect(err.body.job.error).toMatchObject({ code: 2, message: "Error retrieving schema" });
    expect(err.body.job.error.details).toContain("not found");
    const polledError = await admin.get(`/api/jobs/${err.body.job.id}`);
    expect(polledError.body.job).toMatchObject({
      status: 4,
      error: { code: 2, message: "Error retrieving schema" },
    });
  });

  it("tests connections", async () => {
    expect((await admin.post(`/api/data_sources/${sqliteId}/test`)).body).toEqual({
      message: "success",
      ok: true,
    });
    const broken = await admin.post("/api/data_sources", {
      name: "Broken2",
      type: "sqlite",
      options: { dbpath: makeSqliteFile(server, "going2.sqlite") },
    });
    fs.writeFileSync(path.join(server.config.fileDataDir!, "going2.sqlite"), "not a database");
    const res = await admin.post(`/api/data_sources/${broken.body.id}/test`);
    expect(res.body).toEqual({ ok: false, message: "file is not a database" });
    expect((await member.post(`/api/data_sources/${sqliteId}/test`)).status).toBe(403);
    expect((await admin.post("/api/data_sources/424242/test")).status).toBe(404);
  });

  it("pauses and resumes", async () => {
    const paused = await admin.post(`/api/data_sources/${sqliteId}/pause`, {
      reason: "maintenance",
    });
    expect(paused.status).toBe(200);
    expect(paused.body).toMatchObject({ paused: 1, pause_reason: "maintenance" });
    const noReason = await admin.request(
      "POST",
      `/api/data_sources/${sqliteId}/pause?reason=later`,
    );
    expect(noReason.body).toMatchObject({ paused: 1, pause_reason: "later" });
    const resumed = await admin.delete(`/api/data_sources/${sqliteId}/pause`);
    expect(resumed.body).toMatchObject({ paused: 0, pause_reason: null });
    expect((await member.post(`/api/data_sources/${sqliteId}/pause`)).status).toBe(403);
    expect((await admin.post(`/api/data_sources/${other.dataSource.id}/pause`)).status).toBe(404);
  });

  it("refuses the lazy schema routes for types without databases", async () => {
    expect((await admin.get(`/api/databricks/databases/${sqliteId}`)).status).toBe(400);
    expect((await admin.get(`/api/databricks/databases/${other.dataSource.id}`)).status).toBe(404);
  });

  it.skipIf(!HAS_PG)(
    "serves schema, test and lazy schema routes of a real PostgreSQL",
    async () => {
      const schemaName = randomName("ds").toLowerCase();
      // Not the metadata database, which no data source may read.
      const sourceUrl = await pgSourceDatabaseUrl();
      const client = new pg.Client({ connectionString: sourceUrl });
      await client.connect();
      try {
        await client.query(`CREATE SCHEMA ${schemaName}`);
        await client.query(`CREATE TABLE ${schemaName}.things (id int, label text)`);
        const url = new URL(sourceUrl);
        const created = await admin.post("/api/data_sources", {
          name: randomName("pg"),
          type: "pg",
          options: {
            host: url.hostname,
            port: Number(url.port || 5432),
            // Not a superuser, who could reach the metadata database from here and is refused.
            user: await plainPgRole(),
            dbname: url.pathname.slice(1),
          },
        });
        expect(created.status).toBe(200);
        const id = created.body.id;
        expect((await admin.post(`/api/data_sources/${id}/test`)).body).toEqual({
          message: "success",
          ok: true,
        });
        const schema = await admin.get(`/api/data_sources/${id}/schema?refresh`);
        const table = schema.body.schema.find(
          (t: { name: string }) => t.name === `${schemaName}.things`,
        );
        expect(table.columns.map((c: { name: string }) => c.name)).toEqual(["id", "label"]);
        const dbs = await admin.get(`/api/databricks/databases/${id}`);
        expect(dbs.body).toContain(schemaName);
        const tables = await admin.get(`/api/databricks/databases/${id}/${schemaName}/tables`);
        expect(tables.body).toEqual({
          schema: [{ name: `${schemaName}.things`, columns: [] }],
          has_columns: false,
        });
        const columns = await admin.get(
          `/api/databricks/databases/${id}/${schemaName}/columns/things`,
        );
        expect(columns.body.map((c: { name: string }) => c.name)).toEqual(["id", "label"]);
        const bad = await admin.post("/api/data_sources", {
          name: randomName("pgbad"),
          type: "pg",
          options: { host: url.hostname, port: 1, dbname: "x" },
        });
        const failed = await admin.post(`/api/data_sources/${bad.body.id}/test`);
        expect(failed.body.ok).toBe(false);
      } finally {
        await client.query(`DROP SCHEMA IF EXISTS ${schemaName} CASCADE`);
        await client.end();
      }
    },
  );

  it("deletes a data source (admin), detaching its queries", async () => {
    makeSqliteFile(server);
    const ds = await admin.post("/api/data_sources", {
      name: "Temp",
      type: "sqlite",
      options: { dbpath: "shop.sqlite" },
    });
    const query = await admin.post("/api/queries", {
      name: "q",
      query: "select 1",
      data_source_id: ds.body.id,
    });
    expect(query.status).toBe(200);
    const run = await admin.post(`/api/queries/${query.body.id}/results`, { max_age: 0 });
    const resultId = run.body.query_result.id as number;
    expect((await admin.get(`/api/query_results/${resultId}`)).status).toBe(200);
    expect((await member.delete(`/api/data_sources/${ds.body.id}`)).status).toBe(403);
    const res = await admin.delete(`/api/data_sources/${ds.body.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect((await admin.get(`/api/data_sources/${ds.body.id}`)).status).toBe(404);
    // Its results went with it, fresh ones too (they were also held in memory).
    expect((await admin.get(`/api/query_results/${resultId}`)).status).toBe(404);
    expect((await admin.get(`/api/queries/${query.body.id}`)).body.data_source_id).toBeNull();
    expect((await admin.delete(`/api/data_sources/${other.dataSource.id}`)).status).toBe(404);
  });
});
