/**
 * Logout at the provider too. A sign-in through OpenID Connect leaves a cookie (encrypted, sent
 * only to /logout) naming the method and holding the ID token as the logout's hint; Sightline's
 * /logout ends its own session first and then, when that provider publishes an
 * end_session_endpoint (RP-initiated logout), sends the browser there, to come back to the login
 * page. Without the cookie, or for a provider without the endpoint (Google), /logout is
 * Sightline's alone.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import * as client from "openid-client";
import type { AppContext } from "../../context";
import { decrypt, encrypt } from "../encryption";
import { discoveryFor, oidcMethod, type OidcMethod, type OidcMethodName } from "./oidcClient";
import { flowKey } from "./oidcFlow";

const COOKIE = "oidc_logout";
const COOKIE_PATH = "/logout";
/** Browsers keep cookies up to about 4 KB; a longer ID token is left out (client_id suffices). */
const MAX_COOKIE_VALUE = 3800;

interface LogoutData {
  method: OidcMethodName;
  idToken: string | null;
}

export function setLogoutCookie(
  reply: FastifyReply,
  ctx: AppContext,
  key: Buffer,
  method: OidcMethod,
  idToken: string | undefined,
): void {
  const seal = (data: LogoutData) => encrypt(key, JSON.stringify(data));
  let value = seal({ method: method.name, idToken: idToken ?? null });
  if (value.length > MAX_COOKIE_VALUE) value = seal({ method: method.name, idToken: null });
  reply.setCookie(COOKIE, value, {
    path: COOKIE_PATH,
    httpOnly: true,
    sameSite: "lax",
    secure: ctx.config.cookieSecure,
    maxAge: Math.max(ctx.config.sessionLifetimeSeconds, ctx.config.rememberLifetimeSeconds),
  });
}

/**
 * Forgets an earlier OpenID Connect sign-in's logout at the provider: called when a session is
 * started another way (password, LDAP, SAML, ...), whose /logout must stay Sightline's own.
 */
export function clearLogoutCookie(request: FastifyRequest, reply: FastifyReply): void {
  if (request.cookies[COOKIE] !== undefined) reply.clearCookie(COOKIE, { path: COOKIE_PATH });
}

function readLogoutCookie(request: FastifyRequest, key: Buffer): LogoutData | null {
  const value = request.cookies[COOKIE];
  if (!value) return null;
  try {
    const data = JSON.parse(decrypt(key, value)) as Partial<LogoutData>;
    if (data.method !== "oidc" && data.method !== "google") return null;
    return { method: data.method, idToken: typeof data.idToken === "string" ? data.idToken : null };
  } catch {
    return null;
  }
}

/**
 * Called by /logout after the Sightline session ended: the provider's logout address to go to,
 * or null to go to the login page. Clears the cookie either way.
 */
export async function providerLogoutUrl(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: AppContext,
): Promise<string | null> {
  const data = readLogoutCookie(request, flowKey(ctx.keys.session));
  clearLogoutCookie(request, reply);
  const method = data && oidcMethod(ctx.config, data.method);
  if (!data || !method) return null;
  try {
    const configuration = await discoveryFor(ctx).configuration(method);
    if (!configuration.serverMetadata().end_session_endpoint) return null;
    const url = client.buildEndSessionUrl(configuration, {
      client_id: method.clientId,
      post_logout_redirect_uri: `${ctx.config.baseUrl}/login`,
      ...(data.idToken ? { id_token_hint: data.idToken } : {}),
    });
    return url.href;
  } catch (err) {
    request.log.warn(
      { method: method.name, err: err instanceof Error ? err.name : "error" },
      "the identity provider's logout address could not be found; signed out of Sightline only",
    );
    return null;
  }
}
