// A dashboard's versions: what a snapshot of a dashboard holds (its own fields and its widgets,
// text boxes, positions and parameter mappings among their options), the dashboard as one of its
// versions shows it, and restoring one.
import type { Kysely } from "kysely";
import type { DB } from "../store/schema";
import { findDashboard, updateDashboard, type Dashboard } from "../store/dashboards";
import type { VersionRecord } from "../store/objectVersions";
import { now, toJson } from "../store/values";
import { widgetsOf, type Widget } from "../store/widgets";
import { recordVersion, type RecordOptions, type VersionedKind } from "./versioning";

export interface WidgetSnapshot {
  id: number;
  visualization_id: number | null;
  text: string | null;
  width: number;
  options: Record<string, unknown>;
}

export interface DashboardSnapshot {
  [field: string]: unknown;
  name: string;
  tags: string[];
  layout: unknown;
  dashboard_filters_enabled: boolean;
  options: Record<string, unknown>;
  is_draft: boolean;
  is_archived: boolean;
  widgets: WidgetSnapshot[];
}

export function dashboardSnapshot(dashboard: Dashboard, widgets: Widget[]): DashboardSnapshot {
  return {
    name: dashboard.name,
    tags: dashboard.tags,
    layout: dashboard.layout,
    dashboard_filters_enabled: dashboard.dashboard_filters_enabled,
    options: dashboard.options,
    is_draft: dashboard.is_draft,
    is_archived: dashboard.is_archived,
    widgets: widgets.map((w) => ({
      id: w.id,
      visualization_id: w.visualization_id,
      text: w.text,
      width: w.width,
      options: w.options,
    })),
  };
}

export const dashboardVersions: VersionedKind<DashboardSnapshot> = {
  type: "dashboards",
  sideFields: ["widgets"],
  async read(db: Kysely<DB>, id: number) {
    const row = await db
      .selectFrom("dashboards")
      .select("org_id")
      .where("id", "=", id)
      .executeTakeFirst();
    const dashboard = row ? await findDashboard(db, row.org_id, id) : null;
    if (!dashboard) return null;
    const widgets = (await widgetsOf(db, [id])).get(id) ?? [];
    return {
      orgId: dashboard.org_id,
      version: dashboard.version,
      snapshot: dashboardSnapshot(dashboard, widgets),
      lastUserId: null,
      updatedAt: dashboard.updated_at,
    };
  },
};

/**
 * Records a version of each dashboard whose widgets a change elsewhere removed or changed (a
 * query archived, a visualization deleted), inside that change's transaction.
 */
export async function recordWidgetChanges(
  tx: Kysely<DB>,
  dashboardIds: number[],
  options: RecordOptions,
): Promise<void> {
  for (const id of dashboardIds) {
    await recordVersion(tx, dashboardVersions, id, { ...options, bump: true });
  }
}

/** The dashboard and its widgets as a version shows them (today's row with the version's fields). */
export function dashboardAtVersion(
  current: Dashboard,
  currentWidgets: Widget[],
  record: VersionRecord<DashboardSnapshot>,
): { dashboard: Dashboard; widgets: Widget[] } {
  const s = record.snapshot;
  const dashboard: Dashboard = {
    ...current,
    name: s.name,
    tags: s.tags,
    layout: s.layout,
    dashboard_filters_enabled: s.dashboard_filters_enabled,
    options: s.options,
    is_draft: s.is_draft,
    is_archived: s.is_archived,
    version: record.version,
    updated_at: record.created_at,
  };
  const byId = new Map(currentWidgets.map((w) => [w.id, w]));
  const widgets = s.widgets.map((w) => ({
    ...w,
    dashboard_id: current.id,
    created_at: byId.get(w.id)?.created_at ?? record.created_at,
    updated_at: byId.get(w.id)?.updated_at ?? record.created_at,
  }));
  return { dashboard, widgets };
}

/** The snapshot's widgets that are gone and would be added again, with a visualization. */
export function widgetsToAddAgain(snapshot: DashboardSnapshot, currentWidgets: Widget[]) {
  const current = new Set(currentWidgets.map((w) => w.id));
  return snapshot.widgets.filter((w) => !current.has(w.id));
}

/**
 * Makes the dashboard as the snapshot was, inside the caller's transaction: its fields (not
 * whether it is archived or published, the dashboard's lifecycle) with the version check, then
 * its widgets: changed ones get their text, width and options (position, parameter mappings)
 * back, removed ones are added again (unless their visualization is gone: `skip`), and ones
 * added since are removed. False when the version is no longer `expectedVersion`.
 */
export async function restoreDashboard(
  tx: Kysely<DB>,
  dashboard: Dashboard,
  snapshot: DashboardSnapshot,
  expectedVersion: number,
  skip: Set<number>,
): Promise<boolean> {
  const saved = await updateDashboard(
    tx,
    dashboard.id,
    {
      name: snapshot.name,
      tags: snapshot.tags,
      layout: snapshot.layout,
      dashboard_filters_enabled: snapshot.dashboard_filters_enabled,
      options: snapshot.options,
    },
    expectedVersion,
  );
  if (!saved) return false;
  const current = (await widgetsOf(tx, [dashboard.id])).get(dashboard.id) ?? [];
  const byId = new Map(current.map((w) => [w.id, w]));
  const wanted = new Set(snapshot.widgets.map((w) => w.id));
  const ts = now();
  for (const w of snapshot.widgets) {
    const existing = byId.get(w.id);
    if (existing) {
      const same =
        existing.text === w.text &&
        existing.width === w.width &&
        toJson(existing.options) === toJson(w.options);
      if (same) continue;
      await tx
        .updateTable("widgets")
        .set({ text: w.text, width: w.width, options: toJson(w.options), updated_at: ts })
        .where("id", "=", w.id)
        .execute();
    } else if (!skip.has(w.id)) {
      await tx
        .insertInto("widgets")
        .values({
          dashboard_id: dashboard.id,
          visualization_id: w.visualization_id,
          text: w.text,
          width: w.width,
          options: toJson(w.options),
          created_at: ts,
          updated_at: ts,
        })
        .execute();
    }
  }
  const gone = current.filter((w) => !wanted.has(w.id)).map((w) => w.id);
  if (gone.length > 0) await tx.deleteFrom("widgets").where("id", "in", gone).execute();
  return true;
}
