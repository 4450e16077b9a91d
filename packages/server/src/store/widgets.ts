import type { Kysely, Selectable } from "kysely";
import type { DB, WidgetsTable } from "./schema";
import { isStoredId, now, parseJson, toJson } from "./values";

export interface Widget {
  id: number;
  dashboard_id: number;
  visualization_id: number | null;
  text: string | null;
  width: number;
  /** Stored exactly as given (position, parameterMappings, isHidden, …). */
  options: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

function fromRow(row: Selectable<WidgetsTable>): Widget {
  return { ...row, options: parseJson<Record<string, unknown>>(row.options, {}) };
}

/** The widgets of these dashboards, each list in id order; one statement. */
export async function widgetsOf(
  db: Kysely<DB>,
  dashboardIds: number[],
): Promise<Map<number, Widget[]>> {
  const map = new Map<number, Widget[]>();
  if (dashboardIds.length === 0) return map;
  const rows = await db
    .selectFrom("widgets")
    .selectAll()
    .where("dashboard_id", "in", dashboardIds)
    .orderBy("id")
    .execute();
  for (const row of rows) {
    const list = map.get(row.dashboard_id) ?? [];
    list.push(fromRow(row));
    map.set(row.dashboard_id, list);
  }
  return map;
}

/** A widget whose dashboard is in the organisation (others' orgs are invisible). */
export async function findWidget(
  db: Kysely<DB>,
  orgId: number,
  id: number,
): Promise<Widget | null> {
  if (!isStoredId(id)) return null;
  const row = await db
    .selectFrom("widgets")
    .innerJoin("dashboards", "dashboards.id", "widgets.dashboard_id")
    .selectAll("widgets")
    .where("dashboards.org_id", "=", orgId)
    .where("widgets.id", "=", id)
    .executeTakeFirst();
  return row ? fromRow(row) : null;
}

export interface WidgetFields {
  dashboard_id: number;
  visualization_id: number | null;
  text: string | null;
  width: number;
  options: Record<string, unknown>;
}

export async function insertWidget(db: Kysely<DB>, fields: WidgetFields): Promise<Widget> {
  const ts = now();
  const row = await db
    .insertInto("widgets")
    .values({ ...fields, options: toJson(fields.options), created_at: ts, updated_at: ts })
    .returningAll()
    .executeTakeFirstOrThrow();
  return fromRow(row);
}

/** Replaces a widget's text and options (the only fields a save changes). */
export async function updateWidget(
  db: Kysely<DB>,
  id: number,
  changes: { text: string | null; options: Record<string, unknown> },
): Promise<void> {
  await db
    .updateTable("widgets")
    .set({ text: changes.text, options: toJson(changes.options), updated_at: now() })
    .where("id", "=", id)
    .execute();
}

export async function deleteWidget(db: Kysely<DB>, id: number): Promise<void> {
  await db.deleteFrom("widgets").where("id", "=", id).execute();
}
