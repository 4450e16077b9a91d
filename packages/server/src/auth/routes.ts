import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { AppContext } from "../context";
import { countOrgs } from "../store/organizations";
import {
  findUserByEmail,
  findUserById,
  newSessionToken,
  updateUser,
  type User,
} from "../store/users";
import { AlreadySetUpError, setUpOrganization } from "../services/organizationSetup";
import { orgSetting } from "../services/orgSettings";
import { makeCsrfToken } from "./csrf";
import { sanitizeNext } from "@sightline/core";
import { field, hidden, page, escapeHtml, type PageMessage } from "./pages";
import { hashPassword, verifySignIn } from "./passwords";
import { endSession, startSession } from "./requestAuth";
import { makeToken, readToken, type TokenPurpose } from "./tokens";
import { sendDisabledAccountEmail, sendResetEmail, sendVerificationEmail } from "./emails";
import { recordEvent } from "../services/events";
import * as S from "../http/schemas";

type Form = Record<string, string | undefined>;

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MIN_PASSWORD_LENGTH = 6;

// ---- Route documentation (the shapes are in ../http/schemas) ----

const tags = ["session"];
const form = (properties: Record<string, object>) => ({
  ...S.object(properties),
  description: "A form; `csrf_token` unless the X-CSRF-Token header is sent",
});
const formBody = { consumes: ["application/x-www-form-urlencoded"] };
const tokenParams = S.params({ token: S.str });
const nextQuerystring = S.object({ next: { ...S.str, description: "Where to go after login" } });
const rateLimited = S.errors(429);

const docs = {
  ping: {
    tags,
    summary: "Liveness check (refreshes the CSRF cookie)",
    response: { 200: S.plainText("PONG.") },
  },
  setupPage: {
    tags,
    summary: "First-run setup page",
    response: { 200: S.htmlPage("The setup form"), 302: S.redirect("To / once set up") },
  },
  setup: {
    tags,
    summary: "Create the organisation and its first admin",
    ...formBody,
    body: form({ name: S.str, email: S.str, password: S.str, org_name: S.str }),
    response: {
      200: S.htmlPage("The form with the problems"),
      302: S.redirect("To /, signed in"),
      ...S.errors(400),
    },
  },
  loginPage: {
    tags,
    summary: "Login page",
    querystring: nextQuerystring,
    response: {
      200: S.htmlPage("The login form"),
      302: S.redirect("To setup, or to `next` when signed in"),
      ...rateLimited,
    },
  },
  login: {
    tags,
    summary: "Sign in with email and password",
    querystring: nextQuerystring,
    ...formBody,
    body: form({
      email: S.str,
      password: S.str,
      remember: { ...S.str, description: "Any value = on" },
    }),
    response: {
      200: S.htmlPage("The form with the problem"),
      302: S.redirect("To `next`, signed in"),
      ...S.errors(400, 429),
    },
  },
  logout: {
    tags,
    summary: "Sign out",
    response: { 302: S.redirect("To the login page") },
  },
  tokenPage: (summary: string) => ({
    tags,
    summary,
    params: tokenParams,
    response: { 200: S.htmlPage("The password form"), 400: S.htmlPage("The link is not valid") },
  }),
  setPassword: (summary: string) => ({
    tags,
    summary,
    params: tokenParams,
    ...formBody,
    body: form({ password: { ...S.str, description: "At least 6 characters" } }),
    response: {
      302: S.redirect("To /, signed in"),
      400: {
        ...S.htmlPage("The link is not valid, or the password is refused"),
        // A missing CSRF token is answered in JSON, like everywhere.
        content: {
          "text/html": { schema: S.str },
          "application/json": { schema: S.errorMessage },
        },
      },
    },
  }),
  verify: {
    tags,
    summary: "Confirm an email address",
    params: tokenParams,
    response: { 200: S.htmlPage("Verified"), 400: S.htmlPage("The link is not valid") },
  },
  verificationEmail: {
    tags,
    summary: "Send the signed-in user a verification email",
    response: {
      200: S.object({ message: S.str }, ["message"], "Check your inbox"),
      ...S.errors(400, 404),
    },
  },
  forgotPage: {
    tags,
    summary: "Forgot-password page",
    response: {
      200: S.htmlPage("The form"),
      404: S.htmlPage("Password login is off"),
      ...rateLimited,
    },
  },
  forgot: {
    tags,
    summary: "Send a password reset email",
    ...formBody,
    body: form({ email: S.str }),
    response: {
      200: S.htmlPage("Sent, if the address is known"),
      404: S.htmlPage("Password login is off"),
      ...S.errors(400, 429),
    },
  },
};

