import type { Kysely, Selectable } from "kysely";
import { forgetDataSourceResults } from "../results/recentResults";
import type { DataSourcesTable, DB } from "./schema";
import { bool, now, parseJson, toJson } from "./values";
import { findInOrg } from "./orgRows";

/** A stored data source (the columns of DataSourcesTable), its flag read. */
export interface DataSource extends Omit<Selectable<DataSourcesTable>, "paused"> {
  paused: boolean;
}

export interface GroupLink {
  group_id: number;
  view_only: boolean;
}

function fromRow(row: Selectable<DataSourcesTable>): DataSource {
  return { ...row, paused: bool(row.paused) };
}

export async function findDataSource(
  db: Kysely<DB>,
  orgId: number,
  id: number,
): Promise<DataSource | null> {
  const row = await findInOrg(db, "data_sources", orgId, id);
  return row ? fromRow(row) : null;
}

export async function listDataSources(db: Kysely<DB>, orgId: number): Promise<DataSource[]> {
  const rows = await db
    .selectFrom("data_sources")
    .selectAll()
    .where("org_id", "=", orgId)
    .orderBy("id")
    .execute();
  return rows.map(fromRow);
}

/** Data sources of the given types in every organisation (they share one file system). */
export async function listDataSourcesOfTypes(
  db: Kysely<DB>,
  types: string[],
): Promise<DataSource[]> {
  if (types.length === 0) return [];
  const rows = await db
    .selectFrom("data_sources")
    .selectAll()
    .where("type", "in", types)
    .orderBy("id")
    .execute();
  return rows.map(fromRow);
}

export async function findDataSourceByName(
  db: Kysely<DB>,
  orgId: number,
  name: string,
): Promise<DataSource | null> {
  const row = await db
    .selectFrom("data_sources")
    .selectAll()
    .where("org_id", "=", orgId)
    .where("name", "=", name)
    .executeTakeFirst();
  return row ? fromRow(row) : null;
}

/** Group links of several data sources at once. */
export async function groupLinks(
  db: Kysely<DB>,
  dataSourceIds: number[],
): Promise<Map<number, GroupLink[]>> {
  const map = new Map<number, GroupLink[]>();
  if (dataSourceIds.length === 0) return map;
  const rows = await db
    .selectFrom("data_source_groups")
    .select(["data_source_id", "group_id", "view_only"])
    .where("data_source_id", "in", [...new Set(dataSourceIds)])
    .orderBy("group_id")
    .execute();
  for (const r of rows) {
    const links = map.get(r.data_source_id) ?? [];
    links.push({ group_id: r.group_id, view_only: bool(r.view_only) });
    map.set(r.data_source_id, links);
  }
  return map;
}

export async function groupLinksOf(db: Kysely<DB>, dataSourceId: number): Promise<GroupLink[]> {
  return (await groupLinks(db, [dataSourceId])).get(dataSourceId) ?? [];
}

export interface NewDataSource {
  orgId: number;
  name: string;
  type: string;
  encryptedOptions: string;
  /** Linked with full access (Redash links new data sources to the default group). */
  groupId: number;
}

export function insertDataSource(db: Kysely<DB>, input: NewDataSource): Promise<DataSource> {
  const { groupId, ...fields } = input;
  return insertDataSourceInGroups(db, fields, [groupId]);
}

/** A new data source linked with full access to each group (to none: only admins reach it). */
export async function insertDataSourceInGroups(
  db: Kysely<DB>,
  input: Omit<NewDataSource, "groupId">,
  groupIds: number[],
): Promise<DataSource> {
  const ts = now();
  return db.transaction().execute(async (tx) => {
    const row = await tx
      .insertInto("data_sources")
      .values({
        org_id: input.orgId,
        name: input.name,
        type: input.type,
        encrypted_options: input.encryptedOptions,
        queue_name: "queries",
        scheduled_queue_name: "scheduled_queries",
        paused: false,
        pause_reason: null,
        created_at: ts,
        updated_at: ts,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    for (const groupId of groupIds) {
      await tx
        .insertInto("data_source_groups")
        .values({ data_source_id: row.id, group_id: groupId, view_only: false })
        .execute();
    }
    return fromRow(row);
  });
}

export async function updateDataSource(
  db: Kysely<DB>,
  id: number,
  changes: Partial<{
    name: string;
    type: string;
    encrypted_options: string;
    paused: boolean;
    pause_reason: string | null;
  }>,
): Promise<void> {
  await db
    .updateTable("data_sources")
    .set({ ...changes, updated_at: now() })
    .where("id", "=", id)
    .execute();
}

const schemaKey = (id: number) => `schema:${id}`;

/**
 * Deletes a data source: its queries are detached (data source and latest result cleared), its
 * results, group links and cached schema removed.
 */
export async function deleteDataSource(db: Kysely<DB>, id: number): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await tx
      .updateTable("queries")
      .set({ data_source_id: null, latest_query_data_id: null })
      .where("data_source_id", "=", id)
      .execute();
    const results = tx.selectFrom("query_results").select("id").where("data_source_id", "=", id);
    await tx.deleteFrom("query_result_chunks").where("result_id", "in", results).execute();
    await tx.deleteFrom("query_results").where("data_source_id", "=", id).execute();
    await tx.deleteFrom("data_source_groups").where("data_source_id", "=", id).execute();
    await tx.deleteFrom("server_state").where("key", "=", schemaKey(id)).execute();
    await tx.deleteFrom("data_sources").where("id", "=", id).execute();
  });
  forgetDataSourceResults(db, id);
}

export interface CachedSchema<T> {
  schema: T;
  updated_at: string;
}

export async function readCachedSchema<T>(
  db: Kysely<DB>,
  id: number,
): Promise<CachedSchema<T> | null> {
  const row = await db
    .selectFrom("server_state")
    .selectAll()
    .where("key", "=", schemaKey(id))
    .executeTakeFirst();
  if (!row) return null;
  return { schema: parseJson<T>(row.value, null as T), updated_at: row.updated_at };
}

export async function writeCachedSchema(
  db: Kysely<DB>,
  id: number,
  schema: unknown,
): Promise<void> {
  const key = schemaKey(id);
  const ts = now();
  await db.transaction().execute(async (tx) => {
    await tx.deleteFrom("server_state").where("key", "=", key).execute();
    await tx
      .insertInto("server_state")
      .values({ key, value: toJson(schema), updated_at: ts })
      .execute();
  });
}
