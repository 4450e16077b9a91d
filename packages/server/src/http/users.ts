import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppContext } from "../context";
import type { Identity } from "../auth/identity";
import { GENERIC_MESSAGES, HttpError, badRequest, forbidden, notFound } from "./errors";
import { bodyObject, flag, optionalString, parseId } from "./input";
import { eventActor } from "./objectEvents";
import {
  isAdmin,
  isAdminOrSelf,
  isSelf,
  maySeeApiKey,
  requireAdmin,
  requireAdminOrOwner,
  requireLogin,
  requirePermission,
  requirePermissionOrSelf,
} from "../policies";
import { presentUser } from "../presenters/users";
import {
  USER_ORDER_KEYS,
  countUsers,
  deleteUser,
  findUserByEmail,
  findUserById,
  groupsByIds,
  insertUser,
  isUniqueViolation,
  listUsers,
  newSessionToken,
  updateUser,
  updateUserAndGroups,
  type User,
  type UserChanges,
  type UserOrderKey,
} from "../store/users";
import { listGroups } from "../store/groups";
import { generateApiKey } from "../auth/secretKey";
import { hashPassword, verifyPassword } from "../auth/passwords";
import { startSession } from "../auth/requestAuth";
import { resetLink } from "../auth/routes/links";
import { sendResetEmail, sendVerificationEmail } from "../auth/emails";
import { defaultGroupId } from "../services/organizationSetup";
import { BAD_EMAIL, EMAIL_TAKEN, inviteUser, normalizeEmail } from "../services/users";
import { recordEvent } from "../services/events";
import { now } from "../store/values";
import * as S from "./schemas";

// ---- Request helpers shared by the list endpoints of this area (users, groups, events) ----

/** One query-string value (the first when repeated). */
export function queryParam(request: FastifyRequest, name: string): string | undefined {
  const value = (request.query as Record<string, unknown> | undefined)?.[name];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === "string" ? first : undefined;
}

const TRUE_WORDS = ["true", "yes", "on", "1"];
const FALSE_WORDS = ["false", "no", "off", "0", "none"];

/** A boolean query parameter in Redash's spellings; undefined when absent, 400 when unreadable. */
export function boolParam(request: FastifyRequest, name: string): boolean | undefined {
  const raw = queryParam(request, name);
  if (raw === undefined) return undefined;
  const word = raw.trim().toLowerCase();
  if (TRUE_WORDS.includes(word)) return true;
  if (FALSE_WORDS.includes(word)) return false;
  throw badRequest(`Invalid value for '${name}': expected true or false.`);
}

export interface Page {
  page: number;
  pageSize: number;
}

/** `page` and `page_size` (non-integers fall back to the defaults); `page < 1` is a 400. */
export function pageParams(request: FastifyRequest, defaultPageSize = 25): Page {
  const int = (name: string, fallback: number) => {
    const raw = queryParam(request, name)?.trim();
    return raw !== undefined && /^-?\d{1,9}$/.test(raw) ? Number(raw) : fallback;
  };
  const page = int("page", 1);
  if (page < 1) throw badRequest("Page must be positive integer.");
  return { page, pageSize: int("page_size", defaultPageSize) };
}

/** The remaining checks of api-platform.md §1.5, which need the total count. */
export function checkPage({ page, pageSize }: Page, count: number): void {
  if (count > 0 && (page - 1) * pageSize + 1 > count) throw badRequest("Page is out of range.");
  if (pageSize > 250 || pageSize < 1) throw badRequest("Page size is out of range (1-250).");
}

/** The `order` parameter: a key of the endpoint's map with an optional leading `-`. */
export function orderParam<K extends string>(
  request: FastifyRequest,
  keys: readonly K[],
): { key: K; descending: boolean } | null {
  const raw = queryParam(request, "order")?.trim() ?? "";
  const descending = raw.startsWith("-");
  const key = (descending ? raw.slice(1) : raw) as K;
  return keys.includes(key) ? { key, descending } : null;
}

/** Records an event for the caller of this request (api-platform.md §10). */
export async function recordRequestEvent(
  ctx: AppContext,
  request: FastifyRequest,
  action: string,
  objectType: string,
  objectId?: string | number | null,
  details: Record<string, unknown> = {},
  timestamp?: string,
): Promise<void> {
  const { org, identity } = request.auth;
  if (!org || identity.kind === "anonymous") return;
  await recordEvent(ctx.database.db, {
    orgId: org.id,
    ...eventActor(identity),
    action,
    objectType,
    objectId,
    details: identity.kind === "user" ? { user_name: identity.user.name, ...details } : details,
    request,
    timestamp,
  });
}

// ---- Users (api-platform.md §7.1) ----

// Route documentation (the shapes are in ./schemas).
const tags = ["users"];

const userAction = (summary: string, answer: object, statuses = [400, 403, 404]) => ({
  tags,
  summary,
  params: S.idParams,
  response: { 200: answer, ...S.errors(...statuses) },
});

