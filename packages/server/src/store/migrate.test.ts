import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { dropPgSchema, openDatabase } from "./database";
import { migrate } from "./migrate";
import { TEST_PG_URL, metadataDatabases, randomName } from "../testing/services";

const DATABASES = await metadataDatabases();

describe.each(DATABASES)("migrations on %s", (kind) => {
  it("create every table, run twice safely and keep existing data", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sl-migrate-"));
    const schema = randomName("m").toLowerCase();
    const url = kind === "sqlite" ? path.join(dir, "meta.db") : TEST_PG_URL;
    const open = () => openDatabase(url, kind === "postgres" ? { pgSchema: schema } : {});
    try {
      let database = await open();
      await migrate(database);
      await database.db
        .insertInto("organizations")
        .values({ name: "Acme", slug: "default", settings: "{}", created_at: "t", updated_at: "t" })
        .execute();
      await database.close();

      database = await open();
      await migrate(database);
      const orgs = await database.db.selectFrom("organizations").selectAll().execute();
      expect(orgs.map((o) => o.name)).toEqual(["Acme"]);
      const tables = (await database.db.introspection.getTables()).map((t) => t.name);
      for (const table of [
        "organizations",
        "users",
        "groups",
        "user_groups",
        "api_keys",
        "data_sources",
        "data_source_groups",
        "queries",
        "query_results",
        "query_result_chunks",
        "visualizations",
        "dashboards",
        "widgets",
        "alerts",
        "alert_subscriptions",
        "notification_destinations",
        "favorites",
        "events",
        "changes",
        "access_permissions",
        "query_snippets",
      ]) {
        expect(tables).toContain(table);
      }
      await database.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      if (kind === "postgres") await dropPgSchema(TEST_PG_URL, schema);
    }
  });
});

describe.skipIf(!DATABASES.includes("postgres"))("migrations beside other schemas", () => {
  // Another schema being dropped while we migrate (another installation, a test ending) once
  // failed the migration: Kysely's introspector resolved every table of every schema by name.
  it("look only at their own schema, so other schemas coming and going cannot break them", async () => {
    const ours = randomName("m").toLowerCase();
    const other = randomName("o").toLowerCase();
    const admin = new pg.Client({ connectionString: TEST_PG_URL });
    await admin.connect();
    try {
      await admin.query(`CREATE SCHEMA ${other}; CREATE TABLE ${other}.stranger (id serial)`);
      const database = await openDatabase(TEST_PG_URL, { pgSchema: ours });
      // Drop and recreate the other schema over and over while this one migrates.
      let churning = true;
      const churn = (async () => {
        while (churning) {
          await admin.query(`DROP SCHEMA IF EXISTS ${other} CASCADE`);
          await admin.query(`CREATE SCHEMA ${other}; CREATE TABLE ${other}.stranger (id serial)`);
        }
      })();
      try {
        await migrate(database);
        const tables = await database.db.introspection.getTables();
        expect(tables.map((t) => t.name)).not.toContain("stranger");
        expect(new Set(tables.map((t) => t.schema))).toEqual(new Set([ours]));
      } finally {
        churning = false;
        await churn;
        await database.close();
      }
    } finally {
      await admin.query(`DROP SCHEMA IF EXISTS ${other} CASCADE`);
      await admin.end();
      await dropPgSchema(TEST_PG_URL, ours);
    }
  });
});