function formOf(request: FastifyRequest): Form {
  const body = request.body;
  if (!body || typeof body !== "object") return {};
  const out: Form = {};
  for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
    if (typeof v === "string") out[k] = v;
  }
  return out;
}

function csrfField(ctx: AppContext, request: FastifyRequest): string {
  return hidden(
    "csrf_token",
    makeCsrfToken(ctx.keys.csrf, request.auth.session.csrfSecret, Math.floor(Date.now() / 1000)),
  );
}

function html(reply: FastifyReply, status: number, body: string) {
  return reply
    .code(status)
    .type("text/html; charset=utf-8")
    .header("Cache-Control", "no-store")
    .send(body);
}

/** Sign-in pages and flows served by the server (api-platform.md §3). */
export async function authRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const db = ctx.database.db;
  // One limiter per page, shared by its GET and POST (api-platform.md §1.7: both count); a
  // route's own rateLimit config would give each method a counter of its own.
  const loginLimit = app.rateLimit({ max: ctx.config.loginRateLimitPerHour, timeWindow: "1 hour" });
  const forgotLimit = app.rateLimit({
    max: ctx.config.forgotRateLimitPerHour,
    timeWindow: "1 hour",
  });

  app.get("/ping", { schema: docs.ping }, async (_request, reply) =>
    reply.type("text/plain").send("PONG."),
  );

  // ---- Setup (first run) ----
  function setupPage(request: FastifyRequest, values: Form = {}, errors: Form = {}) {
    return page(
      "Setup",
      `<h1>Welcome to Sightline</h1>
<p>Before you can use Sightline, create your organisation and its first admin user.</p>
<form method="post" action="/setup" novalidate>${csrfField(ctx, request)}
${field("Name", "name", "text", values.name, errors.name, 'autocomplete="name"')}
${field("Email Address", "email", "email", values.email, errors.email, 'autocomplete="email"')}
${field("Password", "password", "password", "", errors.password, 'autocomplete="new-password"')}
${field("Organization Name", "org_name", "text", values.org_name, errors.org_name)}
<button type="submit">Setup</button></form>`,
    );
  }

  app.get("/setup", { schema: docs.setupPage }, async (request, reply) => {
    if ((await countOrgs(db)) > 0) return reply.redirect("/");
    return html(reply, 200, setupPage(request));
  });

  app.post("/setup", { schema: docs.setup }, async (request, reply) => {
    if ((await countOrgs(db)) > 0) return reply.redirect("/");
    const form = formOf(request);
    const values = {
      name: (form.name ?? "").trim(),
      email: (form.email ?? "").trim(),
      password: form.password ?? "",
      org_name: (form.org_name ?? "").trim(),
    };
    const errors: Form = {};
    if (!values.name) errors.name = "This field is required.";
    if (!EMAIL_PATTERN.test(values.email)) errors.email = "Invalid email address.";
    if (values.password.length < MIN_PASSWORD_LENGTH) {
      errors.password = `Field must be at least ${MIN_PASSWORD_LENGTH} characters long.`;
    }
    if (!values.org_name) errors.org_name = "This field is required.";
    if (Object.keys(errors).length > 0) return html(reply, 200, setupPage(request, values, errors));
    try {
      const { user } = await setUpOrganization(db, {
        orgName: values.org_name,
        name: values.name,
        email: values.email,
        password: values.password,
      });
      await ctx.hooks.afterSetup(user);
      startSession(request, user, false);
      return reply.redirect("/");
    } catch (err) {
      if (err instanceof AlreadySetUpError) return reply.redirect("/");
      throw err;
    }
  });

  // ---- Login / logout ----
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
<div class="links"><a href="/forgot">I forgot my password</a></div>`,
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
    return html(reply, 200, loginPage(request, next));
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
    return reply.redirect("/login");
  });

  // ---- Invite / reset / verify links ----
  const INVALID_USER =
    "Your invite link is invalid. Bad user id in token. Please ask for a new one.";
  const EXPIRED = "Your invite link has expired. Please ask for a new one.";
  const BAD_SIGNATURE =
    "Your invite link is invalid. Bad signature. Please double-check the token.";
  const ALREADY_ACCEPTED =
    "This invitation has already been accepted. Please try resetting your password instead.";
  const ALREADY_USED = "This link has already been used. Please ask for a new one.";

  async function userFromToken(
    request: FastifyRequest,
    purpose: TokenPurpose,
    token: string,
  ): Promise<{ user: User } | { error: string }> {
    const org = request.auth.org;
    const check = readToken(ctx.keys.tokens, purpose, token, ctx.config.inviteTokenMaxAgeSeconds);
    if (!check.ok) return { error: check.reason === "expired" ? EXPIRED : BAD_SIGNATURE };
    const user = org ? await findUserById(db, org.id, check.userId) : null;
    if (!user) return { error: INVALID_USER };
    if (purpose === "invite" && !user.is_invitation_pending) return { error: ALREADY_ACCEPTED };
    if (!user.session_token.startsWith(check.fingerprint)) return { error: ALREADY_USED };
    return { user };
  }

  function passwordPage(
    request: FastifyRequest,
    purpose: "invite" | "reset",
    token: string,
    user: User,
    messages: PageMessage[] = [],
  ) {
    const heading =
      purpose === "invite" ? `Welcome, ${escapeHtml(user.name)}` : "Reset your password";
    const intro =
      purpose === "invite"
        ? `<p>Choose a password for <strong>${escapeHtml(user.email)}</strong> to finish setting up your account.</p>`
        : `<p>Enter a new password for <strong>${escapeHtml(user.email)}</strong>.</p>`;
    return page(
      purpose === "invite" ? "Accept invitation" : "Reset password",
      `<h1>${heading}</h1>${intro}
