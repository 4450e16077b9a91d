import type { Dashboard } from "../store/dashboards";
import { slugify } from "../store/dashboards";
import type { User } from "../store/users";
import { profileImageUrl } from "./users";
import type { presentPublicWidget, presentWidget } from "./widgets";

export interface DashboardExtras {
  owner: User | undefined;
  /** Presented widgets; null in lists and the create answer. */
  widgets: ReturnType<typeof presentWidget>[] | null;
  /** undefined = omitted (API keys). */
  isFavorite?: boolean;
  /** Lists: when the caller favorited it (omitted when not). */
  starredAt?: string | null;
  /** GET one only. */
  canEdit?: boolean;
  /** GET one only, when an active share key exists. */
  share?: { publicUrl: string; apiKey: string };
}

/** Dashboard JSON (api-platform.md §6.4); the stored slug is never shown. */
export function presentDashboard(d: Dashboard, extras: DashboardExtras) {
  const { owner } = extras;
  return {
    id: d.id,
    slug: slugify(d.name),
    name: d.name,
    user_id: d.user_id,
    user: owner
      ? {
          id: owner.id,
          name: owner.name,
          email: owner.email,
          profile_image_url: profileImageUrl(owner),
        }
      : null,
    layout: d.layout,
    dashboard_filters_enabled: d.dashboard_filters_enabled,
    widgets: extras.widgets,
    options: d.options,
    is_archived: d.is_archived,
    is_draft: d.is_draft,
    tags: d.tags,
    updated_at: d.updated_at,
    created_at: d.created_at,
    version: d.version,
    ...(extras.isFavorite !== undefined ? { is_favorite: extras.isFavorite } : {}),
    ...(extras.starredAt ? { starred_at: extras.starredAt } : {}),
    ...(extras.canEdit !== undefined ? { can_edit: extras.canEdit } : {}),
    ...(extras.share ? { public_url: extras.share.publicUrl, api_key: extras.share.apiKey } : {}),
  };
}

/** A shared dashboard as its public page reads it (api-platform.md §6.6). */
export function presentPublicDashboard(
  d: Dashboard,
  widgets: ReturnType<typeof presentPublicWidget>[],
) {
  return {
    name: d.name,
    layout: d.layout,
    dashboard_filters_enabled: d.dashboard_filters_enabled,
    updated_at: d.updated_at,
    created_at: d.created_at,
    options: d.options,
    widgets,
  };
}
