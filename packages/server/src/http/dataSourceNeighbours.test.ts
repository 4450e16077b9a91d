import crypto from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { neighbourAccountRefused } from "../runners/pgNeighbour";
import { writeDataSourceOptions } from "../services/dataSourceOptions";
import { defaultGroupId } from "../services/organizationSetup";
import { insertDataSource } from "../store/dataSources";
import { findOrgBySlug } from "../store/organizations";
import { runToResult, settledJob, startWithAdmin } from "../testing/apiServer";
import type { TestClient } from "../testing/httpClient";
import { metadataDatabases, postgresAvailable, TEST_PG_URL } from "../testing/services";
import type { TestServer } from "../testing/testServer";

/**
 * Issue 24: a PostgreSQL data source on another database of the metadata database's server, whose
 * account is a superuser (or can use dblink, postgres_fdw or the server-file roles), read the users'
 * password hashes and API keys through dblink. Such a source is refused at create, save, test and
 * run; a plain account there is fine, and so is a superuser where the metadata is not.
 */

const DATABASES = await metadataDatabases();
const READY = await postgresAvailable();
const pgUrl = new URL(TEST_PG_URL);
const SUPERUSER = decodeURIComponent(pgUrl.username);
const suffix = crypto.randomBytes(4).toString("hex");
/** A login role that is not a superuser, and a scratch database for extensions and grants. */
const PLAIN = `sltest_plain_${suffix}`;
const SCRATCH = `sltest_neighbour_${suffix}`;

