// Recording versions of queries and dashboards: each save, inside the save's own transaction,
// stores the object as it now is (store/objectVersions.ts) with the fields that changed since the
// version before. The kinds (services/queryVersions.ts, dashboardVersions.ts) say how an object
// is read as a snapshot.
import type { Kysely } from "kysely";
import type { DB } from "../store/schema";
import {
  changedFields,
  insertVersion,
  latestVersion,
  versionsAfter,
  type VersionedType,
} from "../store/objectVersions";

/** A snapshot: the object's versioned fields, its visualizations or widgets among them. */
export type Snapshot = Record<string, unknown>;

/** The object as it is now, read inside a transaction. */
export interface CurrentState<S extends Snapshot> {
  orgId: number;
  version: number;
  snapshot: S;
  /** Who saved it last and when (for the first recorded version of an older object). */
  lastUserId: number | null;
  updatedAt: string;
}

export interface VersionedKind<S extends Snapshot> {
  type: VersionedType;
  /** Changes to these fields alone (visualizations, widgets) conflict with no save of the rest. */
  sideFields: readonly string[];
  read(db: Kysely<DB>, id: number): Promise<CurrentState<S> | null>;
}

export interface RecordOptions {
  userId: number | null;
  /** Versions kept per object; 0 keeps every one. */
  keep: number;
}

/**
 * An object saved before versions were recorded (or by a path that records none) gets its
 * current state stored as the version it has, so the first recorded save can be undone.
 */
export async function recordBaseline<S extends Snapshot>(
  tx: Kysely<DB>,
  kind: VersionedKind<S>,
  id: number,
): Promise<void> {
  const key = { type: kind.type, objectId: id };
  const existing = await tx
    .selectFrom("object_versions")
    .select("id")
    .where("object_type", "=", kind.type)
    .where("object_id", "=", id)
    .limit(1)
    .executeTakeFirst();
  if (existing) return;
  const state = await kind.read(tx, id);
  if (!state) return;
  await insertVersion(tx, key, {
    orgId: state.orgId,
    version: state.version,
    userId: state.lastUserId,
    changes: changedFields(null, state.snapshot),
    snapshot: state.snapshot,
    createdAt: state.updatedAt,
  });
}

/**
 * Stores the object as it now is as a version. With `bump` (a change of a visualization or
 * widget, which the object's own save did not make) the object's version moves up by one first,
 * so every version in the list has a number of its own. Answers the version stored.
 */
export async function recordVersion<S extends Snapshot>(
  tx: Kysely<DB>,
  kind: VersionedKind<S>,
  id: number,
  options: RecordOptions & { bump?: boolean },
): Promise<number | null> {
  if (options.bump) {
    await tx
      .updateTable(kind.type)
      .set((eb) => ({ version: eb("version", "+", 1) }))
      .where("id", "=", id)
      .execute();
  }
  const state = await kind.read(tx, id);
  if (!state) return null;
  const key = { type: kind.type, objectId: id };
  const previous = await latestVersion<S>(tx, key);
  if (previous && previous.version >= state.version) return previous.version;
  const changes = changedFields(previous?.snapshot ?? null, state.snapshot);
  // A visualization or widget saved without a difference is still that kind of save: named so,
  // it never looks like a save of the object's own fields (which conflicts with older versions).
  if (options.bump && changes.length === 0) changes.push(...kind.sideFields);
  await insertVersion(
    tx,
    key,
    {
      orgId: state.orgId,
      version: state.version,
      userId: options.userId,
      changes,
      snapshot: state.snapshot,
    },
    options.keep,
  );
  return state.version;
}

/**
 * Whether a save sent with `sent` (an older version than `current`) may go ahead: only when every
 * save since was of side fields alone (a visualization, a widget), which the save does not touch.
 * Any other save meanwhile, even one that changed nothing (as Redash), or a version unknown to
 * the history, is a conflict.
 */
export async function onlySideChangesSince<S extends Snapshot>(
  db: Kysely<DB>,
  kind: VersionedKind<S>,
  id: number,
  sent: number,
  current: number,
): Promise<boolean> {
  if (sent === current) return true;
  if (sent > current) return false;
  const since = await versionsAfter(db, { type: kind.type, objectId: id }, sent);
  if (since.length !== current - sent) return false;
  return since.every(
    (v) => v.changes.length > 0 && v.changes.every((field) => kind.sideFields.includes(field)),
  );
}
