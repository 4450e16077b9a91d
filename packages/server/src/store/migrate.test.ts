import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { dropPgSchema, openDatabase } from "./database";
import zlib from "node:zlib";
import { migrate } from "./migrate";
import { up as rowObjectChunks } from "./migrations/002_row_object_chunks";
import { loadResultMeta, readResultRows, queryResultJsonStream } from "../results";
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

describe.each(DATABASES)("chunk format migration on %s", (kind) => {
  it("rewrites chunks of row arrays as row objects and leaves converted ones alone", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sl-chunks-"));
    const schema = randomName("c").toLowerCase();
    const url = kind === "sqlite" ? path.join(dir, "meta.db") : TEST_PG_URL;
    const database = await openDatabase(url, kind === "postgres" ? { pgSchema: schema } : {});
    try {
      await migrate(database);
      const db = database.db;
      const t = "2024-01-01T00:00:00.000Z";
      const org = await db
        .insertInto("organizations")
        .values({ name: "o", slug: "o", settings: "{}", created_at: t, updated_at: t })
        .returning("id")
        .executeTakeFirstOrThrow();
      const source = await db
        .insertInto("data_sources")
        .values({
          org_id: org.id,
          name: "d",
          type: "sqlite",
          encrypted_options: "",
          queue_name: "q",
          scheduled_queue_name: "s",
          paused: false,
          pause_reason: null,
          created_at: t,
          updated_at: t,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      const columns = [
        { name: "n", friendly_name: "n", type: "integer" },
        { name: "s", friendly_name: "s", type: "string" },
      ];
      const result = await db
        .insertInto("query_results")
        .values({
          org_id: org.id,
          data_source_id: source.id,
          query_hash: "h",
          query: "q",
          runtime: 0,
          retrieved_at: t,
          columns: JSON.stringify(columns),
          row_count: 3,
          byte_size: 0,
          truncated: false,
          log: "[]",
          chunk_count: 2,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      const chunk = (seq: number, text: string, rows: number) => ({
        result_id: result.id,
        seq,
        row_count: rows,
        data: zlib.deflateSync(text),
      });
      await db
        .insertInto("query_result_chunks")
        .values([chunk(0, '[[1,"a"],[2,null]]', 2), chunk(1, '{"n":3,"s":"already converted"}', 1)])
        .execute();

      await rowObjectChunks(db as never);

      const meta = (await loadResultMeta(db, org.id, result.id))!;
      const rows = [];
      for await (const batch of readResultRows(db, meta)) rows.push(...batch);
      expect(rows).toEqual([
        [1, "a"],
        [2, null],
        [3, "already converted"],
      ]);
      let json = "";
      for await (const piece of queryResultJsonStream(db, meta)) json += piece.toString();
      expect(JSON.parse(json).query_result.data.rows[0]).toEqual({ n: 1, s: "a" });
    } finally {
      await database.close();
      fs.rmSync(dir, { recursive: true, force: true });
      if (kind === "postgres") await dropPgSchema(TEST_PG_URL, schema);
    }
  });
});
