/**
 * OpenID Connect sign-in: a generic provider by issuer URL (GET /oidc/login, /oidc/callback) and
 * Google as a preset on Redash's paths (GET /oauth/google, /oauth/google_callback). The
 * authorization code flow with PKCE, `state` and `nonce` (oidcFlow.ts); openid-client checks the
 * ID token's signature, issuer, audience, nonce and times (60 s of clock skew at most). The
 * identity then goes the one shared way to a user (justInTime.ts). `?test=1` on the login path
 * runs the whole flow for a signed-in admin and shows what came back, signing nobody in.
 * See docs/single-sign-on.md, "OpenID Connect".
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import * as client from "openid-client";
import type { AppContext } from "../../context";
import * as S from "../../http/schemas";
import type { Organization } from "../../store/organizations";
import { escapeHtml } from "../pages";
import { safeEqual } from "../secretKey";
import {
  OIDC_PATHS,
  discoveryFor,
  oidcMethod,
  redirectUri,
  type OidcMethod,
  type OidcMethodName,
} from "./oidcClient";
import {
  FLOW_LIFETIME_SECONDS,
  UsedStates,
  clearFlowCookie,
  flowKey,
  readFlowCookie,
  setFlowCookie,
  type OidcFlow,
} from "./oidcFlow";
import {
  allowedByDomains,
  googleDomainHint,
  identityFromClaims,
  type Claims,
} from "./oidcIdentity";
import { setLogoutCookie } from "./oidcLogout";
import { completeSignIn, refuseSignIn, safeNextPath, userForSignIn } from "./signIn";
import type { SignInError } from "./signInErrors";
import {
  LOGIN_QUERY,
  TEST_FORBIDDEN,
  TEST_RESULT_RESPONSE,
  requireAdminForTest,
  sendTestSignInResult,
  testerOf,
} from "./testSignIn";

const METHODS: readonly OidcMethodName[] = ["google", "oidc"];

/**
 * The login page's "Sign in with ..." buttons of the methods that are on, keeping `next`. Links,
 * not forms: the page's Content-Security-Policy (form-action 'self') stops a form whose answer
 * redirects to the provider.
 */
export function oidcButtons(ctx: AppContext, _org: Organization | null, next: string): string {
  const safe = safeNextPath(next);
  const query = safe ? `?${new URLSearchParams({ next: safe }).toString()}` : "";
  const buttons = METHODS.map((name) => oidcMethod(ctx.config, name))
    .filter((method): method is OidcMethod => method !== null)
    .map(
      (method) =>
        `<a class="sso-button" href="${escapeHtml(method.loginPath + query)}">Sign in with ${escapeHtml(method.displayName)}</a>`,
    );
  return buttons.length
    ? `<div class="sso-buttons" style="margin-top:20px">${buttons.join("")}</div>`
    : "";
}

const docs = (method: OidcMethodName) => {
  const tags = ["session"];
  const what = method === "google" ? "Google" : "the OpenID provider (SIGHTLINE_OIDC_ISSUER)";
  return {
    login: {
      tags,
      summary: `Sign in with ${what}: redirects to the provider`,
      querystring: LOGIN_QUERY,
      response: {
        302: S.redirect("To the provider; or to the login page with the reason"),
        ...S.errors(403, 404),
      },
    },
    callback: {
      tags,
      summary: `Where ${what} sends the browser back (the redirect URI)`,
      querystring: S.object({
        code: S.str,
        state: S.str,
        error: { ...S.str, description: "The provider's refusal" },
      }),
      response: {
        200: TEST_RESULT_RESPONSE,
        302: S.redirect("To `next`, signed in; or to the login page with the reason"),
        ...S.errors(404),
      },
    },
  };
};

/** What an error may show in the log: its kind and the library's fixed text, no token or code. */
function described(err: unknown): Record<string, unknown> {
  if (!(err instanceof Error)) return { error: String(err).slice(0, 200) };
  const e = err as Error & { code?: unknown; error?: unknown; status?: unknown };
  return {
    name: e.name,
    ...(typeof e.code === "string" ? { code: e.code } : {}),
    ...(typeof e.error === "string" ? { oauthError: e.error.slice(0, 100) } : {}),
    ...(typeof e.status === "number" ? { status: e.status } : {}),
    message: e.message.slice(0, 200),
  };
}

