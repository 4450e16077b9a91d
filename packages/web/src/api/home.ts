import { isApiError } from "./errors";
import { http } from "./http";
import type { DashboardSummary, OrganizationStatus, Page, QuerySummary } from "./types";

export function getOrganizationStatus(): Promise<OrganizationStatus> {
  return http.get<OrganizationStatus>("api/organization/status");
}

/** A list route the server does not have yet (404) reads as an empty list. */
async function listOrEmpty<T>(path: string): Promise<T[]> {
  try {
    const page = await http.get<Page<T> | T[]>(path, { page: 1, page_size: 20 });
    return Array.isArray(page) ? page : (page?.results ?? []);
  } catch (error) {
    if (isApiError(error) && error.status === 404) return [];
    throw error;
  }
}

export function getFavoriteDashboards(): Promise<DashboardSummary[]> {
  return listOrEmpty<DashboardSummary>("api/dashboards/favorites");
}

export function getFavoriteQueries(): Promise<QuerySummary[]> {
  return listOrEmpty<QuerySummary>("api/queries/favorites");
}

export function resendVerificationEmail(): Promise<{ message: string }> {
  return http.post<{ message: string }>("verification_email/");
}

export function saveBeaconConsent(consent: boolean): Promise<unknown> {
  return http.post("api/settings/organization", { beacon_consent: consent });
}
