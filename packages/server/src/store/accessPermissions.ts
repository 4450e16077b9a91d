import type { Kysely, Selectable } from "kysely";
import type { AccessPermissionsTable, DB } from "./schema";

export type AclObjectType = "queries" | "dashboards";
export const ACCESS_TYPES = ["view", "modify", "delete"] as const;
export type AccessType = (typeof ACCESS_TYPES)[number];

export type AccessPermission = Selectable<AccessPermissionsTable>;

export async function grantsOf(
  db: Kysely<DB>,
  objectType: AclObjectType,
  objectId: number,
): Promise<AccessPermission[]> {
  return db
    .selectFrom("access_permissions")
    .selectAll()
    .where("object_type", "=", objectType)
    .where("object_id", "=", objectId)
    .orderBy("id")
    .execute();
}

/** Grants access; idempotent for the same grantor, grantee and access type. */
export async function grant(
  db: Kysely<DB>,
  g: Omit<AccessPermission, "id">,
): Promise<AccessPermission> {
  const existing = await db
    .selectFrom("access_permissions")
    .selectAll()
    .where("object_type", "=", g.object_type)
    .where("object_id", "=", g.object_id)
    .where("access_type", "=", g.access_type)
    .where("grantor_id", "=", g.grantor_id)
    .where("grantee_id", "=", g.grantee_id)
    .executeTakeFirst();
  if (existing) return existing;
  return db.insertInto("access_permissions").values(g).returningAll().executeTakeFirstOrThrow();
}

/** Removes the grantee's grants of that type, whoever granted them. */
export async function revoke(
  db: Kysely<DB>,
  objectType: AclObjectType,
  objectId: number,
  accessType: string,
  granteeId: number,
): Promise<void> {
  await db
    .deleteFrom("access_permissions")
    .where("object_type", "=", objectType)
    .where("object_id", "=", objectId)
    .where("access_type", "=", accessType)
    .where("grantee_id", "=", granteeId)
    .execute();
}

export async function holdsGrant(
  db: Kysely<DB>,
  objectType: AclObjectType,
  objectId: number,
  accessType: string,
  userId: number,
): Promise<boolean> {
  const row = await db
    .selectFrom("access_permissions")
    .select("id")
    .where("object_type", "=", objectType)
    .where("object_id", "=", objectId)
    .where("access_type", "=", accessType)
    .where("grantee_id", "=", userId)
    .executeTakeFirst();
  return row !== undefined;
}
