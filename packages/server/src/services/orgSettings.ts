import {
  DEFAULT_ORGANIZATION_SETTINGS,
  GOOGLE_APPS_DOMAINS_KEY,
  effectiveSettings as effectiveFromStored,
  type OrganizationSettingKey,
  type OrganizationSettings,
} from "@sightline/core";
import type { Organization } from "../store/organizations";

/**
 * Organisation settings as stored on the organisation row: `settings.settings` holds the map
 * (api-platform.md §8), `settings.google_apps_domains` the Google domains, as Redash does.
 * Keys, types and defaults come from @sightline/core.
 */
function storedMap(org: Organization): Record<string, unknown> {
  const map = org.settings.settings;
  return map && typeof map === "object" ? (map as Record<string, unknown>) : {};
}

export function orgSetting<K extends OrganizationSettingKey>(
  org: Organization,
  key: K,
): OrganizationSettings[K] {
  const stored = storedMap(org)[key];
  return (
    stored === undefined || stored === null ? DEFAULT_ORGANIZATION_SETTINGS[key] : stored
  ) as OrganizationSettings[K];
}

export function googleAppsDomains(org: Organization): string[] {
  const domains = org.settings.google_apps_domains;
  return Array.isArray(domains) ? domains.filter((d): d is string => typeof d === "string") : [];
}

/** GET /api/settings/organization: every effective non-null value, plus the Google domains. */
export function effectiveSettings(org: Organization): Record<string, unknown> {
  return {
    ...effectiveFromStored(storedMap(org)),
    [GOOGLE_APPS_DOMAINS_KEY]: googleAppsDomains(org),
  };
}
