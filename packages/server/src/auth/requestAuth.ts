import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { AppContext } from "../context";
import { DEFAULT_ORG_SLUG, type Organization } from "../store/organizations";
import { findOrgBySlugCached } from "../store/orgCache";
import { touchActiveAt, type User } from "../store/users";
import { recordEndedSession } from "../store/endedSessions";
import { checkCsrfToken, makeCsrfToken } from "./csrf";
import { identityFromHmac, type SignedRequest } from "./hmac";
import { shareKeyOpens } from "./shareKeyRoutes";
import { orgSetting } from "../services/orgSettings";
import { JwtKeyStore, checkJwt, jwtOf, jwtSettings, type JwtSettings } from "./jwt";
import { createOutboundClient } from "../outbound/client";
import { HttpError } from "../http/errors";
import { userForIdentity } from "./providers/justInTime";
import {
  ANONYMOUS,
  identityFromApiKey,
  identityFromSession,
  userIdentity,
  type Identity,
  type UserIdentity,
} from "./identity";
import {
  CSRF_COOKIE,
  REMEMBER_COOKIE,
  SESSION_COOKIE,
  newCsrfSecret,
  newSessionId,
  readRemember,
  readSession,
  sign,
  type RememberData,
  type SessionData,
} from "./sessionCookie";

export interface RequestAuth {
  org: Organization | null;
  identity: Identity;
  session: SessionData;
  /** Set when a response should (re)issue or clear the remember-me cookie. */
  remember: "set" | "clear" | null;
}

declare module "fastify" {
  interface FastifyRequest {
    auth: RequestAuth;
  }
}

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The API key of a request: `api_key` query parameter, then `Authorization: Key ...`, then a `token` route param. */
function apiKeyOf(request: FastifyRequest): string | null {
  const query = request.query as Record<string, unknown> | undefined;
  if (query && typeof query.api_key === "string" && query.api_key) return query.api_key;
  const header = request.headers.authorization;
  if (header) {
    const key = header.replace(/^Key\s+/i, "").trim();
    if (key) return key;
  }
  const params = request.params as Record<string, unknown> | undefined;
  if (params && typeof params.token === "string" && params.token) return params.token;
  return null;
}

/** What an HMAC-signed link carries (auth/hmac.ts). */
function signedRequest(request: FastifyRequest): SignedRequest {
  const query = (request.query ?? {}) as Record<string, unknown>;
  const text = (name: string) => (typeof query[name] === "string" ? (query[name] as string) : null);
  const rawPath = request.url.split("?")[0] ?? "";
  let path = rawPath;
  try {
    path = decodeURIComponent(rawPath);
  } catch {
    // A malformed escape cannot match any signature; the raw path is as good as any.
  }
  return {
    path,
    signature: text("signature"),
    expires: text("expires"),
    userId: text("user_id"),
    routeQueryId: routeQueryId(request),
  };
}

function routeQueryId(request: FastifyRequest): number | null {
  const params = (request.params ?? {}) as Record<string, string | undefined>;
  const raw =
    params.query_id ??
    (request.routeOptions.url?.startsWith("/api/queries/:id") ? params.id : undefined);
  return raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : null;
}

