// The invite and password reset links: the page that asks for a password, and setting it. A link
// works once: setting the password changes the session token its fingerprint is checked against.
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppContext } from "../../context";
import { findUserById, newSessionToken, updateUser, type User } from "../../store/users";
import { escapeHtml, field, page, type PageMessage } from "../pages";
import { hashPassword } from "../passwords";
import { startSession } from "../requestAuth";
import { readToken, type TokenPurpose } from "../tokens";
import { docs } from "./docs";
import { csrfField, errorPage, formOf, html, MIN_PASSWORD_LENGTH } from "./support";

export function passwordLinkRoutes(app: FastifyInstance, ctx: AppContext): void {
  const db = ctx.database.db;

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
}
