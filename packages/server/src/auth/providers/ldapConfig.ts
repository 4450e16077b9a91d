/**
 * LDAP sign-in settings from the environment, under Redash's names with the SIGHTLINE_ prefix.
 * See docs/single-sign-on.md, "LDAP".
 */
import fs from "node:fs";
import { bool, ConfigError, int, optional, str, type Env } from "../../configEnv";

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
  /** The attribute listing the user's groups (e.g. memberOf), for group mapping; null for none. */
  groupsKey: string | null;
  /** Upgrade an ldap:// connection with StartTLS. */
  startTls: boolean;
  /** PEM file of the CA that signed the directory's certificate, when not a system-trusted one. */
  caCert: string | null;
  /** Connect and per-operation time limit. */
  timeoutMs: number;
  /** The LDAP form's label for the user name. */
  loginPrompt: string;
}

const PLACEHOLDER = "%(username)s";

export function ldapConfig(env: Env): LdapConfig {
  const enabled = bool(env, "SIGHTLINE_LDAP_LOGIN_ENABLED", false);
  const url = optional(env, "SIGHTLINE_LDAP_URL");
  if (url !== null && !/^ldaps?:\/\/[^\s]+$/i.test(url)) {
    throw new ConfigError(`SIGHTLINE_LDAP_URL must be an ldap:// or ldaps:// URL, got "${url}"`);
  }
  if (enabled && url === null) {
    throw new ConfigError("SIGHTLINE_LDAP_LOGIN_ENABLED needs SIGHTLINE_LDAP_URL");
  }
  const searchDn = optional(env, "SIGHTLINE_LDAP_SEARCH_DN");
  if (enabled && searchDn === null) {
    throw new ConfigError("SIGHTLINE_LDAP_LOGIN_ENABLED needs SIGHTLINE_LDAP_SEARCH_DN");
  }
  const searchTemplate = str(env, "SIGHTLINE_LDAP_SEARCH_TEMPLATE", "(cn=%(username)s)");
  if (!searchTemplate.includes(PLACEHOLDER)) {
    throw new ConfigError(`SIGHTLINE_LDAP_SEARCH_TEMPLATE must contain ${PLACEHOLDER}`);
  }
  const startTls = bool(env, "SIGHTLINE_LDAP_START_TLS", false);
  if (startTls && url !== null && /^ldaps:/i.test(url)) {
    throw new ConfigError(
      "SIGHTLINE_LDAP_START_TLS is for ldap:// URLs; an ldaps:// connection is encrypted already",
    );
  }
  if (url !== null && !startTls && !/^ldaps:/i.test(url) && !isLoopbackUrl(url)) {
    // SECURITY.md rule 10: binds (which carry people's passwords) go over TLS. A directory on
    // this machine (or a local TLS tunnel such as stunnel) is the one exception.
    throw new ConfigError(
      "SIGHTLINE_LDAP_URL would send passwords unencrypted: use an ldaps:// URL or set " +
        "SIGHTLINE_LDAP_START_TLS=true (plain ldap:// is accepted only for a directory on this machine)",
    );
  }
  const caFile = optional(env, "SIGHTLINE_LDAP_CA_CERT_FILE");
  let caCert: string | null = null;
  if (caFile !== null) {
    try {
      caCert = fs.readFileSync(caFile, "utf8");
    } catch {
      throw new ConfigError(`SIGHTLINE_LDAP_CA_CERT_FILE cannot be read: ${caFile}`);
    }
  }
  return {
    enabled,
    url,
    bindDn: optional(env, "SIGHTLINE_LDAP_BIND_DN"),
    bindPassword: optional(env, "SIGHTLINE_LDAP_BIND_DN_PASSWORD"),
    searchDn,
    searchTemplate,
    displayNameKey: str(env, "SIGHTLINE_LDAP_DISPLAY_NAME_KEY", "displayName"),
    emailKey: str(env, "SIGHTLINE_LDAP_EMAIL_KEY", "mail"),
    groupsKey: optional(env, "SIGHTLINE_LDAP_GROUPS_KEY"),
    startTls,
    caCert,
    timeoutMs: int(env, "SIGHTLINE_LDAP_TIMEOUT_SECONDS", 10, 1, 300) * 1000,
    loginPrompt: str(env, "SIGHTLINE_LDAP_CUSTOM_USERNAME_PROMPT", "LDAP/AD/SSO username:"),
  };
}

/** ldap://localhost, ldap://127.x.x.x or ldap://[::1]: traffic that never leaves the machine. */
function isLoopbackUrl(url: string): boolean {
  const host = /^ldaps?:\/\/(\[[^\]]+\]|[^:/?#]+)/i.exec(url)?.[1].toLowerCase() ?? "";
  return host === "localhost" || host === "[::1]" || /^127(\.\d{1,3}){3}$/.test(host);
}