export function oidcRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { config } = ctx;
  const discovery = discoveryFor(ctx);
  const key = flowKey(ctx.keys.session);
  const usedStates = new UsedStates();

  const notEnabled = (reply: FastifyReply, method: OidcMethodName) =>
    reply.code(404).send({
      message: `${method === "google" ? "Google" : "OpenID Connect"} login is not enabled.`,
    });

  /** The sign-in ends without a user: the login page with the reason, or the test's result. */
  function refuse(
    request: FastifyRequest,
    reply: FastifyReply,
    method: OidcMethod,
    flow: OidcFlow | null,
    error: SignInError,
    log: Record<string, unknown> = {},
  ) {
    return refuseSignIn(request, reply, {
      error,
      next: flow?.next ?? "",
      logMessage: "OpenID Connect login refused",
      log: { method: method.name, ...log },
      test: flow?.testedBy != null ? method.name : null,
    });
  }

  async function start(name: OidcMethodName, request: FastifyRequest, reply: FastifyReply) {
    const method = oidcMethod(config, name);
    if (!method) return notEnabled(reply, name);
    const org = request.auth.org;
    if (!org) return reply.redirect("/setup");
    const q = request.query as Record<string, unknown>;
    const next = safeNextPath(q.next);
    const testedBy = testerOf(request);
    if (testedBy === "forbidden") return reply.code(403).send(TEST_FORBIDDEN);
    const flow: OidcFlow = {
      method: name,
      state: client.randomState(),
      nonce: client.randomNonce(),
      codeVerifier: client.randomPKCECodeVerifier(),
      next,
      testedBy,
      expiresAt: Math.floor(Date.now() / 1000) + FLOW_LIFETIME_SECONDS,
    };
    let configuration: client.Configuration;
    try {
      configuration = await discovery.configuration(method);
    } catch (err) {
      return refuse(request, reply, method, flow, "oidc_unavailable", { err: described(err) });
    }
    const url = client.buildAuthorizationUrl(configuration, {
      response_type: "code",
      redirect_uri: redirectUri(config, method),
      scope: method.scopes.join(" "),
      state: flow.state,
      nonce: flow.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(flow.codeVerifier),
      code_challenge_method: "S256",
    });
    const hd = googleDomainHint(method, org);
    if (hd) url.searchParams.set("hd", hd);
    setFlowCookie(reply, config, key, method, flow);
    return reply.redirect(url.href);
  }

  async function finish(name: OidcMethodName, request: FastifyRequest, reply: FastifyReply) {
    const method = oidcMethod(config, name);
    if (!method) return notEnabled(reply, name);
    const org = request.auth.org;
    if (!org) return reply.redirect("/setup");
    const flow = readFlowCookie(request, key, method);
    // Whatever happens next, this flow is over.
    clearFlowCookie(reply, method);
    const q = request.query as Record<string, unknown>;
    const state = typeof q.state === "string" ? q.state : "";
    if (!flow || !state || !safeEqual(state, flow.state)) {
      return refuse(request, reply, method, null, "oidc_state", {
        cause: flow ? "state does not match" : "no sign-in started in this browser",
      });
    }
    if (!usedStates.claim(flow.state, flow.expiresAt)) {
      return refuse(request, reply, method, null, "oidc_state", { cause: "state used before" });
    }
    // A test sign-in's result is for the admin who started it, and only while still signed in.
    if (flow.testedBy !== null) {
      const identity = request.auth.identity;
      if (
        !requireAdminForTest(request) ||
        identity.kind !== "user" ||
        identity.user.id !== flow.testedBy
      ) {
        return refuse(request, reply, method, null, "oidc_state", {
          cause: "test sign-in finished without its admin",
        });
      }
    }
    let configuration: client.Configuration;
    try {
      configuration = await discovery.configuration(method);
    } catch (err) {
      return refuse(request, reply, method, flow, "oidc_unavailable", { err: described(err) });
    }
    const search = request.url.includes("?") ? request.url.slice(request.url.indexOf("?")) : "";
    let claims: Claims;
    let idToken: string | undefined;
    try {
      const tokens = await client.authorizationCodeGrant(
        configuration,
        new URL(redirectUri(config, method) + search),
        {
          pkceCodeVerifier: flow.codeVerifier,
          expectedState: flow.state,
          expectedNonce: flow.nonce,
          idTokenExpected: true,
        },
      );
      const idClaims = tokens.claims();
      if (!idClaims) throw new Error("no ID token");
      idToken = tokens.id_token;
      // The userinfo endpoint fills in what the ID token leaves out; the signed token wins.
      const userinfo = configuration.serverMetadata().userinfo_endpoint
        ? await client.fetchUserInfo(configuration, tokens.access_token, idClaims.sub)
        : {};
      claims = { ...userinfo, ...idClaims };
    } catch (err) {
      const denied = err instanceof client.AuthorizationResponseError;
      return refuse(request, reply, method, flow, denied ? "oidc_denied" : "oidc_invalid", {
        err: described(err),
      });
    }
    if (!allowedByDomains(method, org, claims)) {
      return refuse(request, reply, method, flow, "google_domain");
    }
    const identity = identityFromClaims(method, claims);
    if (flow.testedBy !== null) {
      request.log.info({ method: method.name }, "OpenID Connect test sign-in finished");
      return sendTestSignInResult(reply, method.name, { identity });
    }
    const result = await userForSignIn(ctx, org, identity);
    if (!result.ok) return refuse(request, reply, method, flow, result.reason);
    return completeSignIn(request, reply, ctx, {
      user: result.user,
      created: result.created,
      remember: true,
      next: flow.next,
      logMessage: "signed in by OpenID Connect",
      log: { method: method.name },
      providerLogout: (reply) => setLogoutCookie(reply, ctx, key, method, idToken),
    });
  }

  for (const name of METHODS) {
    const schema = docs(name);
    app.get(OIDC_PATHS[name].login, { schema: schema.login }, (request, reply) =>
      start(name, request, reply),
    );
    app.get(OIDC_PATHS[name].callback, { schema: schema.callback }, (request, reply) =>
      finish(name, request, reply),
    );
  }
}
