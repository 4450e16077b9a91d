import type { Kysely } from "kysely";
import type { DB } from "./schema";

/** Sessions ended by logging out, each until its cookies can no longer be valid anyway. */

export async function recordEndedSession(
  db: Kysely<DB>,
  sessionId: string,
  keepUntil: Date,
): Promise<void> {
  await db
    .insertInto("ended_sessions")
    .values({ id: sessionId, keep_until: keepUntil.toISOString() })
    .onConflict((oc) => oc.column("id").doNothing())
    .execute();
  // Housekeeping on the way: rows whose cookies have all expired.
  await db
    .deleteFrom("ended_sessions")
    .where("keep_until", "<", new Date().toISOString())
    .execute();
}
