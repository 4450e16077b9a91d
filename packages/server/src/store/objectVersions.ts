// Version history of queries and dashboards (ARCHITECTURE.md "Versions"): a row per save with the
// object's version number that save produced, who and when, the names of the fields that
// changed, and the whole object as it was, deflated. Rows are only ever added (and the oldest
// pruned when an operator caps them); diffs are computed when read.
import zlib from "node:zlib";
import type { Kysely } from "kysely";
import type { DB } from "./schema";
import { now, parseJson } from "./values";

export type VersionedType = "queries" | "dashboards";

/** One stored version, without its snapshot. */
export interface VersionEntry {
  version: number;
  user_id: number | null;
  changes: string[];
  created_at: string;
}

export interface VersionRecord<S> extends VersionEntry {
  snapshot: S;
}

export function compressSnapshot(snapshot: unknown): Buffer {
  return zlib.deflateRawSync(JSON.stringify(snapshot), { level: 9 });
}

export function decompressSnapshot<S>(data: Buffer | Uint8Array): S {
  return JSON.parse(zlib.inflateRawSync(data).toString("utf8")) as S;
}

/**
 * The names of the top-level fields whose values differ (compared as JSON); with no `before`
 * (a new object) every field that holds something.
 */
export function changedFields(
  before: Record<string, unknown> | null,
  after: Record<string, unknown>,
): string[] {
  const out: string[] = [];
  for (const [field, value] of Object.entries(after)) {
    if (before === null) {
      const empty =
        value === null ||
        value === "" ||
        value === false ||
        (Array.isArray(value) && value.length === 0) ||
        (typeof value === "object" && value !== null && Object.keys(value).length === 0);
      if (!empty) out.push(field);
    } else if (JSON.stringify(before[field] ?? null) !== JSON.stringify(value ?? null)) {
      out.push(field);
    }
  }
  return out;
}

interface Key {
  type: VersionedType;
  objectId: number;
}

function entryOf(row: {
  version: number;
  user_id: number | null;
  changes: string;
  created_at: string;
}): VersionEntry {
  return {
    version: Number(row.version),
    user_id: row.user_id === null ? null : Number(row.user_id),
    changes: parseJson<string[]>(row.changes, []),
    created_at: String(row.created_at),
  };
}

/** The newest stored version with its snapshot, or null when the object has none yet. */
export async function latestVersion<S>(db: Kysely<DB>, key: Key): Promise<VersionRecord<S> | null> {
  const row = await db
    .selectFrom("object_versions")
    .select(["version", "user_id", "changes", "created_at", "snapshot"])
    .where("object_type", "=", key.type)
    .where("object_id", "=", key.objectId)
    .orderBy("version", "desc")
    .limit(1)
    .executeTakeFirst();
  return row ? { ...entryOf(row), snapshot: decompressSnapshot<S>(row.snapshot) } : null;
}

export async function findVersion<S>(
  db: Kysely<DB>,
  key: Key,
  version: number,
): Promise<VersionRecord<S> | null> {
  const row = await db
    .selectFrom("object_versions")
    .select(["version", "user_id", "changes", "created_at", "snapshot"])
    .where("object_type", "=", key.type)
    .where("object_id", "=", key.objectId)
    .where("version", "=", version)
    .executeTakeFirst();
  return row ? { ...entryOf(row), snapshot: decompressSnapshot<S>(row.snapshot) } : null;
}

/** A page of versions, newest first, and how many there are. */
export async function listVersions(
  db: Kysely<DB>,
  key: Key,
  page: number,
  pageSize: number,
): Promise<{ count: number; results: VersionEntry[] }> {
  const base = db
    .selectFrom("object_versions")
    .where("object_type", "=", key.type)
    .where("object_id", "=", key.objectId);
  const [counted, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<string | number>().as("n")).executeTakeFirst(),
    base
      .select(["version", "user_id", "changes", "created_at"])
      .orderBy("version", "desc")
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
  ]);
  return { count: Number(counted?.n ?? 0), results: rows.map(entryOf) };
}

/** The versions newer than `version`, oldest first (the saves someone else made meanwhile). */
export async function versionsAfter(
  db: Kysely<DB>,
  key: Key,
  version: number,
): Promise<VersionEntry[]> {
  const rows = await db
    .selectFrom("object_versions")
    .select(["version", "user_id", "changes", "created_at"])
    .where("object_type", "=", key.type)
    .where("object_id", "=", key.objectId)
    .where("version", ">", version)
    .orderBy("version")
    .execute();
  return rows.map(entryOf);
}

export interface NewVersion {
  orgId: number;
  version: number;
  userId: number | null;
  changes: string[];
  snapshot: unknown;
  createdAt?: string;
}

/**
 * Stores a version. With `keep` > 0 only the newest `keep` versions of the object stay (the one
 * just stored, the current one, always among them). A version already stored under the same
 * number (two first saves of an older object at once each recording its state) is kept.
 */
export async function insertVersion(
  db: Kysely<DB>,
  key: Key,
  entry: NewVersion,
  keep = 0,
): Promise<void> {
  await db
    .insertInto("object_versions")
    .values({
      org_id: entry.orgId,
      object_type: key.type,
      object_id: key.objectId,
      version: entry.version,
      user_id: entry.userId,
      changes: JSON.stringify(entry.changes),
      snapshot: compressSnapshot(entry.snapshot),
      created_at: entry.createdAt ?? now(),
    })
    .onConflict((oc) => oc.columns(["object_type", "object_id", "version"]).doNothing())
    .execute();
  if (keep > 0) await pruneVersions(db, key, keep);
}

/** Deletes all but the newest `keep` versions of an object. */
export async function pruneVersions(db: Kysely<DB>, key: Key, keep: number): Promise<void> {
  const oldestKept = await db
    .selectFrom("object_versions")
    .select("version")
    .where("object_type", "=", key.type)
    .where("object_id", "=", key.objectId)
    .orderBy("version", "desc")
    .limit(1)
    .offset(Math.max(1, keep) - 1)
    .executeTakeFirst();
  if (!oldestKept) return;
  await db
    .deleteFrom("object_versions")
    .where("object_type", "=", key.type)
    .where("object_id", "=", key.objectId)
    .where("version", "<", oldestKept.version)
    .execute();
}

/** Stored bytes of an object's snapshots (for the benchmark and the size test). */
export async function snapshotBytes(db: Kysely<DB>, key: Key, version: number): Promise<number> {
  const row = await db
    .selectFrom("object_versions")
    .select("snapshot")
    .where("object_type", "=", key.type)
    .where("object_id", "=", key.objectId)
    .where("version", "=", version)
    .executeTakeFirst();
  return row ? row.snapshot.length : 0;
}
