/**
 * SAML sign-in state in the metadata store, so that any server of an installation can take the
 * identity provider's answer to a request another one sent (migration 009):
 * - the AuthnRequests sent, each until answered or expired, with where to go next and whether it
 *   is an admin's test sign-in; an answer uses its request up (once, across servers);
 * - the IDs of accepted assertions until they expire: the same assertion is not accepted twice.
 */
import type { Kysely } from "kysely";
import type { DB } from "../../store/schema";
import { isUniqueViolation } from "../../store/users";

/** How long the identity provider may take to answer a request (the person signs in there). */
export const REQUEST_LIFETIME_MS = 10 * 60 * 1000;

export interface SamlRequest {
  id: string;
  orgId: number;
  next: string;
  testedBy: number | null;
}

export async function saveRequest(db: Kysely<DB>, request: SamlRequest): Promise<void> {
  const now = new Date();
  await db
    .insertInto("saml_requests")
    .values({
      id: request.id,
      org_id: request.orgId,
      next: request.next,
      tested_by: request.testedBy,
      expires_at: new Date(now.getTime() + REQUEST_LIFETIME_MS).toISOString(),
    })
    .execute();
  // Housekeeping on the way: requests nobody answered, assertions past their time.
  await db.deleteFrom("saml_requests").where("expires_at", "<", now.toISOString()).execute();
  await db.deleteFrom("saml_used_assertions").where("keep_until", "<", now.toISOString()).execute();
}

/** The request `id` names while it has not expired, or null. */
export async function findRequest(db: Kysely<DB>, id: string): Promise<SamlRequest | null> {
  const row = await db
    .selectFrom("saml_requests")
    .selectAll()
    .where("id", "=", id)
    .where("expires_at", ">=", new Date().toISOString())
    .executeTakeFirst();
  return row ? { id: row.id, orgId: row.org_id, next: row.next, testedBy: row.tested_by } : null;
}

/** Uses the request up; false when it was already used (by this or another server). */
export async function takeRequest(db: Kysely<DB>, id: string): Promise<boolean> {
  const result = await db.deleteFrom("saml_requests").where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** Records an accepted assertion; false when it was accepted before (a replay). */
export async function claimAssertion(
  db: Kysely<DB>,
  id: string,
  keepUntil: Date,
): Promise<boolean> {
  try {
    await db
      .insertInto("saml_used_assertions")
      .values({ id, keep_until: keepUntil.toISOString() })
      .execute();
    return true;
  } catch (err) {
    if (isUniqueViolation(err)) return false;
    throw err;
  }
}
