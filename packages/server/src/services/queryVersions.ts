// A query's versions: what a snapshot of a query holds (its own fields and each visualization's),
// the query as one of its versions shows it, and restoring one.
import type { Kysely } from "kysely";
import type { DB } from "../store/schema";
import { queryFromRow, updateQuery, type Query } from "../store/queries";
import {
  insertVisualization,
  updateVisualization,
  visualizationsOf,
  type Visualization,
} from "../store/visualizations";
import type { VersionRecord } from "../store/objectVersions";
import type { VersionedKind } from "./versioning";

export interface VisualizationSnapshot {
  id: number;
  type: string;
  name: string;
  description: string | null;
  options: Record<string, unknown>;
}

export interface QuerySnapshot {
  [field: string]: unknown;
  name: string;
  description: string | null;
  query: string;
  data_source_id: number | null;
  options: Query["options"];
  schedule: Query["schedule"];
  tags: string[];
  is_draft: boolean;
  is_archived: boolean;
  visualizations: VisualizationSnapshot[];
}

export function querySnapshot(query: Query, visualizations: Visualization[]): QuerySnapshot {
  return {
    name: query.name,
    description: query.description,
    query: query.query,
    data_source_id: query.data_source_id,
    options: query.options,
    schedule: query.schedule,
    tags: query.tags,
    is_draft: query.is_draft,
    is_archived: query.is_archived,
    visualizations: visualizations.map((v) => ({
      id: v.id,
      type: v.type,
      name: v.name,
      description: v.description,
      options: v.options,
    })),
  };
}

export const queryVersions: VersionedKind<QuerySnapshot> = {
  type: "queries",
  sideFields: ["visualizations"],
  async read(db: Kysely<DB>, id: number) {
    const row = await db.selectFrom("queries").selectAll().where("id", "=", id).executeTakeFirst();
    if (!row) return null;
    const query = queryFromRow(row);
    const visualizations = (await visualizationsOf(db, [id])).get(id) ?? [];
    return {
      orgId: query.org_id,
      version: query.version,
      snapshot: querySnapshot(query, visualizations),
      lastUserId: query.last_modified_by_id,
      updatedAt: query.updated_at,
    };
  },
};

/**
 * The query as a version shows it: today's row with the version's fields, and the version's
 * visualizations (timestamps of those that still exist). The latest result is kept only while
 * it is of the same text and data source.
 */
export function queryAtVersion(
  current: Query,
  currentVisualizations: Visualization[],
  record: VersionRecord<QuerySnapshot>,
): { query: Query; visualizations: Visualization[] } {
  const s = record.snapshot;
  const sameRun = s.query === current.query && s.data_source_id === current.data_source_id;
  const query: Query = {
    ...current,
    name: s.name,
    description: s.description,
    query: s.query,
    data_source_id: s.data_source_id,
    options: s.options,
    schedule: s.schedule,
    tags: s.tags,
    is_draft: s.is_draft,
    is_archived: s.is_archived,
    version: record.version,
    updated_at: record.created_at,
    last_modified_by_id: record.user_id,
    latest_query_data_id: sameRun ? current.latest_query_data_id : null,
  };
  const byId = new Map(currentVisualizations.map((v) => [v.id, v]));
  const visualizations = s.visualizations.map((v) => ({
    ...v,
    query_id: current.id,
    created_at: byId.get(v.id)?.created_at ?? record.created_at,
    updated_at: byId.get(v.id)?.updated_at ?? record.created_at,
  }));
  return { query, visualizations };
}

/**
 * Makes the query as the snapshot was, inside the caller's transaction: its fields (not whether
 * it is archived or published: that is the query's lifecycle, not its content) with the version
 * check, then its visualizations: changed ones get their old settings back, deleted ones are
 * made again, and ones added since are deleted unless a dashboard shows them. False when the
 * query's version is no longer `expectedVersion`.
 */
export async function restoreQuery(
  tx: Kysely<DB>,
  query: Query,
  snapshot: QuerySnapshot,
  userId: number,
  expectedVersion: number,
): Promise<boolean> {
  const saved = await updateQuery(
    tx,
    query.id,
    {
      name: snapshot.name,
      description: snapshot.description,
      query: snapshot.query,
      data_source_id: snapshot.data_source_id,
      options: snapshot.options,
      schedule: snapshot.schedule,
      tags: snapshot.tags,
      last_modified_by_id: userId,
    },
    expectedVersion,
  );
  if (!saved) return false;
  const current = (await visualizationsOf(tx, [query.id])).get(query.id) ?? [];
  const currentIds = new Set(current.map((v) => v.id));
  const wanted = new Set(snapshot.visualizations.map((v) => v.id));
  for (const v of snapshot.visualizations) {
    const fields = { type: v.type, name: v.name, description: v.description, options: v.options };
    if (currentIds.has(v.id)) await updateVisualization(tx, v.id, fields);
    else await insertVisualization(tx, query.id, fields);
  }
  for (const v of current) {
    if (wanted.has(v.id)) continue;
    const shown = await tx
      .selectFrom("widgets")
      .select("id")
      .where("visualization_id", "=", v.id)
      .limit(1)
      .executeTakeFirst();
    if (!shown) await tx.deleteFrom("visualizations").where("id", "=", v.id).execute();
  }
  return true;
}
