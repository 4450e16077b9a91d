import type { Kysely } from "kysely";
import type { DB } from "./schema";

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
