import type { Kysely } from "kysely";
import type { DB } from "./schema";
import { groupFromRow, withGroups, type Group, type User } from "./users";
import { bool } from "./values";
import type { DataSource } from "./dataSources";
import { findInOrg } from "./orgRows";

/**
 * Groups, their members and their data-source links. Group rows themselves are created by
 * store/users.ts insertGroup (shared with first-run setup).
 */

export async function listGroups(db: Kysely<DB>, orgId: number): Promise<Group[]> {
  const rows = await db
    .selectFrom("groups")
    .selectAll()
    .where("org_id", "=", orgId)
    .orderBy("id")
    .execute();
  return rows.map(groupFromRow);
}

export async function findGroup(db: Kysely<DB>, orgId: number, id: number): Promise<Group | null> {
  const row = await findInOrg(db, "groups", orgId, id);
  return row ? groupFromRow(row) : null;
}

export async function renameGroup(db: Kysely<DB>, id: number, name: string): Promise<void> {
  await db.updateTable("groups").set({ name }).where("id", "=", id).execute();
}

/** Deletes a group with its memberships and data-source links (the data sources stay). */
export async function deleteGroup(db: Kysely<DB>, id: number): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await tx.deleteFrom("user_groups").where("group_id", "=", id).execute();
    await tx.deleteFrom("data_source_groups").where("group_id", "=", id).execute();
    await tx.deleteFrom("groups").where("id", "=", id).execute();
  });
}

/** Every member of a group, disabled users included, in id order. */
export async function groupMembers(db: Kysely<DB>, groupId: number): Promise<User[]> {
  const rows = await db
    .selectFrom("users")
    .selectAll("users")
    .where("id", "in", (eb) =>
      eb.selectFrom("user_groups").select("user_id").where("group_id", "=", groupId),
    )
    .orderBy("id")
    .execute();
  return withGroups(db, rows);
}

/** Adds a user to a group; adding a member again changes nothing. */
export async function addMember(db: Kysely<DB>, groupId: number, userId: number): Promise<void> {
  const existing = await db
    .selectFrom("user_groups")
    .select("user_id")
    .where("user_id", "=", userId)
    .where("group_id", "=", groupId)
    .executeTakeFirst();
  if (!existing) {
    await db.insertInto("user_groups").values({ user_id: userId, group_id: groupId }).execute();
  }
}

export async function removeMember(db: Kysely<DB>, groupId: number, userId: number): Promise<void> {
  await db
    .deleteFrom("user_groups")
    .where("user_id", "=", userId)
    .where("group_id", "=", groupId)
    .execute();
}

// ---- Data sources as seen from a group ----

/** The data sources linked to a group, with the link's flag, in id order. */
export async function groupDataSources(
  db: Kysely<DB>,
  groupId: number,
): Promise<{ dataSource: DataSource; viewOnly: boolean }[]> {
  const rows = await db
    .selectFrom("data_source_groups as l")
    .innerJoin("data_sources as ds", "ds.id", "l.data_source_id")
    .selectAll("ds")
    .select("l.view_only as link_view_only")
    .where("l.group_id", "=", groupId)
    .orderBy("ds.id")
    .execute();
  return rows.map(({ link_view_only, ...ds }) => ({
    dataSource: { ...ds, paused: bool(ds.paused) },
    viewOnly: bool(link_view_only),
  }));
}

/** The link's view_only flag, or null when the data source is not in the group. */
export async function findDataSourceLink(
  db: Kysely<DB>,
  groupId: number,
  dataSourceId: number,
): Promise<{ view_only: boolean } | null> {
  const row = await db
    .selectFrom("data_source_groups")
    .select("view_only")
    .where("group_id", "=", groupId)
    .where("data_source_id", "=", dataSourceId)
    .executeTakeFirst();
  return row ? { view_only: bool(row.view_only) } : null;
}

/** Links a data source to a group with full access; an existing link is kept as it is. */
export async function addDataSourceLink(
  db: Kysely<DB>,
  groupId: number,
  dataSourceId: number,
): Promise<{ view_only: boolean }> {
  const existing = await findDataSourceLink(db, groupId, dataSourceId);
  if (existing) return existing;
  await db
    .insertInto("data_source_groups")
    .values({ group_id: groupId, data_source_id: dataSourceId, view_only: false })
    .execute();
  return { view_only: false };
}

export async function setDataSourceViewOnly(
  db: Kysely<DB>,
  groupId: number,
  dataSourceId: number,
  viewOnly: boolean,
): Promise<void> {
  await db
    .updateTable("data_source_groups")
    .set({ view_only: viewOnly })
    .where("group_id", "=", groupId)
    .where("data_source_id", "=", dataSourceId)
    .execute();
}

export async function removeDataSourceLink(
  db: Kysely<DB>,
  groupId: number,
  dataSourceId: number,
): Promise<void> {
  await db
    .deleteFrom("data_source_groups")
    .where("group_id", "=", groupId)
    .where("data_source_id", "=", dataSourceId)
    .execute();
}

// ---- Counters of /api/organization/status ----

export interface ObjectCounters {
  users: number;
  alerts: number;
  data_sources: number;
  queries: number;
  dashboards: number;
}

/**
 * The home page's counters (api-platform.md §7.3): data sources, queries and alerts are those
 * reachable through the caller's groups (no admin bypass, as Redash); users are the enabled users
 * and dashboards the non-archived dashboards of the organisation.
 */
export async function objectCounters(
  db: Kysely<DB>,
  orgId: number,
  groupIds: number[],
): Promise<ObjectCounters> {
  const count = async (query: { executeTakeFirstOrThrow(): Promise<{ n: unknown }> }) =>
    Number((await query.executeTakeFirstOrThrow()).n);
  const groups = groupIds.length > 0 ? groupIds : [-1];
  const linkedSources = db
    .selectFrom("data_source_groups")
    .select("data_source_id")
    .where("group_id", "in", groups);

  const users = await count(
    db
      .selectFrom("users")
      .where("org_id", "=", orgId)
      .where("disabled_at", "is", null)
      .select((eb) => eb.fn.countAll().as("n")),
  );
  const dataSources = await count(
    db
      .selectFrom("data_sources")
      .where("org_id", "=", orgId)
      .where("id", "in", linkedSources)
      .select((eb) => eb.fn.countAll().as("n")),
  );
  const queries = await count(
    db
      .selectFrom("queries")
      .where("org_id", "=", orgId)
      .where("is_archived", "=", false)
      .where("data_source_id", "in", linkedSources)
      .select((eb) => eb.fn.countAll().as("n")),
  );
  const alerts = await count(
    db
      .selectFrom("alerts")
      .where("org_id", "=", orgId)
      .where("query_id", "in", (eb) =>
        eb.selectFrom("queries").select("id").where("data_source_id", "in", linkedSources),
      )
      .select((eb) => eb.fn.countAll().as("n")),
  );
  const dashboards = await count(
    db
      .selectFrom("dashboards")
      .where("org_id", "=", orgId)
      .where("is_archived", "=", false)
      .select((eb) => eb.fn.countAll().as("n")),
  );
  return { users, alerts, data_sources: dataSources, queries, dashboards };
}

/** The groups a data source is linked to (what a query's own API key may reach). */
export async function groupIdsOfDataSource(
  db: Kysely<DB>,
  dataSourceId: number | null,
): Promise<number[]> {
  if (dataSourceId === null) return [];
  const links = await db
    .selectFrom("data_source_groups")
    .select("group_id")
    .where("data_source_id", "=", dataSourceId)
    .execute();
  return links.map((l) => l.group_id);
}
