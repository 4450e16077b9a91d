import type { OrganizationSettings } from "@sightline/core";
import { http } from "./http";

/** What GET/POST api/settings/organization carry: the effective settings plus the Google domains. */
export type OrganizationSettingsValues = Partial<OrganizationSettings> & {
  auth_google_apps_domains?: string[];
};

export async function getOrganizationSettings(): Promise<OrganizationSettingsValues> {
  const answer = await http.get<{ settings: OrganizationSettingsValues }>(
    "api/settings/organization",
  );
  return answer.settings;
}

export async function saveOrganizationSettings(
  changes: OrganizationSettingsValues,
): Promise<OrganizationSettingsValues> {
  const answer = await http.post<{ settings: OrganizationSettingsValues }>(
    "api/settings/organization",
    changes,
  );
  return answer.settings;
}
