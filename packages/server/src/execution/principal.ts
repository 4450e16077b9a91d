import type { Kysely } from "kysely";
import { currentKeyIdentity, isActive, userIdentity, type Identity } from "../auth/identity";
import { isAdmin } from "../policies";
import type { RunPrincipal } from "../runners/types";
import type { DB } from "../store/schema";
import { findUserById } from "../store/users";
import { groupIdsOfDataSource } from "../store/groups";

/** The principal a request's identity runs queries as (null for anonymous callers). */
export function principalOf(identity: Identity): RunPrincipal | null {
  if (identity.kind === "anonymous") return null;
  return {
    orgId: identity.orgId,
    userId: identity.kind === "user" ? identity.user.id : null,
    groupIds: [...identity.groupIds],
    isAdmin: isAdmin(identity),
    apiKey:
      identity.kind === "api_key" ? { key: identity.apiKey, object: { ...identity.object } } : null,
  };
}

async function userPrincipal(
  db: Kysely<DB>,
  orgId: number,
  userId: number,
): Promise<RunPrincipal | null> {
  const user = await findUserById(db, orgId, userId);
  if (!user || !isActive(user)) return null;
  return principalOf(await userIdentity(db, user, false));
}

/**
 * The principal of a job that did not carry one, as Redash resolves it: the job's user; for a
 * scheduled run the query's owner; for an API-key run of a saved query, that query's key with
 * the groups of its data source.
 */
export async function resolvePrincipal(
  db: Kysely<DB>,
  job: { orgId: number; userId: number | null; queryId: number | null; scheduled: boolean },
): Promise<RunPrincipal | null> {
  if (job.userId !== null) return userPrincipal(db, job.orgId, job.userId);
  if (job.queryId === null) return null;
  const query = await db
    .selectFrom("queries")
    .select(["id", "user_id", "api_key", "data_source_id"])
    .where("org_id", "=", job.orgId)
    .where("id", "=", job.queryId)
    .executeTakeFirst();
  if (!query) return null;
  if (job.scheduled) return userPrincipal(db, job.orgId, query.user_id);
  return {
    orgId: job.orgId,
    userId: null,
    groupIds: await groupIdsOfDataSource(db, query.data_source_id),
    isAdmin: false,
    apiKey: { key: query.api_key, object: { type: "queries", id: query.id } },
  };
}

/**
 * The identity the policies judge a principal by, read afresh: access removed (a user disabled, a
 * key's owner moved out of a group, its dashboard archived) after the job was queued counts.
 */
export async function principalIdentity(
  db: Kysely<DB>,
  principal: RunPrincipal,
): Promise<Identity | null> {
  if (principal.apiKey) {
    const { key, object } = principal.apiKey;
    return currentKeyIdentity(db, principal.orgId, key, object);
  }
  if (principal.userId === null) return null;
  const user = await findUserById(db, principal.orgId, principal.userId);
  if (!user || !isActive(user)) return null;
  return userIdentity(db, user, false);
}
