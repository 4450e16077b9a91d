import type { Kysely } from "kysely";
import type { DB } from "./schema";
import { now } from "./values";

/** Stored object types of favorites (Redash's model names). */
export type FavoriteType = "Query" | "Dashboard";

/** Adds a favorite; a duplicate is silently ignored. */
export async function addFavorite(
  db: Kysely<DB>,
  orgId: number,
  objectType: FavoriteType,
  objectId: number,
  userId: number,
): Promise<void> {
  const ts = now();
  await db
    .insertInto("favorites")
    .values({
      org_id: orgId,
      object_type: objectType,
      object_id: objectId,
      user_id: userId,
      created_at: ts,
      updated_at: ts,
    })
    .onConflict((oc) => oc.columns(["object_type", "object_id", "user_id"]).doNothing())
    .execute();
}

export async function removeFavorite(
  db: Kysely<DB>,
  objectType: FavoriteType,
  objectId: number,
  userId: number,
): Promise<void> {
  await db
    .deleteFrom("favorites")
    .where("object_type", "=", objectType)
    .where("object_id", "=", objectId)
    .where("user_id", "=", userId)
    .execute();
}

/** Of these objects, the ones the user favorited, with when. */
export async function favoritesAmong(
  db: Kysely<DB>,
  objectType: FavoriteType,
  objectIds: number[],
  userId: number,
): Promise<Map<number, string>> {
  if (objectIds.length === 0) return new Map();
  const rows = await db
    .selectFrom("favorites")
    .select(["object_id", "created_at"])
    .where("object_type", "=", objectType)
    .where("object_id", "in", objectIds)
    .where("user_id", "=", userId)
    .execute();
  return new Map(rows.map((r) => [r.object_id, r.created_at]));
}

/** Every object of a type the user favorited, with when (for lists over many objects). */
export async function favoritesOfUser(
  db: Kysely<DB>,
  objectType: FavoriteType,
  userId: number,
): Promise<Map<number, string>> {
  const rows = await db
    .selectFrom("favorites")
    .select(["object_id", "created_at"])
    .where("object_type", "=", objectType)
    .where("user_id", "=", userId)
    .execute();
  return new Map(rows.map((r) => [r.object_id, r.created_at]));
}
