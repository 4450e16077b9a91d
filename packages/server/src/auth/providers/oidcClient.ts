/**
 * The two OpenID Connect methods (the generic provider and the Google preset) as one shape, and
 * each one's provider configuration from discovery (openid-client), fetched at the first sign-in
 * and kept for a day. The issuer is the operator's setting, not a user's, so discovery does not go
 * through the outbound guard: identity providers on the company network are normal.
 */
import * as client from "openid-client";
import type { Config } from "../../config";
import type { AppContext } from "../../context";
import type { SignInMethod } from "./testSignIn";

export type OidcMethodName = Extract<SignInMethod, "oidc" | "google">;

export interface OidcMethod {
  name: OidcMethodName;
  issuer: string;
  clientId: string;
  clientSecret: string;
  scopes: string[];
  /** "Sign in with <displayName>". */
  displayName: string;
  loginPath: string;
  callbackPath: string;
  /** The claim holding group names, or null. */
  groupsClaim: string | null;
}

/** Each method's paths; Google's are Redash's, so a Google client's redirect URI keeps working. */
export const OIDC_PATHS: Record<OidcMethodName, { login: string; callback: string }> = {
  google: { login: "/oauth/google", callback: "/oauth/google_callback" },
  oidc: { login: "/oidc/login", callback: "/oidc/callback" },
};

/** Clock skew tolerated in the ID token's times, and no more (SECURITY.md, single sign-on). */
export const CLOCK_TOLERANCE_SECONDS = 60;
const DISCOVERY_TTL_MS = 24 * 3600 * 1000;
const HTTP_TIMEOUT_SECONDS = 10;

/** The method by its name, or null while it is off. */
export function oidcMethod(config: Config, name: OidcMethodName): OidcMethod | null {
  if (name === "google") {
    const { enabled, clientId, clientSecret, issuer } = config.google;
    if (!enabled || !clientId || !clientSecret) return null;
    return {
      name,
      issuer,
      clientId,
      clientSecret,
      scopes: ["openid", "email", "profile"],
      displayName: "Google",
      loginPath: OIDC_PATHS.google.login,
      callbackPath: OIDC_PATHS.google.callback,
      groupsClaim: null,
    };
  }
  const { enabled, issuer, clientId, clientSecret } = config.oidc;
  if (!enabled || !issuer || !clientId || !clientSecret) return null;
  return {
    name,
    issuer,
    clientId,
    clientSecret,
    scopes: config.oidc.scopes,
    displayName: config.oidc.displayName,
    loginPath: OIDC_PATHS.oidc.login,
    callbackPath: OIDC_PATHS.oidc.callback,
    groupsClaim: config.oidc.groupsClaim,
  };
}

/** The address the provider sends the browser back to; registered with the provider. */
export function redirectUri(config: Config, method: OidcMethod): string {
  return `${config.baseUrl}${method.callbackPath}`;
}

/** Discovered provider configurations, by method and issuer, each kept for a day. */
export class OidcDiscovery {
  private readonly cache = new Map<
    string,
    { at: number; configuration: Promise<client.Configuration> }
  >();

  configuration(method: OidcMethod): Promise<client.Configuration> {
    const key = `${method.name} ${method.issuer} ${method.clientId}`;
    const cached = this.cache.get(key);
    if (cached && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.configuration;
    const configuration = discover(method);
    this.cache.set(key, { at: Date.now(), configuration });
    // A provider that could not be reached is asked again at the next sign-in.
    configuration.catch(() => {
      if (this.cache.get(key)?.configuration === configuration) this.cache.delete(key);
    });
    return configuration;
  }
}

const discoveries = new WeakMap<AppContext, OidcDiscovery>();

/** The application's discovered configurations (one cache per running server). */
export function discoveryFor(ctx: AppContext): OidcDiscovery {
  let discovery = discoveries.get(ctx);
  if (!discovery) {
    discovery = new OidcDiscovery();
    discoveries.set(ctx, discovery);
  }
  return discovery;
}

async function discover(method: OidcMethod): Promise<client.Configuration> {
  const issuer = new URL(method.issuer);
  // oidcConfig allows http only on the machine itself.
  const insecure = issuer.protocol === "http:";
  const configuration = await client.discovery(
    issuer,
    method.clientId,
    { client_secret: method.clientSecret, [client.clockTolerance]: CLOCK_TOLERANCE_SECONDS },
    client.ClientSecretBasic(method.clientSecret),
    {
      timeout: HTTP_TIMEOUT_SECONDS,
      ...(insecure ? { execute: [client.allowInsecureRequests] } : {}),
    },
  );
  configuration.timeout = HTTP_TIMEOUT_SECONDS;
  // openid-client trusts an ID token from the token endpoint by TLS alone unless told otherwise;
  // Sightline checks its signature against the provider's published keys too.
  client.enableNonRepudiationChecks(configuration);
  return configuration;
}
