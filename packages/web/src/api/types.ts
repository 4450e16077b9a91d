// Shapes of the API entities the app shell reads: the shared ones come from @sightline/core,
// the few that core does not define yet are kept here.
import type { Dashboard, Paginated, Query, Session, SessionUser } from "@sightline/core";

export type {
  ClientConfig,
  Session,
  SessionMessage,
  SessionUser,
  ApiKeySessionUser,
} from "@sightline/core";

export type Permission = string;

/** What the shell needs of a user: the permission list (session users and API-key principals). */
export interface PermissionHolder {
  permissions: readonly Permission[];
}

export type SessionPrincipal = Session["user"];

/** A session of a logged-in user (not an API-key principal). */
export type AuthenticatedSession = Session & { user: SessionUser };

export interface ObjectCounters {
  data_sources: number;
  queries: number;
  alerts: number;
  dashboards: number;
  users: number;
}

/** Sightline's own: how many of the counted objects are setup's Demo objects. */
export interface DemoCounters {
  queries: number;
  dashboards: number;
}

export interface OrganizationStatus {
  object_counters: ObjectCounters;
  demo_counters?: DemoCounters;
}

export type DashboardSummary = Pick<Dashboard, "id" | "name"> &
  Partial<Pick<Dashboard, "slug" | "is_draft" | "is_archived" | "is_favorite" | "tags">>;

export type QuerySummary = Pick<Query, "id" | "name"> &
  Partial<Pick<Query, "is_draft" | "is_archived" | "is_favorite" | "tags">>;

/** Paged list answer of the list endpoints (api/queries, api/dashboards and their variants). */
export type Page<T> = Paginated<T>;

export interface UsageEvent {
  action: string;
  object_type: string;
  object_id: string | number | null;
  timestamp: number;
  screen_resolution: string;
}
