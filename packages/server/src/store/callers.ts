import type { Kysely } from "kysely";
import type { DB } from "./schema";
import { bool, isStoredId, parseJson } from "./values";
import { userFromRow, type User } from "./users";

/**
 * Who is calling, read in one statement per request (bench/README.md, load.ts): the user (by id
 * or by API key), their groups with those groups' permissions, and, for a session, whether it was
 * ended by a logout. Nothing here is cached: a disabled or deleted user, an ended session, a
 * regenerated key or a removed group membership counts from the very next request, on every
 * server sharing the store.
 */
export interface Caller {
  user: User;
  /** The user's groups in the user's organisation, by id. */
  groupIds: number[];
  /** The union of those groups' permissions, in group order, without duplicates. */
  permissions: string[];
  /** The session named in the lookup was ended by a logout (false when none was named). */
  sessionEnded: boolean;
}

export type CallerKey = { userId: number } | { apiKey: string };

/**
 * The user `key` names in the organisation, with their groups, and whether `sessionId` (when
 * given) has ended: one row per group membership (users LEFT JOIN user_groups LEFT JOIN groups),
 * so both stores answer it in one round trip with plain SQL.
 */
export async function findCaller(
  db: Kysely<DB>,
  orgId: number,
  key: CallerKey,
  sessionId?: string,
): Promise<Caller | null> {
  if ("userId" in key && !isStoredId(key.userId)) return null;
  let query = db
    .selectFrom("users")
    .leftJoin("user_groups", "user_groups.user_id", "users.id")
    .leftJoin("groups", (join) =>
      join
        .onRef("groups.id", "=", "user_groups.group_id")
        .onRef("groups.org_id", "=", "users.org_id"),
    )
    .selectAll("users")
    .select([
      "user_groups.group_id as membership_group_id",
      "groups.id as found_group_id",
      "groups.permissions as group_permissions",
    ])
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom("ended_sessions")
            .select("ended_sessions.id")
            .where("ended_sessions.id", "=", sessionId ?? ""),
        )
        .as("session_ended"),
    )
    .where("users.org_id", "=", orgId)
    .orderBy("user_groups.group_id");
  query =
    "userId" in key
      ? query.where("users.id", "=", key.userId)
      : query.where("users.api_key", "=", key.apiKey);
  const rows = await query.execute();
  const first = rows[0];
  if (!first) return null;
  const {
    membership_group_id: _m,
    found_group_id: _f,
    group_permissions: _p,
    session_ended,
    ...userRow
  } = first;
  const memberships = rows.flatMap((r) =>
    r.membership_group_id === null ? [] : [Number(r.membership_group_id)],
  );
  const groups = rows.filter((r) => r.found_group_id !== null);
  return {
    user: userFromRow(userRow, memberships),
    groupIds: groups.map((r) => Number(r.found_group_id)),
    permissions: [
      ...new Set(groups.flatMap((r) => parseJson<string[]>(r.group_permissions ?? null, []))),
    ],
    sessionEnded: sessionId !== undefined && bool(session_ended),
  };
}
