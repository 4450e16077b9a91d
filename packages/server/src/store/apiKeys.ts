import type { Kysely } from "kysely";
import type { DB } from "./schema";
import { now } from "./values";
import { generateApiKey } from "../auth/secretKey";

/**
 * Object API keys (`api_keys`): share keys of dashboards (and any other object type a key may
 * open). Each row names its object; several may exist, of which the active ones open it.
 */
export type ApiKeyObjectType = "dashboards" | "queries";

/** The first active key of an object, or null. */
export async function activeKeyOf(
  db: Kysely<DB>,
  orgId: number,
  objectType: ApiKeyObjectType,
  objectId: number,
): Promise<string | null> {
  const row = await db
    .selectFrom("api_keys")
    .select("api_key")
    .where("org_id", "=", orgId)
    .where("object_type", "=", objectType)
    .where("object_id", "=", objectId)
    .where("active", "=", true)
    .orderBy("id")
    .executeTakeFirst();
  return row?.api_key ?? null;
}

/**
 * The object's active key, made when it has none: sharing twice gives one link, so one unshare
 * ends public access (Redash added a key per share; api-platform.md §7.5 compat note).
 */
export async function activateKey(
  db: Kysely<DB>,
  orgId: number,
  objectType: ApiKeyObjectType,
  objectId: number,
  createdById: number | null,
): Promise<string> {
  const existing = await activeKeyOf(db, orgId, objectType, objectId);
  if (existing) return existing;
  const ts = now();
  const apiKey = generateApiKey();
  await db
    .insertInto("api_keys")
    .values({
      org_id: orgId,
      api_key: apiKey,
      active: true,
      object_type: objectType,
      object_id: objectId,
      created_by_id: createdById,
      created_at: ts,
      updated_at: ts,
    })
    .execute();
  return apiKey;
}

/** Deactivates every active key of the object. */
export async function deactivateKeys(
  db: Kysely<DB>,
  orgId: number,
  objectType: ApiKeyObjectType,
  objectId: number,
): Promise<void> {
  await db
    .updateTable("api_keys")
    .set({ active: false, updated_at: now() })
    .where("org_id", "=", orgId)
    .where("object_type", "=", objectType)
    .where("object_id", "=", objectId)
    .where("active", "=", true)
    .execute();
}
