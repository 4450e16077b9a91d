// Signing in with email and password, and signing out.
import { sanitizeNext } from "@sightline/core";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppContext } from "../../context";
import { recordEvent } from "../../services/events";
import { orgSetting } from "../../services/orgSettings";
import { countOrgs } from "../../store/organizations";
import { findUserByEmail } from "../../store/users";
import { escapeHtml, field, page, type PageMessage } from "../pages";
import { verifySignIn } from "../passwords";
import { endSession, startSession } from "../requestAuth";
import { signInErrorMessage } from "../providers/signInErrors";
import { signInButtons } from "../providers/signInButtons";
import { clearLogoutCookie, providerLogoutUrl } from "../providers/oidcLogout";
import { samlProviderLogoutUrl } from "../providers/saml";
import { clearSamlLogoutCookie } from "../providers/samlLogout";
import { docs } from "./docs";
import { csrfField, formOf, html } from "./support";

export function loginRoutes(app: FastifyInstance, ctx: AppContext): void {
  const db = ctx.database.db;
  // One limiter per page, shared by its GET and POST (api-platform.md §1.7: both count); a
  // route's own rateLimit config would give each method a counter of its own.
  const loginLimit = app.rateLimit({ max: ctx.config.loginRateLimitPerHour, timeWindow: "1 hour" });

  function loginPage(
    request: FastifyRequest,
    next: string,
    email = "",
    messages: PageMessage[] = [],
  ) {
    const action = next ? `/login?next=${encodeURIComponent(next)}` : "/login";
    return page(
      "Login",
      `<h1>Log in to Sightline</h1>
<form method="post" action="${escapeHtml(action)}">${csrfField(ctx, request)}
${field("Email", "email", "email", email, undefined, 'autocomplete="username" autofocus required')}
${field("Password", "password", "password", "", undefined, 'autocomplete="current-password" required')}
<div class="check"><input id="remember" name="remember" type="checkbox" checked><label for="remember">Remember me</label></div>
<button type="submit">Log In</button></form>
<div class="links"><a href="/forgot">I forgot my password</a></div>${signInButtons(ctx, request.auth.org, next)}`,
      messages,
    );
  }

  const nextOf = (request: FastifyRequest): string => {
    const q = request.query as Record<string, unknown>;
    return typeof q.next === "string" ? q.next : "";
  };

  app.get("/login", { onRequest: loginLimit, schema: docs.loginPage }, async (request, reply) => {
    if ((await countOrgs(db)) === 0) return reply.redirect("/setup");
    const next = nextOf(request);
    if (request.auth.identity.kind === "user") return reply.redirect(sanitizeNext(next) || "/");
    // A sign-in through another method that was refused comes back here with its reason.
    const ssoError = signInErrorMessage((request.query as Record<string, unknown>).sso_error);
    const messages: PageMessage[] = ssoError ? [{ kind: "error", text: ssoError }] : [];
    return html(reply, 200, loginPage(request, next, "", messages));
  });

  app.post("/login", { onRequest: loginLimit, schema: docs.login }, async (request, reply) => {
    const org = request.auth.org;
    if (!org) return reply.redirect("/setup");
    const next = nextOf(request);
    const form = formOf(request);
    const email = (form.email ?? "").trim();
    if (!orgSetting(org, "auth_password_login_enabled")) {
      return html(
        reply,
        200,
        loginPage(request, next, email, [
          { kind: "error", text: "Password login is not enabled for your organization." },
        ]),
      );
    }
    const user = email ? await findUserByEmail(db, org.id, email) : null;
    const ok = await verifySignIn(user, form.password ?? "");
    if (!ok || !user) {
      return html(
        reply,
        200,
        loginPage(request, next, email, [{ kind: "error", text: "Wrong email or password." }]),
      );
    }
    startSession(request, user, form.remember !== undefined);
    // A /logout after this sign-in is Sightline's own, even after an OpenID Connect one here.
    clearLogoutCookie(request, reply);
    clearSamlLogoutCookie(request, reply);
    await recordEvent(db, {
      orgId: org.id,
      userId: user.id,
      action: "login",
      objectType: "redash",
      request,
    });
    return reply.redirect(sanitizeNext(next) || "/");
  });

  app.get("/logout", { schema: docs.logout }, async (request, reply) => {
    await endSession(request, ctx);
    // Signed in through an OpenID or SAML provider with a logout of its own: end that one too.
    const oidc = await providerLogoutUrl(request, reply, ctx);
    const saml = await samlProviderLogoutUrl(request, reply, ctx);
    return reply.redirect(oidc ?? saml ?? "/login");
  });
}
