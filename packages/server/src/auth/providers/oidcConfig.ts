/**
 * OpenID Connect settings from the environment: a generic provider by issuer URL (Okta, Keycloak,
 * Azure AD, Authentik, ...) and Google as a preset (Redash's SIGHTLINE_GOOGLE_* names). A method is
 * on when its client id and secret are set. See docs/single-sign-on.md.
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
}

export function oidcConfig(env: Env): OidcConfig {
  const issuer = optional(env, "SIGHTLINE_OIDC_ISSUER");
  if (issuer !== null && !/^https?:\/\/[^\s]+$/.test(issuer)) {
    throw new ConfigError(`SIGHTLINE_OIDC_ISSUER must be an http(s) URL, got "${issuer}"`);
  }
  const clientId = optional(env, "SIGHTLINE_OIDC_CLIENT_ID");
  const clientSecret = optional(env, "SIGHTLINE_OIDC_CLIENT_SECRET");
  return {
    enabled: issuer !== null && clientId !== null && clientSecret !== null,
    issuer,
    clientId,
    clientSecret,
    displayName: str(env, "SIGHTLINE_OIDC_DISPLAY_NAME", "OpenID Connect"),
    scopes: list(env, "SIGHTLINE_OIDC_SCOPES", ["openid", "email", "profile"]),
    groupsClaim: optional(env, "SIGHTLINE_OIDC_GROUPS_CLAIM"),
  };
}

export function googleConfig(env: Env): GoogleConfig {
  const clientId = optional(env, "SIGHTLINE_GOOGLE_CLIENT_ID");
  const clientSecret = optional(env, "SIGHTLINE_GOOGLE_CLIENT_SECRET");
  return { enabled: clientId !== null && clientSecret !== null, clientId, clientSecret };
}
