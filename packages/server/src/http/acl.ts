import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppContext } from "../context";
import { requireAdminOrOwner, requireLogin } from "../policies";
import { presentUser } from "../presenters/users";
import {
  ACCESS_TYPES,
  grant,
  grantsOf,
  holdsGrant,
  revoke,
  type AclObjectType,
} from "../store/accessPermissions";
import { findUserById, withGroups } from "../store/users";
import { recordEvent } from "../services/events";
import { badRequest, notFound } from "./errors";
import { bodyObject, parseId } from "./input";
import * as S from "./schemas";

type Params = { type: string; id: string };

// ---- Route documentation (the shapes are in ./schemas) ----

const tags = ["access control"];
const objectParams = S.params({
  type: { type: "string", enum: ["queries", "dashboards"] },
  id: S.int,
});
const grantBody = S.object(
  { access_type: { type: "string", enum: ACCESS_TYPES }, user_id: S.int },
  ["access_type", "user_id"],
);

const docs = {
  list: {
    tags,
    summary: "List who holds which access to a query or dashboard",
    params: objectParams,
    response: {
      200: {
        type: "object",
        additionalProperties: S.array(S.user),
        description: "Access type to the users holding it",
      },
      ...S.errors(404),
    },
  },
  grant: {
    tags,
    summary: "Grant a user access (admin or owner)",
    params: objectParams,
    body: grantBody,
    response: { 200: S.aclGrant, ...S.errors(400, 403, 404) },
  },
  revoke: {
    tags,
    summary: "Revoke a user's access (admin or owner)",
    params: objectParams,
    body: grantBody,
    response: { 200: S.nullBody, ...S.errors(400, 403, 404) },
  },
  check: {
    tags,
    summary: "Whether the caller holds an access type",
    params: S.params({ ...objectParams.properties, access_type: S.str }),
    response: {
      200: S.object({ response: S.bool }, ["response"], "Whether the grant exists"),
      ...S.errors(404),
    },
  },
};

/** Object ACLs (api-queries.md §13) of queries and dashboards. */
export async function aclRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { db } = ctx.database;

  /** The object (query or dashboard) in the caller's org, or 404. */
  async function load(request: FastifyRequest<{ Params: Params }>) {
    const { identity, org } = requireLogin(request);
    const type = request.params.type;
    if (type !== "queries" && type !== "dashboards") throw notFound();
    const id = parseId(request.params.id);
    const row = await db
      .selectFrom(type)
      .select(["id", "user_id"])
      .where("org_id", "=", org.id)
      .where("id", "=", id)
      .executeTakeFirst();
    if (!row) throw notFound();
    return { identity, org, type: type as AclObjectType, object: row };
  }

  function readGrantBody(request: FastifyRequest) {
    const body = bodyObject(request);
    const accessType = body.access_type;
    const userId = body.user_id;
    if (
      typeof accessType !== "string" ||
      !(ACCESS_TYPES as readonly string[]).includes(accessType)
    ) {
      throw badRequest("Unknown access type.");
    }
    const id =
      typeof userId === "number" ? userId : typeof userId === "string" ? Number(userId) : NaN;
    if (!Number.isSafeInteger(id)) throw badRequest("User not found.");
    return { accessType, userId: id };
  }

  app.get<{ Params: Params }>("/api/:type/:id/acl", { schema: docs.list }, async (request) => {
    const { type, object } = await load(request);
    const grants = await grantsOf(db, type, object.id);
    const rows = grants.length
      ? await db
          .selectFrom("users")
          .selectAll()
          .where("id", "in", [...new Set(grants.map((g) => g.grantee_id))])
          .execute()
      : [];
    const users = new Map((await withGroups(db, rows)).map((u) => [u.id, u]));
    const out: Record<string, ReturnType<typeof presentUser>[]> = {};
    for (const g of grants) {
      const user = users.get(g.grantee_id);
      if (user) (out[g.access_type] ??= []).push(presentUser(user));
    }
    return out;
  });

  app.post<{ Params: Params }>("/api/:type/:id/acl", { schema: docs.grant }, async (request) => {
    const { identity, org, type, object } = await load(request);
    requireAdminOrOwner(identity, object.user_id);
    const { accessType, userId } = readGrantBody(request);
    const grantee = await findUserById(db, org.id, userId);
    if (!grantee) throw badRequest("User not found.");
    const grantorId = identity.kind === "user" ? identity.user.id : object.user_id;
    const created = await grant(db, {
      object_type: type,
      object_id: object.id,
      access_type: accessType,
      grantor_id: grantorId,
      grantee_id: grantee.id,
    });
    await recordEvent(db, {
      orgId: org.id,
      userId: grantorId,
      action: "grant_permission",
      objectType: type,
      objectId: object.id,
      details: { grantee: grantee.id, access_type: accessType },
      request,
    });
    return {
      id: created.id,
      object_id: created.object_id,
      object_type: created.object_type,
      access_type: created.access_type,
      grantor: created.grantor_id,
      grantee: created.grantee_id,
    };
  });

  app.delete<{ Params: Params }>("/api/:type/:id/acl", { schema: docs.revoke }, async (request) => {
    const { identity, org, type, object } = await load(request);
    requireAdminOrOwner(identity, object.user_id);
    const { accessType, userId } = readGrantBody(request);
    const grantee = await db
      .selectFrom("users")
      .select("id")
      .where("id", "=", userId)
      .executeTakeFirst();
    if (!grantee) throw badRequest("User not found.");
    await revoke(db, type, object.id, accessType, grantee.id);
    await recordEvent(db, {
      orgId: org.id,
      userId: identity.kind === "user" ? identity.user.id : null,
      action: "revoke_permission",
      objectType: type,
      objectId: object.id,
      details: { access_type: accessType, grantee_id: grantee.id },
      request,
    });
    return null;
  });

  app.get<{ Params: Params & { access_type: string } }>(
    "/api/:type/:id/acl/:access_type",
    { schema: docs.check },
    async (request) => {
      const { identity, type, object } = await load(request);
      if (identity.kind !== "user") return { response: false };
      return {
        response: await holdsGrant(
          db,
          type,
          object.id,
          request.params.access_type,
          identity.user.id,
        ),
      };
    },
  );
}
