import type { Kysely, Selectable } from "kysely";
import type { DB } from "./schema";
import { isStoredId } from "./values";

/** Tables of objects that belong to one organisation and are reached by id. */
type OrgObjectTable =
  "alerts" | "dashboards" | "data_sources" | "groups" | "notification_destinations" | "queries";

/**
 * The stored row with this id in this organisation, or null. An id outside the stored range finds
 * nothing (no row has one; PostgreSQL would refuse it as a parameter).
 */
export async function findInOrg<T extends OrgObjectTable>(
  db: Kysely<DB>,
  table: T,
  orgId: number,
  id: number,
): Promise<Selectable<DB[T]> | null> {
  if (!isStoredId(id)) return null;
  const row = await db
    .selectFrom(table as OrgObjectTable)
    .selectAll()
    .where("org_id", "=", orgId)
    .where("id", "=", id)
    .executeTakeFirst();
  return (row as Selectable<DB[T]> | undefined) ?? null;
}
