import crypto from "node:crypto";
import { sql, type Kysely, type Selectable } from "kysely";
import type { DB, GroupsTable, UsersTable } from "./schema";
import { bool, isStoredId, now, parseJson } from "./values";
import { generateApiKey } from "../auth/secretKey";

/** A stored user (the columns of UsersTable), its flags read, with the ids of their groups. */
export interface User extends Omit<
  Selectable<UsersTable>,
  "is_invitation_pending" | "is_email_verified"
> {
  is_invitation_pending: boolean;
  is_email_verified: boolean;
  group_ids: number[];
}

export interface Group {
  id: number;
  org_id: number;
  type: "builtin" | "regular";
  name: string;
  permissions: string[];
  created_at: string;
}

export function groupFromRow(row: Selectable<GroupsTable>): Group {
  return {
    ...row,
    type: row.type === "builtin" ? "builtin" : "regular",
    permissions: parseJson<string[]>(row.permissions, []),
  };
}

export function userFromRow(row: Selectable<UsersTable>, groupIds: number[]): User {
  return {
    ...row,
    is_invitation_pending: bool(row.is_invitation_pending),
    is_email_verified: bool(row.is_email_verified),
    group_ids: groupIds,
  };
}

/** A fresh random value; changing it invalidates sessions and links bound to the old one. */
export function newSessionToken(): string {
  return crypto.randomBytes(16).toString("base64url");
}

async function groupIdsByUser(db: Kysely<DB>, userIds: number[]): Promise<Map<number, number[]>> {
  const map = new Map<number, number[]>();
  if (userIds.length === 0) return map;
  const rows = await db
    .selectFrom("user_groups")
    .select(["user_id", "group_id"])
    .where("user_id", "in", userIds)
    .orderBy("group_id")
    .execute();
  for (const r of rows) map.set(r.user_id, [...(map.get(r.user_id) ?? []), r.group_id]);
  return map;
}

export async function withGroups(db: Kysely<DB>, rows: Selectable<UsersTable>[]): Promise<User[]> {
  const groups = await groupIdsByUser(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => userFromRow(r, groups.get(r.id) ?? []));
}

/** These users (of any org: the ids come from rows of the caller's org), with their groups. */
export async function usersByIds(
  db: Kysely<DB>,
  ids: (number | null)[],
): Promise<Map<number, User>> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db.selectFrom("users").selectAll().where("id", "in", wanted).execute();
  return new Map((await withGroups(db, rows)).map((u) => [u.id, u]));
}

export async function findUserById(
  db: Kysely<DB>,
  orgId: number,
  id: number,
): Promise<User | null> {
  if (!isStoredId(id)) return null;
  const row = await db
    .selectFrom("users")
    .selectAll()
    .where("org_id", "=", orgId)
    .where("id", "=", id)
    .executeTakeFirst();
  return row ? (await withGroups(db, [row]))[0]! : null;
}

export async function findUserByEmail(
  db: Kysely<DB>,
  orgId: number,
  email: string,
): Promise<User | null> {
  const row = await db
    .selectFrom("users")
    .selectAll()
    .where("org_id", "=", orgId)
    .where("email", "=", email.trim().toLowerCase())
    .executeTakeFirst();
  return row ? (await withGroups(db, [row]))[0]! : null;
}

export async function findUserByApiKey(
  db: Kysely<DB>,
  orgId: number,
  apiKey: string,
): Promise<User | null> {
  const row = await db
    .selectFrom("users")
    .selectAll()
    .where("org_id", "=", orgId)
    .where("api_key", "=", apiKey)
    .executeTakeFirst();
  return row ? (await withGroups(db, [row]))[0]! : null;
}

export interface NewUser {
  orgId: number;
  name: string;
  email: string;
  passwordHash: string | null;
  groupIds: number[];
  invitationPending: boolean;
}

export async function insertUser(db: Kysely<DB>, u: NewUser): Promise<User> {
  const ts = now();
  const row = await db
    .insertInto("users")
    .values({
      org_id: u.orgId,
      name: u.name,
      email: u.email.trim().toLowerCase(),
      password_hash: u.passwordHash,
      api_key: generateApiKey(),
      profile_image_url: null,
      is_invitation_pending: u.invitationPending,
      is_email_verified: true,
      disabled_at: null,
      active_at: null,
      session_token: newSessionToken(),
      created_at: ts,
      updated_at: ts,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  if (u.groupIds.length > 0) {
    await db
      .insertInto("user_groups")
      .values(u.groupIds.map((group_id) => ({ user_id: row.id, group_id })))
      .execute();
  }
  return userFromRow(
    row,
    [...u.groupIds].sort((a, b) => a - b),
  );
}

export type UserChanges = Partial<
  Pick<
    User,
    | "name"
    | "email"
    | "password_hash"
    | "api_key"
    | "is_invitation_pending"
    | "is_email_verified"
    | "disabled_at"
    | "session_token"
    | "profile_image_url"
  >
>;

export async function updateUser(db: Kysely<DB>, id: number, changes: UserChanges): Promise<void> {
  await db
    .updateTable("users")
    .set({ ...changes, updated_at: now() })
    .where("id", "=", id)
    .execute();
}

export async function setUserGroups(
  db: Kysely<DB>,
  userId: number,
  groupIds: number[],
): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await tx.deleteFrom("user_groups").where("user_id", "=", userId).execute();
    const unique = [...new Set(groupIds)];
    if (unique.length > 0) {
      await tx
        .insertInto("user_groups")
        .values(unique.map((group_id) => ({ user_id: userId, group_id })))
        .execute();
    }
  });
}

