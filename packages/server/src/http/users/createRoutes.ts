// Inviting a new user (admin), under two rate-limit windows.
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppContext } from "../../context";
import { requireAdmin } from "../../policies";
import { presentUser } from "../../presenters/users";
import { defaultGroupId } from "../../services/organizationSetup";
import { BAD_EMAIL, EMAIL_TAKEN, inviteUser, normalizeEmail } from "../../services/users";
import { findUserByEmail, insertUser, isUniqueViolation, type User } from "../../store/users";
import { GENERIC_MESSAGES, HttpError, badRequest } from "../errors";
import { bodyObject, flag } from "../input";
import { recordRequestEvent } from "../requestEvents";
import { stringField, validName } from "./bodyFields";
import { docs } from "./docs";

export function userCreateRoutes(app: FastifyInstance, ctx: AppContext): void {
  const db = ctx.database.db;
  const createLimit = { rateLimit: { max: 50, timeWindow: "1 hour" } };
  // A route takes one rate-limit config; the second window of user creation is checked here.
  const dailyCreations = app.createRateLimit({ max: 200, timeWindow: "1 day" });
  const createDailyLimit = async (request: FastifyRequest) => {
    const limit = await dailyCreations(request);
    if (!limit.isAllowed && limit.isExceeded) throw new HttpError(429, GENERIC_MESSAGES[429]!);
  };

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
}