<form method="post" action="/${purpose}/${encodeURIComponent(token)}">${csrfField(ctx, request)}
${field("Password", "password", "password", "", undefined, 'autocomplete="new-password" autofocus')}
<button type="submit">Set Password</button></form>`,
      messages,
    );
  }

  const errorPage = (title: string, text: string) =>
    page(
      title,
      `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p><div class="links"><a href="/login">Go to login</a></div>`,
    );

  for (const purpose of ["invite", "reset"] as const) {
    const title = purpose === "invite" ? "Invitation" : "Reset password";
    const what = purpose === "invite" ? "an invitation" : "a password reset";
    app.get<{ Params: { token: string } }>(
      `/${purpose}/:token`,
      { schema: docs.tokenPage(`Page of ${what} link`) },
      async (request, reply) => {
        const found = await userFromToken(request, purpose, request.params.token);
        if ("error" in found) return html(reply, 400, errorPage(title, found.error));
        return html(reply, 200, passwordPage(request, purpose, request.params.token, found.user));
      },
    );

    app.post<{ Params: { token: string } }>(
      `/${purpose}/:token`,
      { schema: docs.setPassword(`Set a password through ${what} link`) },
      async (request, reply) => {
        const found = await userFromToken(request, purpose, request.params.token);
        if ("error" in found) return html(reply, 400, errorPage(title, found.error));
        const { user } = found;
        const form = formOf(request);
        const password = form.password;
        const problem =
          password === undefined
            ? "Bad Request"
            : password === ""
              ? "Cannot use empty password."
              : password.length < MIN_PASSWORD_LENGTH
                ? `Password length is too short (<${MIN_PASSWORD_LENGTH}).`
                : null;
        if (problem) {
          return html(
            reply,
            400,
            passwordPage(request, purpose, request.params.token, user, [
              { kind: "error", text: problem },
            ]),
          );
        }
        const sessionToken = newSessionToken();
        await updateUser(db, user.id, {
          password_hash: await hashPassword(password!),
          is_invitation_pending: false,
          session_token: sessionToken,
        });
        startSession(request, { ...user, session_token: sessionToken }, false);
        return reply.redirect("/");
      },
    );
  }

  app.get<{ Params: { token: string } }>(
    "/verify/:token",
    { schema: docs.verify },
    async (request, reply) => {
      const org = request.auth.org;
      const check = readToken(
        ctx.keys.tokens,
        "verify",
        request.params.token,
        ctx.config.inviteTokenMaxAgeSeconds,
      );
      const user = check.ok && org ? await findUserById(db, org.id, check.userId) : null;
      if (!user || !check.ok || !user.session_token.startsWith(check.fingerprint)) {
        return html(
          reply,
          400,
          errorPage("Email verification", "Invalid or expired verification link."),
        );
      }
      await updateUser(db, user.id, { is_email_verified: true });
      return html(
        reply,
        200,
        page(
          "Email verified",
          `<h1>Email verified</h1><p>Your email address has been verified.</p><div class="links"><a href="/">Continue to Sightline</a></div>`,
        ),
      );
    },
  );

  app.post("/verification_email/", { schema: docs.verificationEmail }, async (request, reply) => {
    const identity = request.auth.identity;
    if (identity.kind !== "user") {
      return reply
        .code(404)
        .send({ message: "Couldn't find resource. Please login and try again." });
    }
    if (!identity.user.is_email_verified) await sendVerificationEmail(ctx, identity.user);
    return { message: "Please check your email inbox in order to verify your email address." };
  });

  // ---- Forgot password ----
  function forgotPage(request: FastifyRequest, submitted: boolean) {
    return page(
      "Forgot password",
      submitted
        ? `<h1>Check your email</h1><p>If an account exists for that address, an email with instructions to reset your password has been sent.</p><div class="links"><a href="/login">Back to login</a></div>`
        : `<h1>Forgot your password?</h1><p>Enter your email address and we will send you a link to reset it.</p>
