import type { Kysely, Selectable } from "kysely";
import type { DB, VisualizationsTable } from "./schema";
import { isStoredId, now, parseJson, toJson } from "./values";

export interface Visualization {
  id: number;
  type: string;
  query_id: number;
  name: string;
  description: string | null;
  options: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

function fromRow(row: Selectable<VisualizationsTable>): Visualization {
  return { ...row, options: parseJson<Record<string, unknown>>(row.options, {}) };
}

/** A visualization of a query in the organisation (others' orgs are invisible). */
export async function findVisualization(
  db: Kysely<DB>,
  orgId: number,
  id: number,
): Promise<Visualization | null> {
  if (!isStoredId(id)) return null;
  const row = await db
    .selectFrom("visualizations")
    .innerJoin("queries", "queries.id", "visualizations.query_id")
    .selectAll("visualizations")
    .where("queries.org_id", "=", orgId)
    .where("visualizations.id", "=", id)
    .executeTakeFirst();
  return row ? fromRow(row) : null;
}

/** These visualizations, by id (their queries' org is checked by whoever reads the queries). */
export async function visualizationsByIds(
  db: Kysely<DB>,
  ids: number[],
): Promise<Map<number, Visualization>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom("visualizations")
    .selectAll()
    .where("id", "in", [...new Set(ids)])
    .execute();
  return new Map(rows.map((row) => [row.id, fromRow(row)]));
}

export async function visualizationsOf(
  db: Kysely<DB>,
  queryIds: number[],
): Promise<Map<number, Visualization[]>> {
  const map = new Map<number, Visualization[]>();
  if (queryIds.length === 0) return map;
  const rows = await db
    .selectFrom("visualizations")
    .selectAll()
    .where("query_id", "in", queryIds)
    .orderBy("id")
    .execute();
  for (const row of rows) map.set(row.query_id, [...(map.get(row.query_id) ?? []), fromRow(row)]);
  return map;
}

export interface VisualizationFields {
  type: string;
  name: string;
  description: string | null;
  options: Record<string, unknown>;
}

export async function insertVisualization(
  db: Kysely<DB>,
  queryId: number,
  fields: VisualizationFields,
): Promise<Visualization> {
  const ts = now();
  const row = await db
    .insertInto("visualizations")
    .values({
      query_id: queryId,
      type: fields.type,
      name: fields.name,
      description: fields.description,
      options: toJson(fields.options),
      created_at: ts,
      updated_at: ts,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return fromRow(row);
}

export async function updateVisualization(
  db: Kysely<DB>,
  id: number,
  changes: Partial<VisualizationFields>,
): Promise<void> {
  const { options, ...rest } = changes;
  await db
    .updateTable("visualizations")
    .set({
      ...rest,
      ...(options !== undefined ? { options: toJson(options) } : {}),
      updated_at: now(),
    })
    .where("id", "=", id)
    .execute();
}

/**
 * Deletes a visualization and every dashboard widget that shows it. `inTransaction` runs before
 * the commit with the ids of the dashboards that lost widgets (their versions are kept).
 */
export async function deleteVisualization(
  db: Kysely<DB>,
  id: number,
  inTransaction?: (tx: Kysely<DB>, dashboardIds: number[]) => Promise<void>,
): Promise<void> {
  await db.transaction().execute(async (tx) => {
    const dashboards = await tx
      .selectFrom("widgets")
      .select("dashboard_id")
      .distinct()
      .where("visualization_id", "=", id)
      .execute();
    await tx.deleteFrom("widgets").where("visualization_id", "=", id).execute();
    await tx.deleteFrom("visualizations").where("id", "=", id).execute();
    await inTransaction?.(
      tx,
      dashboards.map((d) => d.dashboard_id),
    );
  });
}
