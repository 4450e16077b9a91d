/**
 * OpenID Connect settings from the environment: a generic provider by issuer URL (Okta, Keycloak,
 * Azure AD, Authentik, ...) and Google as a preset (Redash's SIGHTLINE_GOOGLE_* names). A method is
 * on when its client id and secret are set (and, for the generic provider, its issuer). See
 * docs/single-sign-on.md, "OpenID Connect".
 */
import { ConfigError, list, optional, str, type Env } from "../../configEnv";

export interface OidcConfig {
  /** On when issuer, client id and client secret are all set. */
  enabled: boolean;
  issuer: string | null;
  clientId: string | null;
  clientSecret: string | null;
  /** The login page's button text ("Sign in with <name>"). */
  displayName: string;
  scopes: string[];
  /** The ID token / userinfo claim holding group names, for group mapping; null: no mapping. */
  groupsClaim: string | null;
}

export interface GoogleConfig {
  enabled: boolean;
  clientId: string | null;
  clientSecret: string | null;
  /**
   * Google's issuer. Only tests change it (SIGHTLINE_GOOGLE_ISSUER), to point the preset at an
   * OpenID provider they start on 127.0.0.1.
   */
  issuer: string;
}

export const GOOGLE_ISSUER = "https://accounts.google.com";

/**
 * An issuer URL: https, or http only on the machine itself (a provider started next to Sightline,
 * as the tests do), since the client secret and the tokens travel in the clear over http.
 */
function issuerUrl(env: Env, name: string): string | null {
  const issuer = optional(env, name);
  if (issuer === null) return null;
  let url: URL | null;
  try {
    url = new URL(issuer);
  } catch {
    url = null;
  }
  const loopback = url !== null && ["127.0.0.1", "[::1]", "localhost"].includes(url.hostname);
  if (
    url === null ||
    url.search !== "" ||
    url.hash !== "" ||
    !(url.protocol === "https:" || (url.protocol === "http:" && loopback))
  ) {
    throw new ConfigError(
      `${name} must be an https URL without query (http only on 127.0.0.1 or localhost), got "${issuer}"`,
    );
  }
  return issuer;
}

export function oidcConfig(env: Env): OidcConfig {
  const issuer = issuerUrl(env, "SIGHTLINE_OIDC_ISSUER");
  const clientId = optional(env, "SIGHTLINE_OIDC_CLIENT_ID");
  const clientSecret = optional(env, "SIGHTLINE_OIDC_CLIENT_SECRET");
  const scopes = list(env, "SIGHTLINE_OIDC_SCOPES", ["openid", "email", "profile"]);
  if (!scopes.includes("openid")) {
    throw new ConfigError(`SIGHTLINE_OIDC_SCOPES must include openid, got "${scopes.join(",")}"`);
  }
  return {
    enabled: issuer !== null && clientId !== null && clientSecret !== null,
    issuer,
    clientId,
    clientSecret,
    displayName: str(env, "SIGHTLINE_OIDC_DISPLAY_NAME", "OpenID Connect"),
    scopes,
    groupsClaim: optional(env, "SIGHTLINE_OIDC_GROUPS_CLAIM"),
  };
}

export function googleConfig(env: Env): GoogleConfig {
  const clientId = optional(env, "SIGHTLINE_GOOGLE_CLIENT_ID");
  const clientSecret = optional(env, "SIGHTLINE_GOOGLE_CLIENT_SECRET");
  return {
    enabled: clientId !== null && clientSecret !== null,
    clientId,
    clientSecret,
    issuer: issuerUrl(env, "SIGHTLINE_GOOGLE_ISSUER") ?? GOOGLE_ISSUER,
  };
}