<form method="post" action="/forgot">${csrfField(ctx, request)}
${field("Email", "email", "email", "", undefined, 'autocomplete="email" autofocus required')}
<button type="submit">Send Reset Link</button></form><div class="links"><a href="/login">Back to login</a></div>`,
    );
  }

  app.get(
    "/forgot",
    { onRequest: forgotLimit, schema: docs.forgotPage },
    async (request, reply) => {
      const org = request.auth.org;
      if (!org || !orgSetting(org, "auth_password_login_enabled"))
        return html(reply, 404, errorPage("Not found", "Password login is not enabled."));
      return html(reply, 200, forgotPage(request, false));
    },
  );

  app.post("/forgot", { onRequest: forgotLimit, schema: docs.forgot }, async (request, reply) => {
    const org = request.auth.org;
    if (!org || !orgSetting(org, "auth_password_login_enabled"))
      return html(reply, 404, errorPage("Not found", "Password login is not enabled."));
    const email = (formOf(request).email ?? "").trim();
    const user = email ? await findUserByEmail(db, org.id, email) : null;
    if (user) {
      if (user.disabled_at !== null) await sendDisabledAccountEmail(ctx, user);
      else await sendResetEmail(ctx, user);
    }
    return html(reply, 200, forgotPage(request, true));
  });
}

export function inviteLink(ctx: AppContext, user: User): string {
  return `${ctx.config.baseUrl}/invite/${makeToken(ctx.keys.tokens, "invite", user.id, user.session_token)}`;
}

export function resetLink(ctx: AppContext, user: User): string {
  return `${ctx.config.baseUrl}/reset/${makeToken(ctx.keys.tokens, "reset", user.id, user.session_token)}`;
}

export function verifyLink(ctx: AppContext, user: User): string {
  return `${ctx.config.baseUrl}/verify/${makeToken(ctx.keys.tokens, "verify", user.id, user.session_token)}`;
}
