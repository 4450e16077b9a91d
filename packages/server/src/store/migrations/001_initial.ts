import type { ColumnDefinitionBuilder, CreateTableBuilder, Kysely } from "kysely";
import { sql } from "kysely";

type Table = CreateTableBuilder<string, string>;
type Col = (c: ColumnDefinitionBuilder) => ColumnDefinitionBuilder;

/**
 * The whole product's schema, created at once so later features (dashboards, alerts, destinations)
 * need no rework. Portable column types only: integer ids, text timestamps and JSON, booleans.
 */
export async function up(db: Kysely<unknown>, dialect: "sqlite" | "postgres"): Promise<void> {
  const pg = dialect === "postgres";
  const id = (t: Table): Table =>
    pg
      ? t.addColumn("id", "serial", (c) => c.primaryKey())
      : t.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement());
  const notNull: Col = (c) => c.notNull();
  const ref =
    (table: string, onDelete: "cascade" | "set null" = "cascade"): Col =>
    (c) =>
      c.references(`${table}.id`).onDelete(onDelete);
  const refNotNull =
    (table: string): Col =>
    (c) =>
      c.notNull().references(`${table}.id`).onDelete("cascade");
  const timestamps = (t: Table): Table =>
    t.addColumn("created_at", "text", notNull).addColumn("updated_at", "text", notNull);
  const falseDefault: Col = (c) => c.notNull().defaultTo(false);
  const blob = pg ? sql`bytea` : sql`blob`;

  await timestamps(
    id(db.schema.createTable("organizations"))
      .addColumn("name", "text", notNull)
      .addColumn("slug", "text", (c) => c.notNull().unique())
      .addColumn("settings", "text", (c) => c.notNull().defaultTo("{}")),
  ).execute();

  await timestamps(
    id(db.schema.createTable("users"))
      .addColumn("org_id", "integer", refNotNull("organizations"))
      .addColumn("name", "text", notNull)
      .addColumn("email", "text", notNull)
      .addColumn("password_hash", "text")
      .addColumn("api_key", "text", (c) => c.notNull().unique())
      .addColumn("profile_image_url", "text")
      .addColumn("is_invitation_pending", "boolean", falseDefault)
      .addColumn("is_email_verified", "boolean", (c) => c.notNull().defaultTo(true))
      .addColumn("disabled_at", "text")
      .addColumn("active_at", "text")
      .addColumn("session_token", "text", notNull)
      .addUniqueConstraint("users_org_email", ["org_id", "email"]),
  ).execute();

  await id(db.schema.createTable("groups"))
    .addColumn("org_id", "integer", refNotNull("organizations"))
    .addColumn("type", "text", notNull)
    .addColumn("name", "text", notNull)
    .addColumn("permissions", "text", notNull)
    .addColumn("created_at", "text", notNull)
    .execute();

  await db.schema
    .createTable("user_groups")
    .addColumn("user_id", "integer", refNotNull("users"))
    .addColumn("group_id", "integer", refNotNull("groups"))
    .addPrimaryKeyConstraint("user_groups_pk", ["user_id", "group_id"])
    .execute();

  await timestamps(
    id(db.schema.createTable("api_keys"))
      .addColumn("org_id", "integer", refNotNull("organizations"))
      .addColumn("api_key", "text", (c) => c.notNull().unique())
      .addColumn("active", "boolean", (c) => c.notNull().defaultTo(true))
      .addColumn("object_type", "text", notNull)
      .addColumn("object_id", "integer", notNull)
      .addColumn("created_by_id", "integer", ref("users", "set null")),
  ).execute();

  await timestamps(
    id(db.schema.createTable("data_sources"))
      .addColumn("org_id", "integer", refNotNull("organizations"))
      .addColumn("name", "text", notNull)
      .addColumn("type", "text", notNull)
      .addColumn("encrypted_options", "text", notNull)
      .addColumn("queue_name", "text", (c) => c.notNull().defaultTo("queries"))
      .addColumn("scheduled_queue_name", "text", (c) => c.notNull().defaultTo("scheduled_queries"))
      .addColumn("paused", "boolean", falseDefault)
      .addColumn("pause_reason", "text")
      .addUniqueConstraint("data_sources_org_name", ["org_id", "name"]),
  ).execute();

  await id(db.schema.createTable("data_source_groups"))
    .addColumn("data_source_id", "integer", refNotNull("data_sources"))
    .addColumn("group_id", "integer", refNotNull("groups"))
    .addColumn("view_only", "boolean", falseDefault)
    .addUniqueConstraint("data_source_groups_link", ["data_source_id", "group_id"])
    .execute();

  await id(db.schema.createTable("query_results"))
    .addColumn("org_id", "integer", refNotNull("organizations"))
    .addColumn("data_source_id", "integer", refNotNull("data_sources"))
    .addColumn("query_hash", "text", notNull)
    .addColumn("query", "text", notNull)
    .addColumn("runtime", "real", notNull)
    .addColumn("retrieved_at", "text", notNull)
    .addColumn("columns", "text", notNull)
    .addColumn("row_count", "integer", notNull)
    .addColumn("byte_size", "integer", notNull)
    .addColumn("truncated", "boolean", falseDefault)
    .addColumn("log", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("chunk_count", "integer", notNull)
    .execute();

  await db.schema
    .createTable("query_result_chunks")
    .addColumn("result_id", "integer", refNotNull("query_results"))
    .addColumn("seq", "integer", notNull)
    .addColumn("row_count", "integer", notNull)
    .addColumn("data", blob, notNull)
    .addPrimaryKeyConstraint("query_result_chunks_pk", ["result_id", "seq"])
    .execute();

  await timestamps(
    id(db.schema.createTable("queries"))
      .addColumn("version", "integer", (c) => c.notNull().defaultTo(1))
      .addColumn("org_id", "integer", refNotNull("organizations"))
      .addColumn("data_source_id", "integer", ref("data_sources", "set null"))
      .addColumn("latest_query_data_id", "integer", ref("query_results", "set null"))
      .addColumn("name", "text", notNull)
      .addColumn("description", "text")
      .addColumn("query", "text", notNull)
      .addColumn("query_hash", "text", notNull)
      .addColumn("api_key", "text", notNull)
      .addColumn("user_id", "integer", refNotNull("users"))
      .addColumn("last_modified_by_id", "integer", ref("users", "set null"))
      .addColumn("is_archived", "boolean", falseDefault)
      .addColumn("is_draft", "boolean", (c) => c.notNull().defaultTo(true))
      .addColumn("schedule", "text")
      .addColumn("schedule_failures", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("options", "text", (c) => c.notNull().defaultTo("{}"))
      .addColumn("tags", "text", (c) => c.notNull().defaultTo("[]")),
  ).execute();

  await timestamps(
    id(db.schema.createTable("visualizations"))
      .addColumn("type", "text", notNull)
      .addColumn("query_id", "integer", refNotNull("queries"))
      .addColumn("name", "text", notNull)
      .addColumn("description", "text")
      .addColumn("options", "text", (c) => c.notNull().defaultTo("{}")),
  ).execute();

  await timestamps(
    id(db.schema.createTable("dashboards"))
      .addColumn("version", "integer", (c) => c.notNull().defaultTo(1))
      .addColumn("org_id", "integer", refNotNull("organizations"))
      .addColumn("slug", "text", notNull)
      .addColumn("name", "text", notNull)
      .addColumn("user_id", "integer", refNotNull("users"))
      .addColumn("layout", "text", (c) => c.notNull().defaultTo("[]"))
      .addColumn("dashboard_filters_enabled", "boolean", falseDefault)
      .addColumn("is_archived", "boolean", falseDefault)
      .addColumn("is_draft", "boolean", (c) => c.notNull().defaultTo(true))
      .addColumn("tags", "text", (c) => c.notNull().defaultTo("[]"))
      .addColumn("options", "text", (c) => c.notNull().defaultTo("{}")),
  ).execute();

  await timestamps(
    id(db.schema.createTable("widgets"))
      .addColumn("dashboard_id", "integer", refNotNull("dashboards"))
      .addColumn("visualization_id", "integer", ref("visualizations"))
      .addColumn("text", "text")
      .addColumn("width", "integer", (c) => c.notNull().defaultTo(1))
      .addColumn("options", "text", (c) => c.notNull().defaultTo("{}")),
  ).execute();

  await timestamps(
    id(db.schema.createTable("alerts"))
      .addColumn("org_id", "integer", refNotNull("organizations"))
      .addColumn("name", "text", notNull)
      .addColumn("query_id", "integer", refNotNull("queries"))
      .addColumn("user_id", "integer", refNotNull("users"))
      .addColumn("options", "text", (c) => c.notNull().defaultTo("{}"))
      .addColumn("state", "text", (c) => c.notNull().defaultTo("unknown"))
      .addColumn("last_triggered_at", "text")
      .addColumn("rearm", "integer"),
  ).execute();

  await timestamps(
    id(db.schema.createTable("notification_destinations"))
      .addColumn("org_id", "integer", refNotNull("organizations"))
      .addColumn("user_id", "integer", refNotNull("users"))
      .addColumn("name", "text", notNull)
      .addColumn("type", "text", notNull)
      .addColumn("encrypted_options", "text", notNull)
      .addUniqueConstraint("destinations_org_name", ["org_id", "name"]),
  ).execute();

  await timestamps(
    id(db.schema.createTable("alert_subscriptions"))
      .addColumn("user_id", "integer", refNotNull("users"))
      .addColumn("destination_id", "integer", ref("notification_destinations"))
      .addColumn("alert_id", "integer", refNotNull("alerts"))
      .addUniqueConstraint("alert_subscriptions_unique", ["destination_id", "alert_id"]),
  ).execute();

  await timestamps(
    id(db.schema.createTable("favorites"))
      .addColumn("org_id", "integer", refNotNull("organizations"))
      .addColumn("object_type", "text", notNull)
      .addColumn("object_id", "integer", notNull)
      .addColumn("user_id", "integer", refNotNull("users"))
      .addUniqueConstraint("favorites_unique", ["object_type", "object_id", "user_id"]),
  ).execute();

  await id(db.schema.createTable("events"))
    .addColumn("org_id", "integer", refNotNull("organizations"))
    .addColumn("user_id", "integer", ref("users", "set null"))
    .addColumn("action", "text", notNull)
    .addColumn("object_type", "text", notNull)
    .addColumn("object_id", "text")
    .addColumn("additional_properties", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("created_at", "text", notNull)
    .execute();

  await id(db.schema.createTable("changes"))
    .addColumn("object_type", "text", notNull)
    .addColumn("object_id", "integer", notNull)
    .addColumn("object_version", "integer", notNull)
    .addColumn("user_id", "integer", refNotNull("users"))
    .addColumn("change", "text", notNull)
    .addColumn("created_at", "text", notNull)
    .execute();

  await id(db.schema.createTable("access_permissions"))
    .addColumn("object_type", "text", notNull)
    .addColumn("object_id", "integer", notNull)
    .addColumn("access_type", "text", notNull)
    .addColumn("grantor_id", "integer", refNotNull("users"))
    .addColumn("grantee_id", "integer", refNotNull("users"))
    .execute();

  await timestamps(
    id(db.schema.createTable("query_snippets"))
      .addColumn("org_id", "integer", refNotNull("organizations"))
      .addColumn("trigger", "text", notNull)
      .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("user_id", "integer", refNotNull("users"))
      .addColumn("snippet", "text", notNull)
      .addUniqueConstraint("query_snippets_org_trigger", ["org_id", "trigger"]),
  ).execute();

  await db.schema
    .createTable("server_state")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("value", "text", notNull)
    .addColumn("updated_at", "text", notNull)
    .execute();

  const indexes: [string, string, string[]][] = [
    ["users_api_key_idx", "users", ["api_key"]],
    ["groups_org_idx", "groups", ["org_id"]],
    ["queries_org_idx", "queries", ["org_id", "is_archived"]],
    ["queries_hash_idx", "queries", ["query_hash", "data_source_id"]],
    ["query_results_lookup_idx", "query_results", ["query_hash", "data_source_id", "retrieved_at"]],
    ["visualizations_query_idx", "visualizations", ["query_id"]],
    ["widgets_dashboard_idx", "widgets", ["dashboard_id"]],
    ["alerts_query_idx", "alerts", ["query_id"]],
    ["events_org_idx", "events", ["org_id", "created_at"]],
    ["changes_object_idx", "changes", ["object_type", "object_id"]],
    ["access_permissions_object_idx", "access_permissions", ["object_type", "object_id"]],
    ["dashboards_slug_idx", "dashboards", ["slug"]],
    ["favorites_user_idx", "favorites", ["user_id", "object_type"]],
  ];
  for (const [name, table, columns] of indexes) {
    await db.schema.createIndex(name).on(table).columns(columns).execute();
  }
}
