/**
 * LDAP sign-in settings from the environment, under Redash's names with the SIGHTLINE_ prefix.
 * See docs/single-sign-on.md, "LDAP".
 */
import { bool, ConfigError, optional, str, type Env } from "../../configEnv";

export interface LdapConfig {
  enabled: boolean;
  /** ldap:// or ldaps:// */
  url: string | null;
  bindDn: string | null;
  bindPassword: string | null;
  /** The search base. */
  searchDn: string | null;
  /** Filter with %(username)s where the (escaped) user name goes, as Redash's. */
  searchTemplate: string;
  displayNameKey: string;
  emailKey: string;
  /** Upgrade an ldap:// connection with StartTLS. */
  startTls: boolean;
  /** The login page's button and form title. */
  loginPrompt: string;
}

export function ldapConfig(env: Env): LdapConfig {
  const enabled = bool(env, "SIGHTLINE_LDAP_LOGIN_ENABLED", false);
  const url = optional(env, "SIGHTLINE_LDAP_URL");
  if (url !== null && !/^ldaps?:\/\/[^\s]+$/i.test(url)) {
    throw new ConfigError(`SIGHTLINE_LDAP_URL must be an ldap:// or ldaps:// URL, got "${url}"`);
  }
  if (enabled && url === null) {
    throw new ConfigError("SIGHTLINE_LDAP_LOGIN_ENABLED needs SIGHTLINE_LDAP_URL");
  }
  return {
    enabled,
    url,
    bindDn: optional(env, "SIGHTLINE_LDAP_BIND_DN"),
    bindPassword: optional(env, "SIGHTLINE_LDAP_BIND_DN_PASSWORD"),
    searchDn: optional(env, "SIGHTLINE_LDAP_SEARCH_DN"),
    searchTemplate: str(env, "SIGHTLINE_LDAP_SEARCH_TEMPLATE", "(cn=%(username)s)"),
    displayNameKey: str(env, "SIGHTLINE_LDAP_DISPLAY_NAME_KEY", "displayName"),
    emailKey: str(env, "SIGHTLINE_LDAP_EMAIL_KEY", "mail"),
    startTls: bool(env, "SIGHTLINE_LDAP_START_TLS", false),
    loginPrompt: str(env, "SIGHTLINE_LDAP_CUSTOM_USERNAME_PROMPT", "LDAP/AD/SSO username:"),
  };
}
