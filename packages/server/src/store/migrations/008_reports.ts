import { sql, type Kysely } from "kysely";

/**
 * Scheduled reports (reports/): a subscription sends a dashboard (or one query visualization) on
 * a schedule to e-mail addresses and alert destinations; each sending is a run, whose pinned
 * result ids (`results`) are what the renderer paints, so a retry never runs a query again.
 * Self-contained on purpose: it must keep meaning the same thing as the application changes.
 */
export async function up(db: Kysely<unknown>, dialect: "sqlite" | "postgres"): Promise<void> {
  const pg = dialect === "postgres";
  let subscriptions = db.schema.createTable("report_subscriptions");
  subscriptions = pg
    ? subscriptions.addColumn("id", "serial", (c) => c.primaryKey())
    : subscriptions.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement());
  await subscriptions
    .addColumn("org_id", "integer", (c) =>
      c.notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("dashboard_id", "integer", (c) => c.references("dashboards.id").onDelete("cascade"))
    .addColumn("query_id", "integer", (c) => c.references("queries.id").onDelete("cascade"))
    .addColumn("visualization_id", "integer", (c) =>
      c.references("visualizations.id").onDelete("cascade"),
    )
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("schedule", "text", (c) => c.notNull())
    .addColumn("format", "text", (c) => c.notNull())
    .addColumn("recipients", "text", (c) => c.notNull())
    .addColumn("parameters", "text", (c) => c.notNull())
    .addColumn("skip_if_empty", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("only_if_changed", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("active", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("last_scheduled_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("report_subscriptions_dashboard_id")
    .on("report_subscriptions")
    .column("dashboard_id")
    .execute();
  await db.schema
    .createIndex("report_subscriptions_query_id")
    .on("report_subscriptions")
    .column("query_id")
    .execute();

  let runs = db.schema.createTable("report_runs");
  runs = pg
    ? runs.addColumn("id", "serial", (c) => c.primaryKey())
    : runs.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement());
  await runs
    .addColumn("org_id", "integer", (c) =>
      c.notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("subscription_id", "integer", (c) =>
      c.notNull().references("report_subscriptions.id").onDelete("cascade"),
    )
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("trigger", "text", (c) => c.notNull())
    .addColumn("started_at", "text", (c) => c.notNull())
    .addColumn("finished_at", "text")
    .addColumn("duration_ms", "integer")
    .addColumn("recipients", "text", (c) => c.notNull())
    .addColumn("error", "text")
    .addColumn("widgets", "text", (c) => c.notNull())
    // JSON: widget id -> {result_id} or {error}; set once, before the first paint.
    .addColumn("results", "text")
    .addColumn("digest", "text")
    .addColumn("thumbnail", pg ? sql`bytea` : sql`blob`)
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("claimed_at", "text")
    // The nonce of the one print token that may still be used (cleared when it is).
    .addColumn("print_nonce", "text")
    .execute();
  await db.schema
    .createIndex("report_runs_subscription_id")
    .on("report_runs")
    .columns(["subscription_id", "id"])
    .execute();
  await db.schema.createIndex("report_runs_status").on("report_runs").column("status").execute();
}
