import type { Kysely } from "kysely";
import { sql } from "kysely";

/**
 * Version history of queries and dashboards (store/objectVersions.ts): one row per save, with
 * the object's version number that save produced, who and when, the names of the fields that
 * changed, and a deflated full snapshot of the object (with its visualizations or widgets).
 * Self-contained on purpose: it must keep meaning the same thing as the application changes.
 */
export async function up(db: Kysely<unknown>, dialect: "sqlite" | "postgres"): Promise<void> {
  const pg = dialect === "postgres";
  let table = db.schema.createTable("object_versions");
  table = pg
    ? table.addColumn("id", "serial", (c) => c.primaryKey())
    : table.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement());
  await table
    .addColumn("org_id", "integer", (c) =>
      c.notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("object_type", "text", (c) => c.notNull())
    .addColumn("object_id", "integer", (c) => c.notNull())
    .addColumn("version", "integer", (c) => c.notNull())
    .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("changes", "text", (c) => c.notNull())
    .addColumn("snapshot", pg ? sql`bytea` : sql`blob`, (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addUniqueConstraint("object_versions_object_version", ["object_type", "object_id", "version"])
    .execute();
}
