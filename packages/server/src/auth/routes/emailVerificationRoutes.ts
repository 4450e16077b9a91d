// Email verification: the link that confirms an address, and sending it to the signed-in user.
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { findUserById, updateUser } from "../../store/users";
import { sendVerificationEmail } from "../emails";
import { page } from "../pages";
import { readToken } from "../tokens";
import { docs } from "./docs";
import { errorPage, html } from "./support";

export function emailVerificationRoutes(app: FastifyInstance, ctx: AppContext): void {
  const db = ctx.database.db;

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
}