async function asSuperuser(sql: string, database = pgUrl.pathname.slice(1)): Promise<void> {
  const url = new URL(TEST_PG_URL);
  url.pathname = `/${database}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Settings for a database of the test server, spelled "localhost" (the metadata URL has 127.0.0.1). */
function on(user: string, dbname: string, host = "localhost") {
  return { host, port: Number(pgUrl.port || 5432), user, dbname, sslmode: "disable" };
}

describe.runIf(READY).each(DATABASES)("PostgreSQL data sources beside %s metadata", (db) => {
  let server: TestServer;
  let admin: TestClient;

  beforeAll(async () => {
    ({ server, admin } = await startWithAdmin(db));
    if (db === "postgres") {
      await asSuperuser(`DROP ROLE IF EXISTS ${PLAIN}`);
      await asSuperuser(`CREATE ROLE ${PLAIN} LOGIN NOSUPERUSER NOCREATEROLE NOCREATEDB`);
      await asSuperuser(`CREATE DATABASE ${SCRATCH}`);
    }
  });
  afterAll(async () => {
    await server?.close();
    if (db === "postgres") {
      await asSuperuser(`DROP DATABASE IF EXISTS ${SCRATCH} WITH (FORCE)`);
      await asSuperuser(`DROP ROLE IF EXISTS ${PLAIN}`);
    }
  });

  const create = (name: string, options: Record<string, unknown>) =>
    admin.post("/api/data_sources", { name, type: "pg", options });

  /** A data source stored as it was before this check existed. */
  async function storedUnchecked(options: Record<string, unknown>) {
    const dbx = server.ctx.database.db;
    const orgId = (await findOrgBySlug(dbx, "default"))!.id;
    const ds = await insertDataSource(dbx, {
      orgId,
      name: `old pg ${Math.random()}`,
      type: "pg",
      encryptedOptions: writeDataSourceOptions(server.ctx, options),
      groupId: await defaultGroupId(dbx, orgId),
    });
    return ds.id;
  }

  async function runError(dataSourceId: number): Promise<unknown> {
    const run = await admin.post("/api/query_results", {
      query: "SELECT 1 AS one",
      data_source_id: dataSourceId,
      max_age: 0,
    });
    return (await settledJob(admin, run.body))?.error ?? run.body;
  }

  it.runIf(db === "sqlite")("allows a superuser account where the metadata is not", async () => {
    const res = await create("Super", on(SUPERUSER, "postgres"));
    expect(res.status, res.text).toBe(200);
    expect((await admin.post(`/api/data_sources/${res.body.id}/test`)).body).toMatchObject({
      ok: true,
    });
    expect(await runToResult(admin, res.body.id, "SELECT 1 AS one")).toBeGreaterThan(0);
  });

  it.runIf(db === "postgres")(
    "allows a plain account on another database of the metadata server",
    async () => {
      const res = await create("Plain", on(PLAIN, "postgres"));
      expect(res.status, res.text).toBe(200);
      expect((await admin.post(`/api/data_sources/${res.body.id}/test`)).body).toEqual({
        message: "success",
        ok: true,
      });
      expect(await runToResult(admin, res.body.id, "SELECT current_user")).toBeGreaterThan(0);
    },
  );

  it.runIf(db === "postgres")(
    "refuses a superuser account there at create, save, test and run, saying why",
    async () => {
      const superuser = neighbourAccountRefused(["is a superuser"]);
      for (const host of ["localhost", "127.0.0.1"]) {
        const res = await create("Super", on(SUPERUSER, "postgres", host));
        expect([res.status, res.body], host).toEqual([400, { message: superuser }]);
      }
      const plain = await create("Plain then super", on(PLAIN, "postgres"));
      expect(plain.status).toBe(200);
      const saved = await admin.post(`/api/data_sources/${plain.body.id}`, {
        name: "Plain then super",
        type: "pg",
        options: on(SUPERUSER, "postgres"),
      });
      expect([saved.status, saved.body]).toEqual([400, { message: superuser }]);
      const names = (await admin.get("/api/data_sources")).body.map((d: any) => d.name);
      expect(names).not.toContain("Super");

      // Saved before the check: refused by Test Connection and by every run.
      const old = await storedUnchecked(on(SUPERUSER, "postgres", "127.0.0.1"));
      const tested = await admin.post(`/api/data_sources/${old}/test`);
      expect([tested.status, tested.body]).toEqual([400, { message: superuser }]);
      expect(await runError(old)).toBe(superuser);
    },
  );

  it.runIf(db === "postgres")(
    "refuses a plain account that can use dblink, postgres_fdw, pg_read_file or the file roles",
    async () => {
      const options = on(PLAIN, SCRATCH);
      expect((await create("Scratch", options)).status).toBe(200);
      const old = await storedUnchecked(options);
      const expectRefused = async (reasons: string[]) => {
        const message = neighbourAccountRefused(reasons);
        const res = await create(`Scratch ${Math.random()}`, options);
        expect([res.status, res.body]).toEqual([400, { message }]);
        expect((await admin.post(`/api/data_sources/${old}/test`)).body).toEqual({ message });
        expect(await runError(old)).toBe(message);
      };

      // dblink: its functions are executable by everyone once installed.
      await asSuperuser("CREATE EXTENSION dblink", SCRATCH);
      await expectRefused(["can use dblink"]);
      await asSuperuser("DROP EXTENSION dblink", SCRATCH);

      // postgres_fdw: installed alone it grants nothing; USAGE on the wrapper opens it.
      await asSuperuser("CREATE EXTENSION postgres_fdw", SCRATCH);
      expect((await admin.post(`/api/data_sources/${old}/test`)).body).toMatchObject({ ok: true });
      await asSuperuser(`GRANT USAGE ON FOREIGN DATA WRAPPER postgres_fdw TO ${PLAIN}`, SCRATCH);
      await expectRefused(["can use postgres_fdw"]);
      await asSuperuser("DROP EXTENSION postgres_fdw CASCADE", SCRATCH);

      await asSuperuser(`GRANT EXECUTE ON FUNCTION pg_read_file(text) TO ${PLAIN}`, SCRATCH);
      await expectRefused(["can run pg_read_file"]);
      await asSuperuser(`REVOKE EXECUTE ON FUNCTION pg_read_file(text) FROM ${PLAIN}`, SCRATCH);

      await asSuperuser(`GRANT pg_read_server_files TO ${PLAIN}`);
      await expectRefused(["is a member of pg_read_server_files"]);
      await asSuperuser(`REVOKE pg_read_server_files FROM ${PLAIN}`);

      expect((await admin.post(`/api/data_sources/${old}/test`)).body).toMatchObject({ ok: true });
    },
  );
});
