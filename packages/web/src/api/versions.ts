// Typed calls of version history (issue 29), the same under api/queries/{id} and
// api/dashboards/{id}: the list of versions (newest first), one version as the object was then,
// and restoring one (which saves a new, higher version).
import type { Query } from "@sightline/core";
import type { DashboardDetail } from "./dashboards";
import { http } from "./http";

/** One saved version in the list: who saved it, when, and the names of the fields it changed. */
export interface VersionEntry {
  version: number;
  created_at: string;
  user: { id: number; name: string; profile_image_url?: string } | null;
  /** Names of the changed fields: "query", "name", "options", "widgets", … */
  changes: string[];
}

export interface VersionPage {
  count: number;
  page: number;
  page_size: number;
  results: VersionEntry[];
}

export type VersionedKind = "queries" | "dashboards";

/** What a version of each kind is: the object as GET api/{kind}/{id} answers it. */
export interface VersionedObject {
  queries: Query;
  dashboards: DashboardDetail;
}

export function listVersions(
  kind: VersionedKind,
  id: number,
  page: number,
  pageSize: number,
): Promise<VersionPage> {
  return http.get<VersionPage>(`api/${kind}/${id}/versions`, { page, page_size: pageSize });
}

export function getVersion<K extends VersionedKind>(
  kind: K,
  id: number,
  version: number,
): Promise<VersionedObject[K]> {
  return http.get<VersionedObject[K]>(`api/${kind}/${id}/versions/${version}`);
}

/**
 * Makes the object as it was at `version`; `expected` is the version the caller has now (the
 * server answers 409 when another save came first). Answers the object with its new version.
 */
export function restoreVersion<K extends VersionedKind>(
  kind: K,
  id: number,
  version: number,
  expected?: number,
): Promise<VersionedObject[K]> {
  return http.post<VersionedObject[K]>(
    `api/${kind}/${id}/versions/${version}/restore`,
    expected === undefined ? {} : { version: expected },
  );
}
