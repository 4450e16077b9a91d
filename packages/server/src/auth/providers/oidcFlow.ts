/**
 * What one OpenID Connect sign-in must remember between sending the browser to the provider and
 * its coming back: `state`, `nonce`, the PKCE code verifier, where to go next and whether it is an
 * admin's test sign-in. Kept in a short-lived cookie encrypted and authenticated (AES-256-GCM)
 * with a key of its own, on the method's callback path only. A state is accepted once: the
 * callback clears the cookie and this process remembers the state until the cookie would have
 * expired, so a copied cookie cannot be used again (the provider's authorization code is
 * single-use too, which holds across servers).
 */
import crypto from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Config } from "../../config";
import { decrypt, encrypt } from "../encryption";
import type { OidcMethod, OidcMethodName } from "./oidcClient";

export interface OidcFlow {
  method: OidcMethodName;
  state: string;
  nonce: string;
  codeVerifier: string;
  /** A sanitized path on this site, or "". */
  next: string;
  /** The admin who started a test sign-in, or null for a real one. */
  testedBy: number | null;
  expiresAt: number;
}

export const FLOW_LIFETIME_SECONDS = 600;

export function flowKey(sessionKey: Buffer): Buffer {
  return Buffer.from(crypto.hkdfSync("sha256", sessionKey, "sightline", "oidc-flow-cookie", 32));
}

function cookieName(method: OidcMethod): string {
  return `${method.name}_flow`;
}

/** The cookie's path: the callback's folder ("/oidc", "/oauth"), so no other page receives it. */
function cookiePath(method: OidcMethod): string {
  return method.callbackPath.slice(0, method.callbackPath.lastIndexOf("/")) || "/";
}

export function setFlowCookie(
  reply: FastifyReply,
  config: Config,
  key: Buffer,
  method: OidcMethod,
  flow: OidcFlow,
): void {
  reply.setCookie(cookieName(method), encrypt(key, JSON.stringify(flow)), {
    path: cookiePath(method),
    httpOnly: true,
    // Lax: the provider's redirect back is a top-level GET from another site.
    sameSite: "lax",
    secure: config.cookieSecure,
    maxAge: FLOW_LIFETIME_SECONDS,
  });
}

export function clearFlowCookie(reply: FastifyReply, method: OidcMethod): void {
  reply.clearCookie(cookieName(method), { path: cookiePath(method) });
}

/** The flow this browser started with this method, or null (none, unreadable or expired). */
export function readFlowCookie(
  request: FastifyRequest,
  key: Buffer,
  method: OidcMethod,
): OidcFlow | null {
  const value = request.cookies[cookieName(method)];
  if (!value) return null;
  let flow: Partial<OidcFlow>;
  try {
    flow = JSON.parse(decrypt(key, value)) as Partial<OidcFlow>;
  } catch {
    return null;
  }
  const ok =
    flow.method === method.name &&
    typeof flow.state === "string" &&
    typeof flow.nonce === "string" &&
    typeof flow.codeVerifier === "string" &&
    typeof flow.next === "string" &&
    (flow.testedBy === null || typeof flow.testedBy === "number") &&
    typeof flow.expiresAt === "number" &&
    flow.expiresAt > Date.now() / 1000;
  return ok ? (flow as OidcFlow) : null;
}

/** States already used by a callback in this process, until their flow would have expired. */
export class UsedStates {
  private readonly used = new Map<string, number>();

  /** Marks the state used; false when it already was. */
  claim(state: string, expiresAt: number): boolean {
    const now = Date.now() / 1000;
    for (const [old, until] of this.used) if (until <= now) this.used.delete(old);
    if (this.used.has(state)) return false;
    this.used.set(state, expiresAt);
    return true;
  }
}