/** Resolves who is calling, checks CSRF, and keeps the session and CSRF cookies fresh. */
export const requestAuth = fp(async (app: FastifyInstance, ctx: AppContext) => {
  const { keys, database, config } = ctx;
  const lastActiveWrite = new Map<number, number>();
  const jwtKeys = new JwtKeyStore(
    createOutboundClient({ allowedRanges: config.outboundAllowedRanges }),
  );

  app.decorateRequest("auth", null as unknown as RequestAuth);

  app.addHook("onRequest", async (request) => {
    // Probes and scrapes (http/health.ts) read no session: they answer while the store is down.
    if (request.routeOptions.config.withoutSession) return;
    const now = nowSeconds();
    // Kept a few seconds (store/orgCache.ts); who is calling is read afresh below.
    const org = await findOrgBySlugCached(database.db, DEFAULT_ORG_SLUG);
    const session =
      readSession(keys.session, request.cookies[SESSION_COOKIE], now) ??
      ({
        userId: null,
        userToken: null,
        csrfSecret: newCsrfSecret(),
        expiresAt: 0,
      } satisfies SessionData);
    const auth: RequestAuth = { org, identity: ANONYMOUS, session, remember: null };
    request.auth = auth;
    if (!org) return;
    // The session's user, their groups and whether the session was ended: one statement
    // (store/callers.ts), read on every request, never cached.
    let fromSession: UserIdentity | null = null;
    if (session.userId !== null && session.sessionId) {
      const result = await identityFromSession(database.db, org, {
        userId: session.userId,
        userToken: session.userToken ?? "",
        sessionId: session.sessionId,
      });
      if (result === "ended") session.sessionId = undefined;
      else fromSession = result;
    }
    // A session ended by logout stays ended, whoever replays its cookie; one without an id was
    // signed before logouts were recorded and cannot be ended, so it is not accepted either.
    if (session.userId !== null && !session.sessionId) {
      session.userId = null;
      session.userToken = null;
    }

    // An API key in the request wins over the session. With the hmac auth type, Redash reads
    // API keys only next to a session; a request without one must carry a signed link instead.
    const apiKey = apiKeyOf(request);
    if (apiKey && (config.authType === "api_key" || session.userId !== null)) {
      const identity = await identityFromApiKey(database.db, org, apiKey, routeQueryId(request));
      // A share key is no credential outside its public dashboard's routes.
      const publicUrlsDisabled = orgSetting(org, "disable_public_urls") === true;
      const route = request.routeOptions.url;
      if (identity && shareKeyOpens(identity, request.method, route, publicUrlsDisabled)) {
        auth.identity = identity;
        return;
      }
    }
    if (session.userId !== null) {
      if (fromSession) auth.identity = fromSession;
      else {
        session.userId = null;
        session.userToken = null;
      }
    }
    if (auth.identity.kind === "anonymous") {
      const remembered = readRemember(keys.session, request.cookies[REMEMBER_COOKIE], now);
      const identity = remembered && (await identityFromSession(database.db, org, remembered));
      if (remembered && identity && identity !== "ended") {
        auth.identity = identity;
        session.userId = remembered.userId;
        session.userToken = remembered.userToken;
        session.sessionId = remembered.sessionId;
      }
    }
    // A signed link reads: it covers neither the method nor the body, so it never writes.
    const reads = request.method === "GET" || request.method === "HEAD";
    if (auth.identity.kind === "anonymous" && config.authType === "hmac" && reads) {
      auth.identity =
        (await identityFromHmac(database.db, org, signedRequest(request))) ?? ANONYMOUS;
    }
    if (auth.identity.kind === "anonymous") {
      const settings = jwtSettings(org);
      const token = settings && jwtOf(request, settings);
      if (settings && token) auth.identity = await jwtIdentity(request, org, settings, token);
    }
    if (auth.identity.kind === "user" && !auth.identity.viaApiKey) {
      const userId = auth.identity.user.id;
      // Record activity at most once a minute per user, off the request's path.
      if ((lastActiveWrite.get(userId) ?? 0) < now - 60) {
        lastActiveWrite.set(userId, now);
        touchActiveAt(database.db, userId).catch((err) =>
          request.log.warn({ err }, "active_at update failed"),
        );
      }
    }
  });

  /**
   * The user a valid JWT names (api-platform.md §2.7), created on first sign-in. The token is
   * sent with every request (the proxy in front adds it), so no session is started. It is an
   * ambient credential like a cookie: CSRF checks apply. An invalid token is a 401.
   */
  async function jwtIdentity(
    request: FastifyRequest,
    org: Organization,
    settings: JwtSettings,
    token: string,
  ): Promise<Identity> {
    const check = await checkJwt(token, settings, jwtKeys);
    if (!check.valid) {
      request.log.warn({ reason: check.reason }, "JWT login refused");
      throw new HttpError(401, "Invalid JWT token.");
    }
    // The shared just-in-time path (docs/single-sign-on.md, "SSO rules"); the token's issuer
    // authenticated the person under this address, so it counts as verified, as in Redash.
    const result = await userForIdentity(
      database.db,
      org.id,
      { email: check.email, name: "", verifiedEmail: true },
      { blockedDomains: config.blockedEmailDomains },
    );
    if (!result.ok) request.log.warn({ reason: result.reason }, "JWT login refused");
    return result.ok ? userIdentity(database.db, result.user, false) : ANONYMOUS;
  }

  app.addHook("preHandler", async (request, reply) => {
    if (!STATE_CHANGING.has(request.method)) return;
    const { identity, session } = request.auth;
    // Requests authenticated by an API key are not subject to CSRF (no ambient credentials).
    if (identity.kind === "api_key" || (identity.kind === "user" && identity.viaApiKey)) return;
    // Nor are anonymous API calls: there is no session to abuse, and the route answers them as
    // Redash does (404, "Please login"), not with a CSRF message that hides a wrong API key.
    if (identity.kind === "anonymous" && request.url.startsWith("/api/")) return;
    // Nor a route whose own check stands in for the token: the SAML assertion consumer service
    // takes a response the identity provider's page posts from another site, signed by it and
    // answering a request this installation sent (auth/providers/saml.ts).
    if ((request.routeOptions.config as { csrfExempt?: boolean } | undefined)?.csrfExempt) return;
    const header = request.headers["x-csrf-token"] ?? request.headers["x-csrftoken"];
    const body = request.body as Record<string, unknown> | undefined;
    const token =
      (typeof header === "string" ? header : undefined) ??
      (body && typeof body === "object" && typeof body.csrf_token === "string"
        ? body.csrf_token
        : undefined);
    const problem = checkCsrfToken(keys.csrf, session.csrfSecret, token, nowSeconds());
    if (problem) {
      return reply.code(400).type("application/json").send({ message: problem });
    }
  });

  app.addHook("onSend", async (request, reply, payload) => {
    const auth = request.auth;
    if (!auth) return payload;
    const now = nowSeconds();
    const secure = config.cookieSecure;
    // Sliding expiry: every response renews the session.
    auth.session.expiresAt = now + config.sessionLifetimeSeconds;
    reply.setCookie(SESSION_COOKIE, sign(keys.session, auth.session), {
      path: "/",
      httpOnly: true,
      sameSite: "lax",
      secure,
      maxAge: config.sessionLifetimeSeconds,
    });
    reply.setCookie(CSRF_COOKIE, makeCsrfToken(keys.csrf, auth.session.csrfSecret, now), {
      path: "/",
      httpOnly: false,
      sameSite: "lax",
      secure,
    });
    const { userId, userToken, sessionId } = auth.session;
    if (auth.remember === "set" && userId !== null && userToken && sessionId) {
      const expiresAt = now + config.rememberLifetimeSeconds;
      reply.setCookie(
        REMEMBER_COOKIE,
        sign(keys.session, { userId, userToken, sessionId, expiresAt } satisfies RememberData),
        {
          path: "/",
          httpOnly: true,
          sameSite: "lax",
          secure,
          maxAge: config.rememberLifetimeSeconds,
        },
      );
    } else if (auth.remember === "clear") {
      reply.clearCookie(REMEMBER_COOKIE, { path: "/" });
    }
    return payload;
  });
});

