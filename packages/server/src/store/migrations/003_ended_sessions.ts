import type { Kysely } from "kysely";

/**
 * Sessions ended by logging out (auth/requestAuth.ts). Session cookies are signed, not stored, so
 * a copy of one would otherwise keep working after logout; every server of a scaled installation
 * checks this table. A row is kept until no cookie of that session can still be valid.
 * Self-contained on purpose: it must keep meaning the same thing as the application changes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("ended_sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("keep_until", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("ended_sessions_keep_until")
    .on("ended_sessions")
    .column("keep_until")
    .execute();
}
