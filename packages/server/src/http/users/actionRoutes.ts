// Actions on a user's account: send the invitation again, send a password reset, a new API key,
// disable and enable.
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { sendResetEmail } from "../../auth/emails";
import { resetLink } from "../../auth/routes/links";
import { generateApiKey } from "../../auth/secretKey";
import { isAdminOrSelf, requireAdmin, requireLogin } from "../../policies";
import { presentUser } from "../../presenters/users";
import { inviteUser } from "../../services/users";
import { newSessionToken, updateUser } from "../../store/users";
import { now } from "../../store/values";
import { forbidden, notFound } from "../errors";
import { parseId } from "../input";
import { recordRequestEvent } from "../requestEvents";
import { docs } from "./docs";
import type { IdParams, UserSupport } from "./support";

export function userActionRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  { keyVisible, userOr404 }: UserSupport,
): void {
  const db = ctx.database.db;

  app.post<IdParams>("/api/users/:id/invite", { schema: docs.invite }, async (request) => {
    const id = parseId(request.params.id);
    const { identity, org } = requireAdmin(request);
    const user = await userOr404(org.id, id);
    return { ...presentUser(user), ...(await inviteUser(ctx, user, identity.user, true)) };
  });

  app.post<IdParams>(
    "/api/users/:id/reset_password",
    { schema: docs.resetPassword },
    async (request) => {
      const id = parseId(request.params.id);
      const { org } = requireAdmin(request);
      const user = await userOr404(org.id, id);
      if (user.disabled_at !== null) throw notFound("Not found");
      try {
        return { reset_link: await sendResetEmail(ctx, user) };
      } catch (err) {
        request.log.warn({ err }, "could not send the password reset email");
        return { reset_link: resetLink(ctx, user) };
      }
    },
  );

  app.post<IdParams>(
    "/api/users/:id/regenerate_api_key",
    { schema: docs.regenerateApiKey },
    async (request) => {
      const id = parseId(request.params.id);
      const { identity, org } = requireLogin(request);
      const user = await userOr404(org.id, id);
      if (user.disabled_at !== null) throw notFound("Not found");
      if (!isAdminOrSelf(identity, id)) throw forbidden();
      await updateUser(db, user.id, { api_key: generateApiKey() });
      await recordRequestEvent(ctx, request, "regnerate_api_key", "user", user.id);
      // Only its owner sees a user's key (SECURITY.md rule 1): for others this revokes it, unless
      // the operator shows keys to admins for a migration.
      return presentUser(await userOr404(org.id, user.id), {
        withApiKey: keyVisible(identity, id),
      });
    },
  );

  app.post<IdParams>("/api/users/:id/disable", { schema: docs.disable }, async (request) => {
    const id = parseId(request.params.id);
    const { identity, org } = requireAdmin(request);
    const user = await userOr404(org.id, id);
    if (user.id === identity.user.id) {
      throw forbidden(
        "You cannot disable your own account. Please ask another admin to do this for you.",
      );
    }
    // A new session token ends the user's sessions for good, even after re-enabling.
    await updateUser(db, user.id, { disabled_at: now(), session_token: newSessionToken() });
    return presentUser(await userOr404(org.id, user.id));
  });

  app.delete<IdParams>("/api/users/:id/disable", { schema: docs.enable }, async (request) => {
    const id = parseId(request.params.id);
    const { identity, org } = requireAdmin(request);
    const user = await userOr404(org.id, id);
    await updateUser(db, user.id, { disabled_at: null });
    return presentUser(await userOr404(org.id, user.id), { withApiKey: keyVisible(identity, id) });
  });
}
