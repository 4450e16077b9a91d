/**
 * The ends every outside sign-in method shares (LDAP, OpenID Connect and Google, SAML, the
 * reverse proxy's header): the identity to a user through the just-in-time path, then either a
 * session (completeSignIn) or the login page with the reason (refuseSignIn).
 */
import { sanitizeNext } from "@sightline/core";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { AppContext } from "../../context";
import { recordEvent } from "../../services/events";
import type { Organization } from "../../store/organizations";
import type { User } from "../../store/users";
import { startSession } from "../requestAuth";
import { groupMappingFor } from "./groupMapping";
import { userForIdentity, type JustInTimeResult, type OutsideIdentity } from "./justInTime";
import { clearLogoutCookie } from "./oidcLogout";
import { clearSamlLogoutCookie } from "./samlLogout";
import { loginWithError, signInErrorMessage, type SignInError } from "./signInErrors";
import { sendTestSignInResult, type SignInMethod } from "./testSignIn";

/** A path on this site to go to after signing in, or "" for home. */
export function safeNextPath(next: unknown): string {
  const safe = sanitizeNext(typeof next === "string" ? next : "");
  // sanitizeNext answers "./" for a refused address; relative to a callback that is no page.
  return safe.startsWith("/") && !safe.startsWith("//") ? safe : "";
}

/**
 * The user an outside identity signs in as (found, or created just in time), with the
 * organisation's group mapping applied unless `mapGroups` is false (a method without groups).
 */
export function userForSignIn(
  ctx: AppContext,
  org: Organization,
  identity: OutsideIdentity,
  mapGroups = true,
): Promise<JustInTimeResult> {
  return userForIdentity(ctx.database.db, org.id, identity, {
    blockedDomains: ctx.config.blockedEmailDomains,
    ...(mapGroups ? { mapGroups: groupMappingFor(ctx, org) } : {}),
  });
}

export interface SignedIn {
  user: User;
  created: boolean;
  /** Keep the session after the browser closes (the remember-me cookie). */
  remember: boolean;
  /** Where to go now ("" for home), already checked to be on this site. */
  next: string;
  /** The log line's words, e.g. "signed in by SAML", and its extra fields. */
  logMessage: string;
  log?: Record<string, unknown>;
  /**
   * Sets this method's cookie for logging out at the provider too (OpenID Connect, SAML). Such
   * cookies left by an earlier sign-in in this browser are cleared first.
   */
  providerLogout?: (reply: FastifyReply) => void;
}

/** A sign-in that found its user: a session, the "login" event, a log line, then `next`. */
export async function completeSignIn(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: AppContext,
  signedIn: SignedIn,
): Promise<FastifyReply> {
  const { user } = signedIn;
  startSession(request, user, signedIn.remember);
  // An earlier sign-in's logout at a provider is forgotten; this one's may replace it.
  clearLogoutCookie(request, reply);
  clearSamlLogoutCookie(request, reply);
  signedIn.providerLogout?.(reply);
  await recordEvent(ctx.database.db, {
    orgId: user.org_id,
    userId: user.id,
    action: "login",
    objectType: "redash",
    request,
  });
  request.log.info(
    { ...signedIn.log, userId: user.id, created: signedIn.created },
    signedIn.logMessage,
  );
  return reply.redirect(signedIn.next || "/");
}

export interface Refusal {
  error: SignInError;
  /** Where the person wanted to go, kept on the login page. */
  next: string;
  /** The log line's words, e.g. "SAML login refused", and its extra fields. */
  logMessage: string;
  log?: Record<string, unknown>;
  /** In a test sign-in, its method: the refusal is shown on the test's result page instead. */
  test?: SignInMethod | null;
}

/** A sign-in that ends without a user: logged, then the login page with the reason. */
export function refuseSignIn(
  request: FastifyRequest,
  reply: FastifyReply,
  refusal: Refusal,
): Promise<FastifyReply> | FastifyReply {
  request.log.warn({ reason: refusal.error, ...refusal.log }, refusal.logMessage);
  if (refusal.test) {
    return sendTestSignInResult(reply, refusal.test, {
      error: signInErrorMessage(refusal.error)!,
    });
  }
  return reply.redirect(loginWithError(refusal.error, refusal.next));
}
