import { http } from "./http";
import type { DashboardSummary } from "./types";

export function createDashboard(name: string): Promise<DashboardSummary> {
  return http.post<DashboardSummary>("api/dashboards", { name });
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
  const slug = dashboard.slug || slugify(dashboard.name);
  return slug ? `/dashboards/${dashboard.id}-${slug}` : `/dashboards/${dashboard.id}`;
}