/** Signs a user in on this request's session (a fresh CSRF secret prevents session fixation). */
export function startSession(request: FastifyRequest, user: User, remember: boolean): void {
  const session = request.auth.session;
  session.userId = user.id;
  session.userToken = user.session_token;
  session.csrfSecret = newCsrfSecret();
  session.sessionId = newSessionId();
  request.auth.remember = remember ? "set" : "clear";
}

/**
 * Logs out: this browser's cookies are cleared, and the session is recorded as ended so that any
 * copy of its cookies is refused too, by every server, until those cookies would have expired.
 */
export async function endSession(request: FastifyRequest, ctx: AppContext): Promise<void> {
  const { sessionId } = request.auth.session;
  if (sessionId) {
    const { sessionLifetimeSeconds, rememberLifetimeSeconds } = ctx.config;
    const lifetime = Math.max(sessionLifetimeSeconds, rememberLifetimeSeconds);
    await recordEndedSession(ctx.database.db, sessionId, new Date(Date.now() + lifetime * 1000));
  }
  request.auth.session = {
    userId: null,
    userToken: null,
    csrfSecret: newCsrfSecret(),
    expiresAt: 0,
  };
  request.auth.identity = ANONYMOUS;
  request.auth.remember = "clear";
}

export function signedInUser(request: FastifyRequest): UserIdentity | null {
  const identity = request.auth.identity;
  return identity.kind === "user" ? identity : null;
}

export type { FastifyReply };
