// Organisation settings (api-platform §8) and client_config defaults (§4.1).

export interface OrganizationSettings {
  beacon_consent: boolean | null;
  auth_password_login_enabled: boolean;
  auth_saml_enabled: boolean;
  auth_saml_type: string;
  auth_saml_entity_id: string;
  auth_saml_metadata_url: string;
  auth_saml_nameid_format: string;
  auth_saml_sso_url: string;
  auth_saml_x509_cert: string;
  auth_saml_sp_settings: string;
  date_format: string;
  time_format: string;
  integer_format: string;
  float_format: string;
  thousands_separator: string;
  decimal_separator: string;
  null_value: string;
  multi_byte_search_enabled: boolean;
  auth_jwt_login_enabled: boolean;
  auth_jwt_auth_issuer: string;
  auth_jwt_auth_public_certs_url: string;
  auth_jwt_auth_audience: string;
  auth_jwt_auth_algorithms: string[];
  auth_jwt_auth_cookie_name: string;
  auth_jwt_auth_header_name: string;
  feature_show_permissions_control: boolean;
  send_email_on_failed_scheduled_queries: boolean;
  hide_plotly_mode_bar: boolean;
  disable_public_urls: boolean;
  /** Sightline's own: avatars from Gravatar (a third party) instead of initials drawn locally. */
  feature_gravatar_avatars: boolean;
  /**
   * Sightline's own: single sign-on group mapping, a provider's group name to a Sightline group.
   * Empty: off (sign-ins leave a user's groups alone). See docs/single-sign-on.md, "Group mapping".
   */
  auth_sso_group_mapping: SsoGroupMappingRule[];
}

/** One row of `auth_sso_group_mapping`. */
export interface SsoGroupMappingRule {
  /** A group name as the provider sends it (a claim, SAML or LDAP attribute value). */
  provider_group: string;
  /** A group of the organisation. */
  group_id: number;
}

export type OrganizationSettingKey = keyof OrganizationSettings;

// The specification's default (spec 3, constants); Redash's is DD/MM/YY. An organisation that stored
// a format keeps it.
export const DEFAULT_DATE_FORMAT = "YYYY-MM-DD";
export const DEFAULT_TIME_FORMAT = "HH:mm";

/** Server defaults; `auth_saml_enabled` is true only when SAML is configured (decided by the server). */
export const DEFAULT_ORGANIZATION_SETTINGS: Readonly<OrganizationSettings> = {
  beacon_consent: null,
  auth_password_login_enabled: true,
  auth_saml_enabled: false,
  auth_saml_type: "",
  auth_saml_entity_id: "",
  auth_saml_metadata_url: "",
  auth_saml_nameid_format: "",
  auth_saml_sso_url: "",
  auth_saml_x509_cert: "",
  auth_saml_sp_settings: "",
  date_format: DEFAULT_DATE_FORMAT,
  time_format: DEFAULT_TIME_FORMAT,
  integer_format: "0,0",
  float_format: "0,0.00",
  thousands_separator: ",",
  decimal_separator: ".",
  null_value: "null",
  multi_byte_search_enabled: false,
  auth_jwt_login_enabled: false,
  auth_jwt_auth_issuer: "",
  auth_jwt_auth_public_certs_url: "",
  auth_jwt_auth_audience: "",
  auth_jwt_auth_algorithms: ["HS256", "RS256", "ES256"],
  auth_jwt_auth_cookie_name: "",
  auth_jwt_auth_header_name: "",
  feature_show_permissions_control: false,
  send_email_on_failed_scheduled_queries: false,
  hide_plotly_mode_bar: false,
  disable_public_urls: false,
  feature_gravatar_avatars: false,
  auth_sso_group_mapping: [],
};

export const ORGANIZATION_SETTING_KEYS = Object.keys(
  DEFAULT_ORGANIZATION_SETTINGS,
) as OrganizationSettingKey[];

/** Stored outside the settings map but returned and accepted with it. */
export const GOOGLE_APPS_DOMAINS_KEY = "auth_google_apps_domains";

export function isOrganizationSettingKey(key: string): key is OrganizationSettingKey {
  return Object.prototype.hasOwnProperty.call(DEFAULT_ORGANIZATION_SETTINGS, key);
}

/**
 * Effective settings: stored value if set, else the default; keys whose effective value is
 * null are left out (as GET /api/settings/organization answers).
 */
export function effectiveSettings(
  stored: Readonly<Partial<Record<string, unknown>>>,
  defaults: Readonly<OrganizationSettings> = DEFAULT_ORGANIZATION_SETTINGS,
): Partial<Record<OrganizationSettingKey, unknown>> {
  const out: Partial<Record<OrganizationSettingKey, unknown>> = {};
  for (const key of ORGANIZATION_SETTING_KEYS) {
    const value = stored[key] !== undefined && stored[key] !== null ? stored[key] : defaults[key];
    if (value !== null && value !== undefined) out[key] = value;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// client_config

export const DEFAULT_DASHBOARD_REFRESH_INTERVALS: readonly number[] = [
  60, 300, 600, 1800, 3600, 43200, 86400,
];

export const DEFAULT_QUERY_REFRESH_INTERVALS: readonly number[] = [
  60, 300, 600, 900, 1800, 3600, 7200, 10800, 14400, 18000, 21600, 25200, 28800, 32400, 36000,
  39600, 43200, 86400, 604800, 1209600, 2592000,
];

export const DEFAULT_PAGE_SIZE = 20;
export const DEFAULT_PAGE_SIZE_OPTIONS: readonly number[] = [5, 10, 20, 50, 100];
export const DEFAULT_TABLE_CELL_MAX_JSON_SIZE = 50000;

const BASE_DATE_FORMATS = ["DD/MM/YY", "MM/DD/YY", "YYYY-MM-DD"];
const BASE_TIME_FORMATS = ["HH:mm", "HH:mm:ss", "HH:mm:ss.SSS"];

/** The date formats offered: the fixed list plus the server default, without duplicates. */
export function dateFormatList(serverDefault: string = DEFAULT_DATE_FORMAT): string[] {
  return [...new Set([...BASE_DATE_FORMATS, serverDefault])];
}

export function timeFormatList(serverDefault: string = DEFAULT_TIME_FORMAT): string[] {
  return [...new Set([...BASE_TIME_FORMATS, serverDefault])];
}

export function dateTimeFormat(
  settings: Pick<OrganizationSettings, "date_format" | "time_format">,
): string {
  return `${settings.date_format} ${settings.time_format}`;
}
