import { isSavedQuerySafe } from "@sightline/core";
import type { Query, ListedQuery } from "../store/queries";
import type { User } from "../store/users";
import type { Visualization } from "../store/visualizations";
import { presentUser } from "./users";
import { presentVisualization } from "./visualizations";

/** The query JSON variants (api-queries.md §2A.3). */

function base(q: Query) {
  return {
    id: q.id,
    latest_query_data_id: q.latest_query_data_id,
    name: q.name,
    description: q.description,
    query: q.query,
    query_hash: q.query_hash,
    schedule: q.schedule,
    api_key: q.api_key,
    is_archived: q.is_archived,
    is_draft: q.is_draft,
    updated_at: q.updated_at,
    created_at: q.created_at,
    data_source_id: q.data_source_id,
    options: q.options,
    version: q.version,
    tags: q.tags,
    is_safe: isSavedQuerySafe(q.query, q.options),
  };
}

const userOrNull = (users: Map<number, User>, id: number | null) => {
  const user = id === null ? undefined : users.get(id);
  return user ? presentUser(user) : null;
};

/** list, my, archive and favorites. */
export function presentListedQuery(
  q: ListedQuery,
  users: Map<number, User>,
  starredAt: string | null,
  lastScheduledRunFailed = false,
) {
  return {
    ...base(q),
    user: userOrNull(users, q.user_id),
    last_modified_by_id: q.last_modified_by_id,
    retrieved_at: q.retrieved_at,
    runtime: q.runtime,
    schedule_failures: q.schedule_failures,
    last_scheduled_run_failed: lastScheduledRunFailed,
    is_favorite: starredAt !== null,
    ...(starredAt !== null ? { starred_at: starredAt } : {}),
  };
}

export function presentRecentQuery(q: Query, starredAt: string | null) {
  return {
    ...base(q),
    user_id: q.user_id,
    last_modified_by_id: q.last_modified_by_id,
    is_favorite: starredAt !== null,
    ...(starredAt !== null ? { starred_at: starredAt } : {}),
  };
}

export interface DetailExtras {
  users: Map<number, User>;
  visualizations?: Visualization[];
  canEdit?: boolean;
  /** undefined = omitted (API keys). */
  isFavorite?: boolean;
}

/** detail (GET one: with can_edit), write (create/save/fork) and key (no visualizations). */
export function presentQueryDetail(q: Query, extras: DetailExtras) {
  return {
    ...base(q),
    user: userOrNull(extras.users, q.user_id),
    last_modified_by: userOrNull(extras.users, q.last_modified_by_id),
    ...(extras.visualizations
      ? { visualizations: extras.visualizations.map(presentVisualization) }
      : {}),
    ...(extras.canEdit !== undefined ? { can_edit: extras.canEdit } : {}),
    ...(extras.isFavorite !== undefined ? { is_favorite: extras.isFavorite } : {}),
  };
}
