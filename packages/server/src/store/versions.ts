import type { Kysely, UpdateObject } from "kysely";
import type { DB } from "./schema";
import { now } from "./values";

/** Tables whose rows carry a version that every save increments. */
type VersionedTable = "queries" | "dashboards";

/**
 * Saves changes to a versioned row; every save increments the version. With `expectedVersion`
 * the write happens only if the stored version still matches (false otherwise: someone saved
 * meanwhile).
 */
export async function saveVersioned<T extends VersionedTable>(
  db: Kysely<DB>,
  table: T,
  id: number,
  changes: UpdateObject<DB, T>,
  expectedVersion?: number,
): Promise<boolean> {
  let update = db
    .updateTable(table as VersionedTable)
    .set((eb) => ({ ...changes, version: eb("version", "+", 1), updated_at: now() }))
    .where("id", "=", id);
  if (expectedVersion !== undefined) update = update.where("version", "=", expectedVersion);
  const result = await update.executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
