import { sql, type Kysely, type Selectable } from "kysely";
import type { DashboardsTable, DB } from "./schema";
import { bool, now, parseJson, toJson } from "./values";
import { saveVersioned } from "./versions";
import { findInOrg } from "./orgRows";
import type { Widget } from "./widgets";

export interface Dashboard {
  id: number;
  version: number;
  org_id: number;
  /** Set once at creation; only the `?legacy` lookup reads it. */
  slug: string;
  name: string;
  user_id: number;
  /** Legacy, stored exactly as given. */
  layout: unknown;
  dashboard_filters_enabled: boolean;
  is_archived: boolean;
  is_draft: boolean;
  tags: string[];
  options: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

function fromRow(row: Selectable<DashboardsTable>): Dashboard {
  return {
    ...row,
    layout: parseJson<unknown>(row.layout, []),
    dashboard_filters_enabled: bool(row.dashboard_filters_enabled),
    is_archived: bool(row.is_archived),
    is_draft: bool(row.is_draft),
    tags: parseJson<string[] | null>(row.tags, null) ?? [],
    options: parseJson<Record<string, unknown>>(row.options, {}),
  };
}

/**
 * Redash's slug of a name: lower-case, every run of characters outside `[a-z0-9_-]` becomes
 * `-` (`Q1 Sales!` → `q1-sales-`). The API's `slug` is this of the current name.
 */
export function slugify(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9_-]+/g, "-");
}

export async function findDashboard(
  db: Kysely<DB>,
  orgId: number,
  id: number,
): Promise<Dashboard | null> {
  const row = await findInOrg(db, "dashboards", orgId, id);
  return row ? fromRow(row) : null;
}

/** A slug that can match: stored ones hold only these characters (a NUL, say, never matches). */
const SLUG = /^[a-z0-9_-]{1,200}$/;

/** The `?legacy` lookup: by the slug stored at creation. */
export async function findDashboardBySlug(
  db: Kysely<DB>,
  orgId: number,
  slug: string,
): Promise<Dashboard | null> {
  if (!SLUG.test(slug)) return null;
  const row = await db
    .selectFrom("dashboards")
    .selectAll()
    .where("org_id", "=", orgId)
    .where("slug", "=", slug)
    .orderBy("id")
    .executeTakeFirst();
  return row ? fromRow(row) : null;
}

/**
 * By the slug the API shows (that of the current name), as scripts read it from a listing and
 * pass it back. Names repeat, so a live dashboard wins over an archived one, then the oldest.
 */
export async function findDashboardByShownSlug(
  db: Kysely<DB>,
  orgId: number,
  slug: string,
): Promise<Dashboard | null> {
  if (!SLUG.test(slug)) return null;
  // A LIKE pre-filter: each `-` may stand for any run of other characters; `_` is escaped.
  const pattern = slug.replace(/_/g, "\\_").replace(/-+/g, "%");
  const rows = await db
    .selectFrom("dashboards")
    .selectAll()
    .where("org_id", "=", orgId)
    .where(sql<boolean>`lower(${sql.ref("name")}) like ${pattern} escape '\\'`)
    .orderBy("is_archived")
    .orderBy("id")
    .execute();
  const row = rows.find((r) => slugify(r.name) === slug);
  return row ? fromRow(row) : null;
}

/** `base`, or `base_1`, `base_2`, … : the first one no dashboard (of any org) holds. */
async function freeSlug(db: Kysely<DB>, base: string): Promise<string> {
  // Slugs hold only [a-z0-9_-]; `_` is the one LIKE wildcard among them.
  const pattern = `${base.replace(/_/g, "\\_")}\\_%`;
  const taken = new Set(
    (
      await db
        .selectFrom("dashboards")
        .select("slug")
        .where((eb) =>
          eb.or([
            eb("slug", "=", base),
            sql<boolean>`${sql.ref("slug")} like ${pattern} escape '\\'`,
          ]),
        )
        .execute()
    ).map((r) => r.slug),
  );
  if (!taken.has(base)) return base;
  for (let n = 1; ; n += 1) if (!taken.has(`${base}_${n}`)) return `${base}_${n}`;
}

/** What a caller sets of a dashboard; the store keeps the rest (id, version, slug, times). */
export type DashboardFields = Omit<
  Dashboard,
  "id" | "version" | "org_id" | "slug" | "created_at" | "updated_at"
>;

function storedFields(fields: Partial<DashboardFields>) {
  const { layout, tags, options, ...rest } = fields;
  return {
    ...rest,
    ...(layout !== undefined ? { layout: toJson(layout) } : {}),
    ...(tags !== undefined ? { tags: toJson(tags) } : {}),
    ...(options !== undefined ? { options: toJson(options) } : {}),
  };
}

