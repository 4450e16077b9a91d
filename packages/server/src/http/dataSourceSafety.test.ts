import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { METADATA_DATABASE_REFUSED } from "../runners/pgSafety";
import { FILE_IN_OTHER_FOLDER, FOLDER_NOT_OWN } from "../services/dataSourceChecks";
import { writeDataSourceOptions } from "../services/dataSourceOptions";
import { defaultGroupId } from "../services/organizationSetup";
import { insertDataSource } from "../store/dataSources";
import { findOrgBySlug } from "../store/organizations";
import type { TestClient } from "../testing/httpClient";
import { metadataDatabases, plainPgRole, TEST_PG_URL } from "../testing/services";
import type { TestServer } from "../testing/testServer";
import { startWithAdmin, makeSqliteFile } from "../testing/apiServer";

/**
 * What a data source may point at, checked when it is created, saved and tested (SECURITY.md
 * rule 3): its files inside the allowed folder and its own, never Sightline's metadata database.
 */

const DATABASES = await metadataDatabases();

describe.each(DATABASES)("data source safety on %s metadata", (db) => {
  let server: TestServer;
  let admin: TestClient;
  let root: string;

  beforeAll(async () => {
    ({ server, admin } = await startWithAdmin(db));
    fs.mkdirSync(server.config.fileDataDir!, { recursive: true });
    root = fs.realpathSync(server.config.fileDataDir!);
  });
  afterAll(async () => {
    await server?.close();
  });

  /** A data source stored as it was before these checks existed. */
  async function storedUnchecked(type: string, options: Record<string, unknown>) {
    const dbx = server.ctx.database.db;
    const orgId = (await findOrgBySlug(dbx, "default"))!.id;
    const ds = await insertDataSource(dbx, {
      orgId,
      name: `old ${type} ${Math.random()}`,
      type,
      encryptedOptions: writeDataSourceOptions(server.ctx, options),
      groupId: await defaultGroupId(dbx, orgId),
    });
    return ds.id;
  }

  function folder(name: string): string {
    fs.mkdirSync(path.join(root, name), { recursive: true });
    return name;
  }

  it("checks SQLite and DuckDB paths when a data source is created or saved, naming the allowed folder", async () => {
    const refused = [
      { type: "sqlite", options: { dbpath: "missing.sqlite" }, says: "not found" },
      { type: "sqlite", options: { dbpath: "/etc/passwd" }, says: "must be inside" },
      { type: "duckdb", options: { dbpath: "missing.duckdb" }, says: "not found" },
      { type: "duckdb", options: { dbpath: ":memory:", files_folder: "nope" }, says: "not found" },
      { type: "duckdb", options: { dbpath: ":memory:", files_folder: "/etc" }, says: "must be" },
    ];
    for (const { type, options, says } of refused) {
      const res = await admin.post("/api/data_sources", { name: "Bad path", type, options });
      expect(res.status, JSON.stringify(options)).toBe(400);
      expect(res.body.message).toContain(says);
      expect(res.body.message).toContain(root);
    }
    const list = await admin.get("/api/data_sources");
    expect(list.body.map((d: { name: string }) => d.name)).not.toContain("Bad path");

    const good = await admin.post("/api/data_sources", {
      name: "Good path",
      type: "sqlite",
      options: { dbpath: makeSqliteFile(server, "good.sqlite") },
    });
    expect(good.status).toBe(200);
    const saved = await admin.post(`/api/data_sources/${good.body.id}`, {
      name: "Good path",
      type: "sqlite",
      options: { dbpath: "gone.sqlite" },
    });
    expect(saved.status).toBe(400);
    expect(saved.body.message).toContain(root);
    expect((await admin.get(`/api/data_sources/${good.body.id}`)).body.options).toEqual({
      dbpath: "good.sqlite",
    });
  });

  it("gives each DuckDB files folder to one data source only, never the allowed folder itself", async () => {
    const duckdb = (name: string, options: Record<string, unknown>) =>
      admin.post("/api/data_sources", { name, type: "duckdb", options });
    const whole = await duckdb("Everything", { dbpath: ":memory:", files_folder: "." });
    expect(whole.status).toBe(400);
    expect(whole.body.message).toContain("not that folder itself");

    const alpha = await duckdb("Alpha", { dbpath: ":memory:", files_folder: folder("alpha") });
    expect(alpha.status).toBe(200);
    for (const files_folder of ["alpha", folder("alpha/inner"), `${root}/alpha/`]) {
      const res = await duckdb("Beta", { dbpath: ":memory:", files_folder });
      expect(res.status, files_folder).toBe(400);
      expect(res.body.message).toBe(FOLDER_NOT_OWN);
    }
    // A database file in another source's files folder could be overwritten by its users.
    makeSqliteFile(server, "alpha/inside.sqlite");
    const inside = await admin.post("/api/data_sources", {
      name: "Inside",
      type: "sqlite",
      options: { dbpath: "alpha/inside.sqlite" },
    });
    expect(inside.status).toBe(400);
    expect(inside.body.message).toBe(FILE_IN_OTHER_FOLDER);
    // A folder holding another source's database file, or another's folder.
    folder("gamma");
    const shop = await admin.post("/api/data_sources", {
      name: "Gamma shop",
      type: "sqlite",
      options: { dbpath: makeSqliteFile(server, "gamma/shop.sqlite") },
    });
    expect(shop.status).toBe(200);
    const holding = await duckdb("Gamma files", { dbpath: ":memory:", files_folder: "gamma" });
    expect(holding.body.message).toBe(FOLDER_NOT_OWN);
    folder("outer/alpha2");
    expect(
      (await duckdb("Alpha2", { dbpath: ":memory:", files_folder: "outer/alpha2" })).status,
    ).toBe(200);
    expect((await duckdb("Outer", { dbpath: ":memory:", files_folder: "outer" })).body).toEqual({
      message: FOLDER_NOT_OWN,
    });
    // Saving a source keeps its own folder; moving it onto another's is refused.
    const beta = await duckdb("Beta", { dbpath: ":memory:", files_folder: folder("beta") });
    expect(beta.status).toBe(200);
    const resave = (files_folder: string) =>
      admin.post(`/api/data_sources/${beta.body.id}`, {
        name: "Beta",
        type: "duckdb",
        options: { dbpath: ":memory:", files_folder },
      });
    expect((await resave("beta")).status).toBe(200);
    expect((await resave("alpha")).status).toBe(400);

    // Settings saved before the check: Test Connection refuses them, and runs refuse the root.
    const old = await storedUnchecked("duckdb", { dbpath: ":memory:", files_folder: "." });
    const tested = await admin.post(`/api/data_sources/${old}/test`);
    expect(tested.status).toBe(400);
    expect(tested.body.message).toContain("not that folder itself");
    const oldAlpha = await storedUnchecked("duckdb", { dbpath: ":memory:", files_folder: "alpha" });
    expect((await admin.post(`/api/data_sources/${oldAlpha}/test`)).body).toEqual({
      message: FOLDER_NOT_OWN,
    });
  });

  const pgUrl = new URL(TEST_PG_URL);
  const metadataSpellings = [
    { host: "localhost", port: 5432, dbname: pgUrl.pathname.slice(1).toUpperCase() },
    { host: "127.0.0.1", dbname: pgUrl.pathname.slice(1) },
    { host: "::1", port: 5432, dbname: pgUrl.pathname.slice(1) },
  ];

  it.runIf(db === "postgres")(
    "refuses the metadata database as a PostgreSQL data source, at create, save, test and run",
    async () => {
      for (const options of metadataSpellings) {
        const res = await admin.post("/api/data_sources", { name: "Meta", type: "pg", options });
        expect(res.status, JSON.stringify(options)).toBe(400);
        expect(res.body).toEqual({ message: METADATA_DATABASE_REFUSED });
      }
      const other = await admin.post("/api/data_sources", {
        name: "Other pg",
        type: "pg",
        // A superuser beside the metadata database is refused too (dataSourceNeighbours.test).
        options: { host: "localhost", dbname: "postgres", user: await plainPgRole() },
      });
      expect(other.status).toBe(200);
      const moved = await admin.post(`/api/data_sources/${other.body.id}`, {
        name: "Other pg",
        type: "pg",
        options: { ...metadataSpellings[0], user: decodeURIComponent(pgUrl.username) },
      });
      expect(moved.body).toEqual({ message: METADATA_DATABASE_REFUSED });

      // Saved before the check: refused by Test Connection, and by every run once connected.
      const old = await storedUnchecked("pg", {
        host: pgUrl.hostname,
        port: Number(pgUrl.port || 5432),
        user: decodeURIComponent(pgUrl.username),
        dbname: pgUrl.pathname.slice(1),
        sslmode: "disable",
      });
      const tested = await admin.post(`/api/data_sources/${old}/test`);
      expect(tested.status).toBe(400);
      expect(tested.body).toEqual({ message: METADATA_DATABASE_REFUSED });
      let res = await admin.post("/api/query_results", {
        query: "SELECT password_hash FROM users",
        data_source_id: old,
        max_age: 0,
      });
      if (res.body.job && !res.body.job.error) {
        const deadline = Date.now() + 20_000;
        while (res.body.job.status < 3 && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 100));
          res = await admin.get(`/api/jobs/${res.body.job.id}`);
        }
      }
      expect(res.body.job).toMatchObject({ status: 4, error: METADATA_DATABASE_REFUSED });
    },
  );

  it.runIf(db === "sqlite")("refuses the metadata SQLite file for SQLite and DuckDB", async () => {
    const metadataFile = path.resolve(server.config.databaseUrl);
    for (const type of ["sqlite", "duckdb"]) {
      const res = await admin.post("/api/data_sources", {
        name: "Meta file",
        type,
        options: { dbpath: metadataFile },
      });
      expect(res.status, type).toBe(400);
      expect(res.body.message).toContain(root);
    }
  });

  it.runIf(db === "sqlite")(
    "allows a PostgreSQL data source where the metadata is not",
    async () => {
      const res = await admin.post("/api/data_sources", {
        name: "Test pg",
        type: "pg",
        options: metadataSpellings[0],
      });
      expect(res.status).toBe(200);
    },
  );
});
