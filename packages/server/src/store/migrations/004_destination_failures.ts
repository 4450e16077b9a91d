import type { Kysely } from "kysely";

/**
 * An alert destination's last failed delivery (reason and time), shown to admins on the
 * destination so a broken webhook or mail server is noticed. The reason never holds a secret.
 * Self-contained on purpose: it must keep meaning the same thing as the application changes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("notification_destinations")
    .addColumn("last_failure", "text")
    .execute();
  await db.schema
    .alterTable("notification_destinations")
    .addColumn("last_failure_at", "text")
    .execute();
}
