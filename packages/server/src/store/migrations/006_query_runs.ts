import type { Kysely } from "kysely";

/**
 * One row per finished execution (store/queryRuns.ts): the query (null for ad hoc), its data
 * source, who ran it (null user and `scheduled` for the scheduler), when it started, how long it
 * took, the rows it returned, how it ended and the error shown to users (never a secret).
 * Self-contained on purpose: it must keep meaning the same thing as the application changes.
 */
export async function up(db: Kysely<unknown>, dialect: "sqlite" | "postgres"): Promise<void> {
  const pg = dialect === "postgres";
  let table = db.schema.createTable("query_runs");
  table = pg
    ? table.addColumn("id", "serial", (c) => c.primaryKey())
    : table.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement());
  await table
    .addColumn("org_id", "integer", (c) =>
      c.notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("query_id", "integer", (c) => c.references("queries.id").onDelete("cascade"))
    .addColumn("data_source_id", "integer", (c) =>
      c.references("data_sources.id").onDelete("set null"),
    )
    .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("scheduled", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("error", "text")
    .addColumn("rows", "integer")
    .addColumn("result_id", "integer")
    .addColumn("started_at", "text", (c) => c.notNull())
    .addColumn("runtime", "real", (c) => c.notNull())
    .execute();
  // "The last 50 runs of query X" and "the last scheduled run of each listed query".
  await db.schema
    .createIndex("query_runs_query_id")
    .on("query_runs")
    .columns(["query_id", "id"])
    .execute();
}
