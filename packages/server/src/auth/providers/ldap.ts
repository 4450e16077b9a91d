/**
 * LDAP sign-in at Redash's path: GET /ldap/login shows the LDAP form, POST /ldap/login checks the
 * user name and password against the directory (ldapDirectory.ts) and signs the person in through
 * the just-in-time path. A refusal shows the form again with a message, creates nobody, and is
 * logged without the password. `?test=1` is the settings page's "Test sign-in" for a signed-in
 * admin: it checks the credentials and shows what the directory said, signing nobody in.
 * See docs/single-sign-on.md, "LDAP".
 */
import { sanitizeNext } from "@sightline/core";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { AppContext } from "../../context";
import * as S from "../../http/schemas";
import type { Organization } from "../../store/organizations";
import { escapeHtml, field, hidden, page, type PageMessage } from "../pages";
import { csrfField, formOf, html } from "../routes/support";
import { ldapAuthenticate, type LdapFailure } from "./ldapDirectory";
import { completeSignIn, userForSignIn } from "./signIn";
import { signInErrorMessage } from "./signInErrors";
import { sendTestSignInResult } from "./testSignIn";

export const LDAP_MESSAGES: Record<LdapFailure, string> = {
  bad_credentials: "Wrong username or password.",
  unreachable:
    "The LDAP server could not be reached. Try again in a moment, or ask an administrator.",
  untrusted_certificate:
    "The LDAP server's certificate is not trusted, so no password was sent. Ask an administrator.",
  misconfigured: "LDAP sign-in is not set up correctly. Ask an administrator.",
  no_email: "Your directory account has no e-mail address. Ask an administrator.",
};

/** The login page's way to the LDAP form while LDAP login is on, keeping `next`. */
export function ldapButton(ctx: AppContext, _org: Organization | null, next: string): string {
  if (!ctx.config.ldap.enabled) return "";
  const safe = sanitizeNext(next);
  return `<form method="get" action="/ldap/login">${safe ? hidden("next", safe) : ""}<button type="submit">LDAP/SSO Login</button></form>`;
}

const query = S.object({
  next: { ...S.str, description: "Where to go after login" },
  test: { ...S.str, description: "1: an admin's test sign-in (no session, nothing created)" },
});
const docs = {
  page: {
    tags: ["session"],
    summary: "LDAP login form (SIGHTLINE_LDAP_LOGIN_ENABLED)",
    querystring: query,
    response: {
      200: S.htmlPage("The LDAP form"),
      302: S.redirect("To setup, or to `next` when signed in"),
      ...S.errors(403, 404, 429),
    },
  },
  login: {
    tags: ["session"],
    summary: "Sign in with an LDAP user name and password",
    querystring: query,
    consumes: ["application/x-www-form-urlencoded"],
    body: {
      ...S.object({
        username: S.str,
        password: S.str,
        remember: { ...S.str, description: "Any value = on" },
      }),
      description: "A form; `csrf_token` unless the X-CSRF-Token header is sent",
    },
    response: {
      200: {
        description: "The form with the problem; in a test sign-in, its result",
        content: {
          "text/html": { schema: S.str },
          "application/json": { schema: { type: "object", additionalProperties: true } },
        },
      },
      302: S.redirect("To `next`, signed in"),
      ...S.errors(403, 404, 429),
    },
  },
};

interface FormState {
  next: string;
  test: boolean;
  username?: string;
  messages?: PageMessage[];
}