const docs = {
  list: {
    tags,
    summary: "List users",
    querystring: S.object({
      q: { ...S.str, description: "Part of a name or email" },
      disabled: { ...S.str, description: "true/false (default false): disabled users only" },
      pending: { ...S.str, description: "true/false: only pending invitations, or none" },
      order: {
        ...S.str,
        description: "name, active_at, created_at or groups; `-` first for descending",
      },
      ...S.pageQuerystring,
    }),
    response: { 200: S.paginated(S.listedUser, "A page of users"), ...S.errors(400, 403, 404) },
  },
  create: {
    tags,
    summary: "Invite a new user (admin)",
    querystring: S.object({
      no_invite: { ...S.str, description: "A flag: present = send no email" },
    }),
    body: S.object({ name: S.str, email: S.str }, ["name", "email"]),
    response: { 200: S.invitedUser, ...S.errors(400, 403, 404, 429) },
  },
  get: userAction("Get a user", S.userMaybeApiKey, [403, 404]),
  update: {
    ...userAction("Update a user (admin or the user)", S.userMaybeApiKey, [400, 403, 404, 429]),
    body: S.object({
      name: S.str,
      email: S.str,
      password: { ...S.str, description: "Needs old_password" },
      old_password: S.str,
      group_ids: { ...S.array(S.int), description: "Admins only; an empty list changes nothing" },
    }),
  },
  delete: userAction("Delete a pending user (admin)", S.user),
  invite: userAction("Send an invitation again (admin)", S.invitedUser),
  resetPassword: userAction(
    "Send a password reset email (admin)",
    S.object({ reset_link: S.str }, ["reset_link"], "The reset link"),
  ),
  regenerateApiKey: userAction("Give a user a new API key", S.userMaybeApiKey),
  disable: userAction("Disable a user (admin)", S.user),
  enable: userAction("Enable a disabled user (admin)", S.userMaybeApiKey),
};

type IdParams = { Params: { id: string } };

/** A string field, absent when missing or null; 400 for another type. */
function stringField(body: Record<string, unknown>, key: string): string | undefined {
  return optionalString(body, key) ?? undefined;
}

function validName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw badRequest("Name can't be empty.");
  if (trimmed.length > 320) throw badRequest("Name is too long (at most 320 characters).");
  return trimmed;
}

function groupIdList(value: unknown): number[] {
  if (!Array.isArray(value) || !value.every((v) => Number.isSafeInteger(v))) {
    throw badRequest("'group_ids' must be a list of group ids.");
  }
  return value as number[];
}

export async function userRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const db = ctx.database.db;
  const keyVisible = (identity: Identity, userId: number) =>
    maySeeApiKey(identity, userId, ctx.config.showApiKeysToAdmins);
  const createLimit = { rateLimit: { max: 50, timeWindow: "1 hour" } };
  // A route takes one rate-limit config; the second window of user creation is checked here.
  const dailyCreations = app.createRateLimit({ max: 200, timeWindow: "1 day" });
  const createDailyLimit = async (request: FastifyRequest) => {
    const limit = await dailyCreations(request);
    if (!limit.isAllowed && limit.isExceeded) throw new HttpError(429, GENERIC_MESSAGES[429]!);
  };
  const editLimit = { rateLimit: { max: 50, timeWindow: "1 hour" } };

  const userOr404 = async (orgId: number, id: number): Promise<User> => {
    const user = await findUserById(db, orgId, id);
    if (!user) throw notFound();
    return user;
  };

  app.get("/api/users", { schema: docs.list }, async (request) => {
    const { org } = requirePermission(request, "list_users");
    const q = queryParam(request, "q")?.trim() || undefined;
    const disabled = boolParam(request, "disabled") ?? false;
    const pending = boolParam(request, "pending");
    const page = pageParams(request);
    // Without a search term an unknown order means newest first; with one, the search order.
    const order =
      orderParam<UserOrderKey>(request, USER_ORDER_KEYS) ??
      (q ? null : { key: "created_at" as const, descending: true });
    const filter = { q, disabled, pending };
    const count = await countUsers(db, org.id, filter);
    checkPage(page, count);
    const users = await listUsers(db, org.id, {
      ...filter,
      order,
      limit: page.pageSize,
      offset: (page.page - 1) * page.pageSize,
    });
    const groups = await listGroups(db, org.id);
    if (q) await recordRequestEvent(ctx, request, "search", "user", null, { term: q, pending });
    else await recordRequestEvent(ctx, request, "list", "user", null, { pending });
    return {
      count,
      page: page.page,
      page_size: page.pageSize,
      results: users.map((u) => presentUser(u, { groups })),
    };
  });

  const createOptions = { config: createLimit, onRequest: createDailyLimit, schema: docs.create };
  app.post("/api/users", createOptions, async (request) => {
    const { identity, org } = requireAdmin(request);
    const body = bodyObject(request);
    const name = stringField(body, "name");
    const rawEmail = stringField(body, "email");
    if (!name?.trim() || !rawEmail?.trim()) throw badRequest();
    const email = normalizeEmail(rawEmail, ctx.config.blockedEmailDomains);
    if (!email) throw badRequest(BAD_EMAIL);
    if (await findUserByEmail(db, org.id, email)) throw badRequest(EMAIL_TAKEN);
    let user: User;
    try {
      user = await insertUser(db, {
        orgId: org.id,
        name: validName(name),
        email,
        passwordHash: null,
        groupIds: [await defaultGroupId(db, org.id)],
        invitationPending: true,
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw badRequest(EMAIL_TAKEN);
      throw err;
    }
    await recordRequestEvent(ctx, request, "create", "user", user.id);
    const sendEmail = !flag(request, "no_invite");
    return { ...presentUser(user), ...(await inviteUser(ctx, user, identity.user, sendEmail)) };
  });

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
