// Typed calls of the dashboard area: lists, one dashboard, its widgets, favorites (reference §7.5–7.7).
import type { Dashboard, Paginated, Visualization, Widget } from "@sightline/core";
import { http } from "./http";
import { getListPage, getListTags, type ListParams, type TagCount } from "./lists";
import type { DashboardSummary } from "./types";

export type DashboardListKind = "all" | "my" | "favorites" | "archive";

/** A row of the dashboard lists: the dashboard without its widgets. */
export type DashboardListItem = Omit<Dashboard, "widgets"> & { widgets: null };

const LIST_PATHS: Record<DashboardListKind, string> = {
  all: "api/dashboards",
  my: "api/dashboards/my",
  favorites: "api/dashboards/favorites",
  archive: "api/dashboards/archive",
};

export function listDashboards(
  kind: DashboardListKind,
  params: ListParams,
): Promise<Paginated<DashboardListItem>> {
  return getListPage(LIST_PATHS[kind], params);
}

export function getDashboardTags(): Promise<TagCount[]> {
  return getListTags("api/dashboards/tags");
}

/** Where a widget sits on the grid (Redash's options.position). */
export interface WidgetPosition {
  col: number;
  row: number;
  sizeX: number;
  sizeY: number;
  minSizeX?: number;
  maxSizeX?: number;
  minSizeY?: number;
  maxSizeY?: number;
  autoHeight?: boolean;
}

export type MappingType = "dashboard-level" | "widget-level" | "static-value";

/** How a widget's query parameter gets its value (spec 3 §3). */
export interface ParameterMapping {
  name: string;
  type: MappingType;
  mapTo: string;
  value: unknown;
  title: string;
}

export interface WidgetOptions {
  position?: Partial<WidgetPosition>;
  parameterMappings?: Record<string, ParameterMapping>;
  paramOrder?: string[];
  isHidden?: boolean;
  [key: string]: unknown;
}

/** A widget as the dashboard answer holds it; `visualization.query` is the full query. */
export type DashboardWidget = Omit<Widget, "options"> & {
  options: WidgetOptions;
  visualization?: Visualization;
};

/** One dashboard with its widgets and the caller's rights. */
export type DashboardDetail = Omit<Dashboard, "widgets"> & { widgets: DashboardWidget[] };

/** By id, or by the stored slug with the legacy flag (the /dashboard/{slug} route). */
export function getDashboard(idOrSlug: number | string, legacy = false): Promise<DashboardDetail> {
  return http.get<DashboardDetail>(
    `api/dashboards/${encodeURIComponent(String(idOrSlug))}`,
    legacy ? { legacy: "" } : undefined,
  );
}

export function createDashboard(name: string): Promise<DashboardSummary> {
  return http.post<DashboardSummary>("api/dashboards", { name });
}

/** The fields a save may change; `version` makes a stale save fail with 409. */
export interface DashboardSaveBody {
  name?: string;
  tags?: string[];
  is_draft?: boolean;
  is_archived?: boolean;
  dashboard_filters_enabled?: boolean;
  options?: Record<string, unknown>;
  version?: number;
}

export function saveDashboard(id: number, body: DashboardSaveBody): Promise<DashboardDetail> {
  return http.post<DashboardDetail>(`api/dashboards/${id}`, { id, ...body });
}

/** Archive: DELETE of the dashboard (it stays, archived). */
export function archiveDashboard(id: number): Promise<DashboardDetail> {
  return http.delete<DashboardDetail>(`api/dashboards/${id}`);
}

export function setDashboardFavorite(id: number, favorite: boolean): Promise<null> {
  return favorite
    ? http.post<null>(`api/dashboards/${id}/favorite`)
    : http.delete<null>(`api/dashboards/${id}/favorite`);
}

export interface WidgetCreateBody {
  dashboard_id: number;
  visualization_id: number | null;
  text: string;
  width: number;
  options: WidgetOptions;
}

export function createWidget(body: WidgetCreateBody): Promise<DashboardWidget> {
  return http.post<DashboardWidget>("api/widgets", body);
}

/** A save replaces both the text and the options. */
export function saveWidget(
  id: number,
  body: { text: string; options: WidgetOptions },
): Promise<DashboardWidget> {
  return http.post<DashboardWidget>(`api/widgets/${id}`, body);
}

export function deleteWidget(id: number): Promise<null> {
  return http.delete<null>(`api/widgets/${id}`);
}

/** Turns a name into the URL slug the server would give it (used only when the answer has none). */
export function slugify(name: string): string {
  return name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** The dashboard's address: dashboards/{id}-{slug}. */
export function dashboardPath(dashboard: Pick<DashboardSummary, "id" | "name" | "slug">): string {
  // The server's slug keeps Redash's form ("orders-(eu)" → "orders-eu-"); the address drops
  // hyphens at its ends, which the id lookup ignores anyway.
  const slug = (dashboard.slug || slugify(dashboard.name)).replace(/^-+|-+$/g, "");
  return slug ? `/dashboards/${dashboard.id}-${slug}` : `/dashboards/${dashboard.id}`;
}

/** The id part of a /dashboards/{id}-{slug} address, or null when it is not a number. */
export function dashboardIdFromPath(param: string): number | null {
  const id = param.split("-")[0];
  return /^\d+$/.test(id) ? Number(id) : null;
}

/** Turns public access on (reusing the active share key): the secret address and its key. */
export function shareDashboard(id: number): Promise<{ public_url: string; api_key: string }> {
  return http.post(`api/dashboards/${id}/share`);
}

/** Turns public access off: every share key of the dashboard stops working. */
export function unshareDashboard(id: number): Promise<null> {
  return http.delete<null>(`api/dashboards/${id}/share`);
}

/** A dashboard as its public page reads it (no ids of owners, no query text). */
export interface PublicDashboard {
  name: string;
  dashboard_filters_enabled: boolean;
  options: { globalParamOrder?: unknown; [key: string]: unknown };
  widgets: DashboardWidget[];
}

/** The dashboard a share key opens; the key must be the client's API key too. */
export function getPublicDashboard(token: string): Promise<PublicDashboard> {
  return http.get<PublicDashboard>(`api/dashboards/public/${encodeURIComponent(token)}`);
}
