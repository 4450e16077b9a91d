import type { Identity } from "./identity";

/**
 * What a dashboard's share key opens (SECURITY.md rules 5 and 8): the public page, its
 * dashboard, the runs, results, jobs and dropdown lists of the queries its widgets show, and
 * the page's usage events.
 * The routes check which queries; this list keeps the key from counting as a credential
 * anywhere else, so a route that forgot API keys cannot be reached with it.
 */
const SHARE_KEY_ROUTES = new Set([
  "GET /public/dashboards/:token",
  // The web app's start: the key's own session (client settings, no user) and configuration.
  "GET /api/session",
  "GET /api/config",
  "GET /api/dashboards/public/:token",
  "POST /api/queries/:id/results",
  "GET /api/queries/:id/results",
  "GET /api/queries/:id/results/:rid",
  "GET /api/query_results/:id",
  "GET /api/jobs/:jobId",
  "GET /api/queries/:id/jobs/:jobId",
  "GET /api/queries/:id/dropdown",
  "GET /api/queries/:id/dropdowns/:dropdown_query_id",
  // Usage events the page reports, stored under the key's name (api-platform.md §7.4); reading
  // events stays an admin's.
  "POST /api/events",
]);

/** A dashboard share key: the identity of anonymous viewers of a public dashboard. */
export function isShareKey(identity: Identity): boolean {
  return identity.kind === "api_key" && identity.object.type === "dashboards";
}

/** The public page and its dashboard, which answer for themselves when public URLs are off. */
const PAGE_ROUTES = new Set(["GET /public/dashboards/:token", "GET /api/dashboards/public/:token"]);

/**
 * Whether an identity may act on the matched route (only share keys are limited here). With the
 * organisation's public URLs turned off, a share key runs and reads nothing.
 */
export function shareKeyOpens(
  identity: Identity,
  method: string,
  routeUrl: string | undefined,
  publicUrlsDisabled: boolean,
): boolean {
  if (!isShareKey(identity)) return true;
  const route = `${method === "HEAD" ? "GET" : method} ${routeUrl ?? ""}`;
  return publicUrlsDisabled ? PAGE_ROUTES.has(route) : SHARE_KEY_ROUTES.has(route);
}