export async function touchActiveAt(db: Kysely<DB>, userId: number): Promise<void> {
  await db.updateTable("users").set({ active_at: now() }).where("id", "=", userId).execute();
}

export async function groupsByIds(db: Kysely<DB>, orgId: number, ids: number[]): Promise<Group[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom("groups")
    .selectAll()
    .where("org_id", "=", orgId)
    .where("id", "in", ids)
    .orderBy("id")
    .execute();
  return rows.map(groupFromRow);
}

export async function insertGroup(
  db: Kysely<DB>,
  orgId: number,
  name: string,
  type: "builtin" | "regular",
  permissions: string[],
): Promise<Group> {
  const row = await db
    .insertInto("groups")
    .values({
      org_id: orgId,
      name,
      type,
      permissions: JSON.stringify(permissions),
      created_at: now(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return groupFromRow(row);
}

export async function findBuiltinGroup(
  db: Kysely<DB>,
  orgId: number,
  name: "admin" | "default",
): Promise<Group | null> {
  const row = await db
    .selectFrom("groups")
    .selectAll()
    .where("org_id", "=", orgId)
    .where("type", "=", "builtin")
    .where("name", "=", name)
    .executeTakeFirst();
  return row ? groupFromRow(row) : null;
}

// ---- Listing, searching and paging (GET /api/users) ----

export type UserOrderKey = "name" | "active_at" | "created_at" | "groups";
export const USER_ORDER_KEYS: readonly UserOrderKey[] = [
  "name",
  "active_at",
  "created_at",
  "groups",
];

export interface UserListFilterBase {
  /** Case-insensitive substring of the name or the email. */
  q?: string;
  disabled: boolean;
  /** true: only pending; false: only not pending; undefined: both. */
  pending?: boolean;
}

export interface UserListFilter extends UserListFilterBase {
  /** null: no explicit order (search order); ties are broken by id. */
  order: { key: UserOrderKey; descending: boolean } | null;
  limit: number;
  offset: number;
}

/** Escapes LIKE wildcards so a search term matches literally (escape character `\`). */
export function likePattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function userListQuery(db: Kysely<DB>, orgId: number, f: UserListFilterBase) {
  let query = db
    .selectFrom("users")
    .where("org_id", "=", orgId)
    .where("disabled_at", f.disabled ? "is not" : "is", null);
  if (f.pending !== undefined) query = query.where("is_invitation_pending", "=", f.pending);
  if (f.q) {
    const pattern = likePattern(f.q);
    query = query.where((eb) =>
      eb.or([
        sql<boolean>`lower(name) like ${pattern} escape '\\'`,
        sql<boolean>`lower(email) like ${pattern} escape '\\'`,
      ]),
    );
  }
  return query;
}

/** How many users match a filter (for pagination). */
export async function countUsers(
  db: Kysely<DB>,
  orgId: number,
  filter: UserListFilterBase,
): Promise<number> {
  const row = await userListQuery(db, orgId, filter)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** One page of an organisation's users. */
export async function listUsers(
  db: Kysely<DB>,
  orgId: number,
  filter: UserListFilter,
): Promise<User[]> {
  let query = userListQuery(db, orgId, filter).selectAll("users");
  if (filter.order) {
    const dir = filter.order.descending ? "desc" : "asc";
    if (filter.order.key === "groups") {
      // Redash sorts by the group-id array: the smallest id first, then the number of groups.
      const first = sql`(select min(group_id) from user_groups where user_groups.user_id = users.id)`;
      const size = sql`(select count(*) from user_groups where user_groups.user_id = users.id)`;
      query = query
        .orderBy(sql`${first} is null`)
        .orderBy(first, dir)
        .orderBy(size, dir);
    } else {
      // NULLs last in both directions; names sort without regard to case.
      const column = filter.order.key;
      const value = column === "name" ? sql`lower(name)` : sql.ref(column);
      query = query.orderBy(sql`${value} is null`).orderBy(value, dir);
    }
  }
  const rows = await query.orderBy("id").limit(filter.limit).offset(filter.offset).execute();
  return withGroups(db, rows);
}

/** Updates a user and, when `groupIds` is given, replaces their group memberships, atomically. */
export async function updateUserAndGroups(
  db: Kysely<DB>,
  id: number,
  changes: UserChanges,
  groupIds: number[] | null,
): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await updateUser(tx, id, changes);
    if (groupIds !== null) {
      await tx.deleteFrom("user_groups").where("user_id", "=", id).execute();
      const unique = [...new Set(groupIds)];
      if (unique.length > 0) {
        await tx
          .insertInto("user_groups")
          .values(unique.map((group_id) => ({ user_id: id, group_id })))
          .execute();
      }
    }
  });
}

export async function countEnabledUsers(db: Kysely<DB>, orgId: number): Promise<number> {
  const row = await db
    .selectFrom("users")
    .where("org_id", "=", orgId)
    .where("disabled_at", "is", null)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Deletes a user; their group memberships go with them. */
export async function deleteUser(db: Kysely<DB>, id: number): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await tx.deleteFrom("user_groups").where("user_id", "=", id).execute();
    await tx.deleteFrom("users").where("id", "=", id).execute();
  });
}

/** Whether an error is a unique-constraint violation (SQLite or PostgreSQL). */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  if (!e) return false;
  return (
    e.code === "23505" ||
    e.code === "SQLITE_CONSTRAINT_UNIQUE" ||
    e.code === "SQLITE_CONSTRAINT_PRIMARYKEY" ||
    (typeof e.message === "string" && /UNIQUE constraint failed/i.test(e.message))
  );
}
