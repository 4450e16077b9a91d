// Forgot password: the page and form that email a reset link, or tell a disabled account so.
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppContext } from "../../context";
import { orgSetting } from "../../services/orgSettings";
import { findUserByEmail } from "../../store/users";
import { sendDisabledAccountEmail, sendResetEmail } from "../emails";
import { field, page } from "../pages";
import { docs } from "./docs";
import { csrfField, errorPage, formOf, html } from "./support";

export function forgotPasswordRoutes(app: FastifyInstance, ctx: AppContext): void {
  const db = ctx.database.db;
  // One limiter shared by the GET and the POST, as for the login page.
  const forgotLimit = app.rateLimit({
    max: ctx.config.forgotRateLimitPerHour,
    timeWindow: "1 hour",
  });

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