export function ldapRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { config } = ctx;
  const ldap = config.ldap;
  // As /login: one counter for the page's GET and POST, at the login rate.
  const limit = app.rateLimit({ max: config.loginRateLimitPerHour, timeWindow: "1 hour" });

  function form(request: FastifyRequest, state: FormState): string {
    const params = new URLSearchParams();
    if (state.next) params.set("next", state.next);
    if (state.test) params.set("test", "1");
    const action = `/ldap/login${params.size ? `?${params.toString()}` : ""}`;
    const back = state.next ? `/login?next=${encodeURIComponent(state.next)}` : "/login";
    const intro = state.test
      ? "<p>Checks a user name and password against the directory and shows what it says. Nobody is signed in and nothing is changed.</p>"
      : "";
    return page(
      state.test ? "Test LDAP sign-in" : "LDAP Login",
      `<h1>${state.test ? "Test LDAP sign-in" : "Log in with LDAP"}</h1>${intro}
<form method="post" action="${escapeHtml(action)}">${csrfField(ctx, request)}
${field(ldap.loginPrompt, "username", "text", state.username ?? "", undefined, 'autocomplete="username" autocapitalize="none" autofocus required')}
${field("Password", "password", "password", "", undefined, 'autocomplete="current-password" required')}
${state.test ? "" : '<div class="check"><input id="remember" name="remember" type="checkbox" checked><label for="remember">Remember me</label></div>'}
<button type="submit">${state.test ? "Test" : "Log In"}</button></form>
<div class="links"><a href="${escapeHtml(state.test ? "/settings/organization" : back)}">${state.test ? "Back to settings" : "Log in with email and password"}</a></div>`,
      state.messages ?? [],
    );
  }

  /** Why the request may not use this page, answered; or null when it may. */
  function refusal(request: FastifyRequest, reply: FastifyReply, test: boolean) {
    if (!test) {
      if (!ldap.enabled) return reply.code(404).send({ message: "LDAP login is not enabled." });
      return null;
    }
    const { identity } = request.auth;
    if (identity.kind !== "user" || !identity.permissions.includes("admin")) {
      return reply.code(403).send({ message: "Only an admin can test LDAP sign-in." });
    }
    if (!ldap.url || !ldap.searchDn) {
      return reply.code(404).send({
        message: "LDAP is not configured: set SIGHTLINE_LDAP_URL and SIGHTLINE_LDAP_SEARCH_DN.",
      });
    }
    return null;
  }

  const queryOf = (request: FastifyRequest) => {
    const q = request.query as Record<string, unknown>;
    return {
      next: sanitizeNext(typeof q.next === "string" ? q.next : ""),
      test: q.test === "1" || q.test === "true",
    };
  };

  app.get("/ldap/login", { onRequest: limit, schema: docs.page }, async (request, reply) => {
    const { next, test } = queryOf(request);
    const refused = refusal(request, reply, test);
    if (refused) return refused;
    if (!request.auth.org) return reply.redirect("/setup");
    if (!test && request.auth.identity.kind === "user") return reply.redirect(next || "/");
    return html(reply, 200, form(request, { next, test }));
  });

  app.post("/ldap/login", { onRequest: limit, schema: docs.login }, async (request, reply) => {
    const { next, test } = queryOf(request);
    const refused = refusal(request, reply, test);
    if (refused) return refused;
    const org = request.auth.org;
    if (!org) return reply.redirect("/setup");
    const body = formOf(request);
    const username = (body.username ?? "").trim();
    const again = (text: string) =>
      html(
        reply,
        200,
        form(request, { next, test, username, messages: [{ kind: "error", text }] }),
      );
    // The user name is logged (shortened); the password never is.
    const who = username.slice(0, 100);

    const outcome = await ldapAuthenticate(ldap, username, body.password ?? "");
    if (!outcome.ok) {
      const log = outcome.failure === "bad_credentials" ? request.log.info : request.log.warn;
      log.call(
        request.log,
        { username: who, failure: outcome.failure, detail: outcome.detail, test },
        "LDAP login refused",
      );
      if (test)
        return sendTestSignInResult(reply, "ldap", { error: LDAP_MESSAGES[outcome.failure] });
      return again(LDAP_MESSAGES[outcome.failure]);
    }
    if (test) {
      request.log.info({ username: who, dn: outcome.dn }, "LDAP test sign-in succeeded");
      return sendTestSignInResult(reply, "ldap", { identity: outcome.identity });
    }

    const result = await userForSignIn(ctx, org, outcome.identity);
    if (!result.ok) {
      request.log.warn({ username: who, reason: result.reason }, "LDAP login refused");
      return again(signInErrorMessage(result.reason) ?? LDAP_MESSAGES.bad_credentials);
    }
    return completeSignIn(request, reply, ctx, {
      user: result.user,
      created: result.created,
      remember: body.remember !== undefined,
      next,
      logMessage: "signed in with LDAP",
      log: { dn: outcome.dn },
    });
  });
}