/** A new dashboard (version 1). `slug` defaults to a free slug of the name. */
export async function insertDashboard(
  db: Kysely<DB>,
  orgId: number,
  fields: DashboardFields,
  slug?: string,
): Promise<Dashboard> {
  const ts = now();
  const row = await db
    .insertInto("dashboards")
    .values({
      ...fields,
      layout: toJson(fields.layout),
      tags: toJson(fields.tags),
      options: toJson(fields.options),
      org_id: orgId,
      version: 1,
      slug: slug ?? (await freeSlug(db, slugify(fields.name))),
      created_at: ts,
      updated_at: ts,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return fromRow(row);
}

/**
 * Saves changes; every save increments the version. With `expectedVersion` the write happens
 * only if the stored version still matches (false otherwise: someone saved meanwhile).
 */
export async function updateDashboard(
  db: Kysely<DB>,
  id: number,
  changes: Partial<DashboardFields> & { slug?: string },
  expectedVersion?: number,
): Promise<boolean> {
  return saveVersioned(db, "dashboards", id, storedFields(changes), expectedVersion);
}

/** One dashboard of a listing, before search, tags, ordering and paging. */
export interface ListedDashboard extends Dashboard {
  /** When the caller favorited it (favorites list only). */
  starred_at: string | null;
}

export interface DashboardListFilter {
  orgId: number;
  userId: number;
  groupIds: number[];
  /** `my`: only the caller's own. */
  ownOnly?: boolean;
  /** The archived dashboards instead of the live ones (the Archived list). */
  archived?: boolean;
  /** `favorites`: only the caller's favorites, with `starred_at`. */
  favoritesOnly?: boolean;
  /** `recent`: only those with these ids. */
  ids?: number[];
}

/**
 * The dashboards a user may list (api-platform.md §7.5): in the org, not archived, and the
 * user's own or both published and showing a visualization whose query's data source is linked
 * to one of the user's groups. One statement whatever the number of widgets.
 */
export async function listVisibleDashboards(
  db: Kysely<DB>,
  f: DashboardListFilter,
): Promise<ListedDashboard[]> {
  if (f.ids !== undefined && f.ids.length === 0) return [];
  let q = db
    .selectFrom("dashboards")
    .selectAll("dashboards")
    .where("dashboards.org_id", "=", f.orgId)
    .where("dashboards.is_archived", "=", f.archived === true);
  if (f.ownOnly) {
    q = q.where("dashboards.user_id", "=", f.userId);
  } else {
    const groupIds = f.groupIds.length > 0 ? f.groupIds : [-1];
    q = q.where((eb) =>
      eb.or([
        eb("dashboards.user_id", "=", f.userId),
        eb.and([
          eb("dashboards.is_draft", "=", false),
          eb.exists(
            eb
              .selectFrom("widgets")
              .innerJoin("visualizations", "visualizations.id", "widgets.visualization_id")
              .innerJoin("queries", "queries.id", "visualizations.query_id")
              .innerJoin(
                "data_source_groups",
                "data_source_groups.data_source_id",
                "queries.data_source_id",
              )
              .select("widgets.id")
              .whereRef("widgets.dashboard_id", "=", "dashboards.id")
              .where("data_source_groups.group_id", "in", groupIds),
          ),
        ]),
      ]),
    );
  }
  if (f.ids !== undefined) q = q.where("dashboards.id", "in", f.ids);
  if (f.favoritesOnly) {
    const rows = await q
      .innerJoin("favorites", (join) =>
        join
          .onRef("favorites.object_id", "=", "dashboards.id")
          .on("favorites.object_type", "=", "Dashboard")
          .on("favorites.user_id", "=", f.userId),
      )
      .select("favorites.created_at as starred_at")
      .execute();
    return rows.map((r) => ({ ...fromRow(r), starred_at: r.starred_at }));
  }
  return (await q.execute()).map((r) => ({ ...fromRow(r), starred_at: null }));
}

/** The ids of the dashboards the user viewed most recently, newest first. */
export async function recentlyViewedDashboardIds(
  db: Kysely<DB>,
  orgId: number,
  userId: number,
  limit: number,
): Promise<number[]> {
  const rows = await db
    .selectFrom("events")
    .select("object_id")
    .select((eb) => eb.fn.max("created_at").as("last_view"))
    .where("org_id", "=", orgId)
    .where("user_id", "=", userId)
    .where("action", "=", "view")
    .where("object_type", "=", "dashboard")
    .groupBy("object_id")
    .orderBy("last_view", "desc")
    .limit(limit)
    .execute();
  return rows.map((r) => Number(r.object_id)).filter((id) => Number.isSafeInteger(id));
}

/**
 * Fork (api-platform.md §7.5): a draft copy owned by `userId`, named after the source, with its
 * layout, filters flag, tags and every widget; the stored slug is the new id. One transaction.
 */
export async function forkDashboard(
  db: Kysely<DB>,
  source: Dashboard,
  userId: number,
  /** The widgets the fork gets (the caller chooses which of the source's). */
  widgets: Pick<Widget, "visualization_id" | "text" | "width" | "options">[],
  /** Runs before the commit with the fork's id (its first version is recorded there). */
  inTransaction?: (tx: Kysely<DB>, forkId: number) => Promise<void>,
): Promise<Dashboard> {
  return db.transaction().execute(async (tx) => {
    const fork = await insertDashboard(
      tx,
      source.org_id,
      {
        name: `Copy of (#${source.id}) ${source.name}`,
        user_id: userId,
        layout: source.layout,
        dashboard_filters_enabled: source.dashboard_filters_enabled,
        is_archived: false,
        is_draft: true,
        tags: source.tags,
        options: {},
      },
      "",
    );
    const slug = String(fork.id);
    await tx.updateTable("dashboards").set({ slug }).where("id", "=", fork.id).execute();
    const ts = now();
    // In batches: one statement's bound values are limited (SQLite: 32766).
    for (let start = 0; start < widgets.length; start += WIDGET_COPY_BATCH) {
      await tx
        .insertInto("widgets")
        .values(
          widgets.slice(start, start + WIDGET_COPY_BATCH).map((w) => ({
            visualization_id: w.visualization_id,
            text: w.text,
            width: w.width,
            options: toJson(w.options),
            dashboard_id: fork.id,
            created_at: ts,
            updated_at: ts,
          })),
        )
        .execute();
    }
    await inTransaction?.(tx, fork.id);
    return { ...fork, slug };
  });
}

/** Widgets copied per statement (7 values each). */
const WIDGET_COPY_BATCH = 500;
