// One user as a document: get, update (name, email, password, groups) and delete a pending one.
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { sendVerificationEmail } from "../../auth/emails";
import { hashPassword, verifyPassword } from "../../auth/passwords";
import { startSession } from "../../auth/requestAuth";
import {
  isAdmin,
  isSelf,
  requireAdmin,
  requireAdminOrOwner,
  requireLogin,
  requirePermissionOrSelf,
} from "../../policies";
import { presentUser } from "../../presenters/users";
import { BAD_EMAIL, EMAIL_TAKEN, normalizeEmail } from "../../services/users";
import {
  deleteUser,
  findUserByEmail,
  groupsByIds,
  isUniqueViolation,
  newSessionToken,
  updateUserAndGroups,
  type UserChanges,
} from "../../store/users";
import { badRequest, forbidden } from "../errors";
import { bodyObject, parseId } from "../input";
import { recordRequestEvent } from "../requestEvents";
import { groupIdList, stringField, validName } from "./bodyFields";
import { docs } from "./docs";
import type { IdParams, UserSupport } from "./support";

export function userDocumentRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  { keyVisible, userOr404 }: UserSupport,
): void {
  const db = ctx.database.db;
  const editLimit = { rateLimit: { max: 50, timeWindow: "1 hour" } };

  app.get<IdParams>("/api/users/:id", { schema: docs.get }, async (request) => {
    const id = parseId(request.params.id);
    const { identity, org } = requirePermissionOrSelf(request, "list_users", id);
    const user = await userOr404(org.id, id);
    await recordRequestEvent(ctx, request, "view", "user", id);
    return presentUser(user, { withApiKey: keyVisible(identity, id) });
  });

  app.post<IdParams>(
    "/api/users/:id",
    { config: editLimit, schema: docs.update },
    async (request) => {
      const id = parseId(request.params.id);
      const { identity, org } = requireLogin(request);
      requireAdminOrOwner(identity, id);
      const user = await userOr404(org.id, id);
      const body = bodyObject(request);
      const name = stringField(body, "name");
      const rawEmail = stringField(body, "email");
      const password = stringField(body, "password");
      const oldPassword = stringField(body, "old_password");
      const groupIds =
        body.group_ids === undefined || body.group_ids === null
          ? undefined
          : groupIdList(body.group_ids);

      if (password !== undefined && oldPassword === undefined) {
        throw forbidden("Must provide current password to update password.");
      }
      if (oldPassword !== undefined && !(await verifyPassword(user.password_hash, oldPassword))) {
        throw forbidden("Incorrect current password.");
      }
      const changes: UserChanges = {};
      if (name !== undefined) changes.name = validName(name);
      if (password !== undefined) {
        if (password === "") throw badRequest("Cannot use empty password.");
        changes.password_hash = await hashPassword(password);
      }
      let newGroupIds: number[] | null = null;
      if (groupIds !== undefined) {
        if (!isAdmin(identity)) throw forbidden("Must be admin to change groups membership.");
        if (groupIds.length > 0) {
          const known = new Set((await groupsByIds(db, org.id, groupIds)).map((g) => g.id));
          const invalid = groupIds.find((g) => !known.has(g));
          if (invalid !== undefined) throw badRequest(`Group id ${invalid} is invalid.`);
          newGroupIds = [...new Set(groupIds)];
        }
      }
      let emailChanged = false;
      if (rawEmail !== undefined) {
        const email = normalizeEmail(rawEmail, ctx.config.blockedEmailDomains);
        if (!email) throw badRequest(BAD_EMAIL);
        if (email !== user.email) {
          const other = await findUserByEmail(db, org.id, email);
          if (other && other.id !== user.id) throw badRequest(EMAIL_TAKEN);
          changes.email = email;
          emailChanged = true;
          if (ctx.mailer.configured) changes.is_email_verified = false;
        }
      }
      // A new email or password ends the user's other sessions and outstanding links.
      if (emailChanged || password !== undefined) changes.session_token = newSessionToken();

      try {
        await updateUserAndGroups(db, user.id, changes, newGroupIds);
      } catch (err) {
        if (isUniqueViolation(err)) throw badRequest(EMAIL_TAKEN);
        request.log.warn({ err }, "user update failed");
        throw badRequest("Error updating record");
      }
      const updated = await userOr404(org.id, user.id);
      if (emailChanged && ctx.mailer.configured) {
        await sendVerificationEmail(ctx, updated).catch((err) =>
          request.log.warn({ err }, "could not send the verification email"),
        );
      }
      await recordRequestEvent(ctx, request, "edit", "user", user.id, {
        updated_fields: Object.keys(body).filter((k) =>
          ["name", "email", "password", "old_password", "group_ids"].includes(k),
        ),
      });
      // A new token would end this session too: re-issue it when users change their own.
      const self = isSelf(identity, user.id);
      if (self && identity.kind === "user" && !identity.viaApiKey && changes.session_token) {
        startSession(request, updated, true);
      }
      return presentUser(updated, { withApiKey: keyVisible(identity, user.id) });
    },
  );

  app.delete<IdParams>("/api/users/:id", { schema: docs.delete }, async (request) => {
    const id = parseId(request.params.id);
    const { identity, org } = requireAdmin(request);
    const user = await userOr404(org.id, id);
    if (user.id === identity.user.id) {
      throw forbidden(
        "You cannot delete your own account. Please ask another admin to do this for you.",
      );
    }
    if (!user.is_invitation_pending) {
      throw forbidden("You cannot delete activated users. Please disable the user instead.");
    }
    await deleteUser(db, user.id);
    return presentUser(user);
  });
}
