// The changes audit (api-platform.md §7.5): a row per recorded change of a dashboard or a query,
// with the object's version after it, who made it, and for each column that changed its previous
// and current value. No API exposes it (version history is store/objectVersions.ts).
import type { Kysely } from "kysely";
import type { DB } from "./schema";
import { now, parseJson, toJson } from "./values";

export type ChangeObjectType = "dashboards" | "queries";

/** Column name → its value before and after (`previous` null for a new object). */
export type ColumnChanges = Record<string, { previous: unknown; current: unknown }>;

export interface Change {
  id: number;
  object_type: ChangeObjectType;
  object_id: number;
  object_version: number;
  user_id: number;
  change: ColumnChanges;
  created_at: string;
}

/**
 * Not recorded: bookkeeping (the version is the row's object_version) and secrets (a query's
 * API key is a credential; the audit must not become a second copy of it).
 */
const UNTRACKED = new Set(["id", "version", "created_at", "updated_at", "api_key"]);

/**
 * The columns that differ between two snapshots of a row (compared as JSON). With no `before`
 * (a new object) every column is reported, with a null `previous`.
 */
export function columnChanges(before: object | null, after: object): ColumnChanges {
  const out: ColumnChanges = {};
  const old = before as Record<string, unknown> | null;
  for (const [column, current] of Object.entries(after)) {
    if (UNTRACKED.has(column)) continue;
    const previous = old ? (old[column] ?? null) : null;
    if (before && JSON.stringify(previous) === JSON.stringify(current ?? null)) continue;
    out[column] = { previous, current: current ?? null };
  }
  return out;
}

export interface ChangeRecord {
  objectType: ChangeObjectType;
  /** The object as it is now (its `id` and `version` included). */
  after: { id: number; version: number };
  /** The object before the change; null when it was just created. */
  before: object | null;
  userId: number;
}

/** Records a change; nothing when no tracked column changed. */
export async function recordChange(db: Kysely<DB>, record: ChangeRecord): Promise<void> {
  const change = columnChanges(record.before, record.after);
  if (Object.keys(change).length === 0) return;
  await db
    .insertInto("changes")
    .values({
      object_type: record.objectType,
      object_id: record.after.id,
      object_version: record.after.version,
      user_id: record.userId,
      change: toJson(change),
      created_at: now(),
    })
    .execute();
}

/** An object's recorded changes, oldest first. */
export async function changesOf(
  db: Kysely<DB>,
  objectType: ChangeObjectType,
  objectId: number,
): Promise<Change[]> {
  const rows = await db
    .selectFrom("changes")
    .selectAll()
    .where("object_type", "=", objectType)
    .where("object_id", "=", objectId)
    .orderBy("object_version")
    .orderBy("id")
    .execute();
  return rows.map((row) => ({
    id: Number(row.id),
    object_type: row.object_type as ChangeObjectType,
    object_id: row.object_id,
    object_version: row.object_version,
    user_id: row.user_id,
    change: parseJson<ColumnChanges>(row.change, {}),
    created_at: String(row.created_at),
  }));
}
