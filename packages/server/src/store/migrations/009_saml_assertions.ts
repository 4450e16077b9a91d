import type { Kysely } from "kysely";

/**
 * SAML 2.0 sign-in state shared by every server of an installation (auth/providers/samlStore.ts):
 * - saml_requests: the AuthnRequests this installation sent, until answered or expired; a
 *   response's InResponseTo must name one, and it is used up by its answer. It also remembers
 *   where to go afterwards and whether it is an admin's test sign-in.
 * - saml_used_assertions: the IDs of assertions already accepted, kept until they expire, so a
 *   copied response cannot sign anyone in again on any server.
 * Self-contained on purpose: it must keep meaning the same thing as the application changes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("saml_requests")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("org_id", "integer", (c) => c.notNull())
    .addColumn("next", "text", (c) => c.notNull())
    .addColumn("tested_by", "integer")
    .addColumn("expires_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("saml_requests_expires_at")
    .on("saml_requests")
    .column("expires_at")
    .execute();
  await db.schema
    .createTable("saml_used_assertions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("keep_until", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("saml_used_assertions_keep_until")
    .on("saml_used_assertions")
    .column("keep_until")
    .execute();
}
