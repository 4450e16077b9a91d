import type { FastifyInstance } from "fastify";
import type { AppContext } from "../context";
import { badRequest, notFound } from "./errors";
import { bodyId, bodyObject, parseId } from "./input";
import * as S from "./schemas";
import { recordRequestEvent } from "./requestEvents";
import {
  isAdmin,
  requireAdmin,
  requireGroupAccess,
  requireLogin,
  requirePermission,
} from "../policies";
import { presentGroup, presentGroupDataSource } from "../presenters/groups";
import { presentUser } from "../presenters/users";
import {
  addDataSourceLink,
  addMember,
  deleteGroup,
  findDataSourceLink,
  findGroup,
  groupDataSources,
  groupMembers,
  listGroups,
  removeDataSourceLink,
  removeMember,
  renameGroup,
  setDataSourceViewOnly,
} from "../store/groups";
import { findUserById, groupsByIds, insertGroup, type Group } from "../store/users";
import { findDataSource } from "../store/dataSources";
import { findRunner } from "../services/dataSourceTypes";
import { DEFAULT_GROUP_PERMISSIONS } from "@sightline/core";

type GroupParams = { Params: { id: string } };
type MemberParams = { Params: { id: string; user_id: string } };
type DataSourceParams = { Params: { id: string; data_source_id: string } };

const MAX_GROUP_NAME = 100;

// ---- Route documentation (the shapes are in ./schemas) ----

const tags = ["groups"];
const nameBody = S.object({ name: { ...S.str, description: "At most 100 characters" } }, ["name"]);
const dataSourceParams = S.params({ id: S.int, data_source_id: S.int });

const docs = {
  list: {
    tags,
    summary: "List groups (all for admins, else the caller's)",
    response: { 200: S.array(S.group, "Groups"), ...S.errors(404) },
  },
  create: {
    tags,
    summary: "Create a group (admin)",
    body: nameBody,
    response: { 200: S.group, ...S.errors(400, 403, 404) },
  },
  get: {
    tags,
    summary: "Get a group (admins and members)",
    params: S.idParams,
    response: { 200: S.group, ...S.errors(403, 404) },
  },
  rename: {
    tags,
    summary: "Rename a group (admin)",
    params: S.idParams,
    body: nameBody,
    response: { 200: S.group, ...S.errors(400, 403, 404) },
  },
  delete: {
    tags,
    summary: "Delete a group (admin)",
    params: S.idParams,
    response: { 200: S.nullBody, ...S.errors(400, 403, 404) },
  },
  members: {
    tags,
    summary: "List a group's members",
    params: S.idParams,
    response: { 200: S.array(S.user, "Users"), ...S.errors(403, 404) },
  },
  addMember: {
    tags,
    summary: "Add a user to a group (admin)",
    params: S.idParams,
    body: S.object({ user_id: S.int }, ["user_id"]),
    response: { 200: S.user, ...S.errors(400, 403, 404) },
  },
  removeMember: {
    tags,
    summary: "Remove a user from a group (admin)",
    params: S.params({ id: S.int, user_id: S.int }),
    response: { 200: S.nullBody, ...S.errors(400, 403, 404) },
  },
  dataSources: {
    tags,
    summary: "List a group's data sources (admin)",
    params: S.idParams,
    response: { 200: S.array(S.dataSourceWithViewOnly, "Data sources"), ...S.errors(403, 404) },
  },
  addDataSource: {
    tags,
    summary: "Give a group a data source (admin)",
    params: S.idParams,
    body: S.object({ data_source_id: S.int }, ["data_source_id"]),
    response: { 200: S.dataSourceWithViewOnly, ...S.errors(400, 403, 404) },
  },
  setViewOnly: {
    tags,
    summary: "Make a group's data source view-only or not (admin)",
    params: dataSourceParams,
    body: S.object({ view_only: S.bool }, ["view_only"]),
    response: { 200: S.dataSourceWithViewOnly, ...S.errors(400, 403, 404) },
  },
  removeDataSource: {
    tags,
    summary: "Take a data source from a group (admin)",
    params: dataSourceParams,
    response: { 200: S.nullBody, ...S.errors(400, 403, 404) },
  },
};

/** A group name from the body: a non-empty string of at most 100 characters. */
function groupName(body: Record<string, unknown>): string {
  const name = body.name;
  if (typeof name !== "string" || !name.trim()) throw badRequest("Group name is required.");
  if (name.trim().length > MAX_GROUP_NAME) {
    throw badRequest(`Group name is too long (at most ${MAX_GROUP_NAME} characters).`);
  }
  return name.trim();
}

/** Groups, their members and data sources (api-platform.md §7.2). */
export async function groupRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const db = ctx.database.db;

  const groupOr404 = async (orgId: number, id: number): Promise<Group> => {
    const group = await findGroup(db, orgId, id);
    if (!group) throw notFound();
    return group;
  };

  app.get("/api/groups", { schema: docs.list }, async (request) => {
    const { identity, org } = requireLogin(request);
    const groups = isAdmin(identity)
      ? await listGroups(db, org.id)
      : await groupsByIds(db, org.id, identity.groupIds);
    await recordRequestEvent(ctx, request, "list", "group", "groups");
    return groups.map(presentGroup);
  });

  app.post("/api/groups", { schema: docs.create }, async (request) => {
    const { org } = requireAdmin(request);
    const name = groupName(bodyObject(request));
    const group = await insertGroup(db, org.id, name, "regular", [...DEFAULT_GROUP_PERMISSIONS]);
    await recordRequestEvent(ctx, request, "create", "group", group.id);
    return presentGroup(group);
  });

  app.get<GroupParams>("/api/groups/:id", { schema: docs.get }, async (request) => {
    const id = parseId(request.params.id);
    const { org } = requireGroupAccess(request, id);
    const group = await groupOr404(org.id, id);
    await recordRequestEvent(ctx, request, "view", "group", id);
    return presentGroup(group);
  });

  app.post<GroupParams>("/api/groups/:id", { schema: docs.rename }, async (request) => {
    const id = parseId(request.params.id);
    const { org } = requireAdmin(request);
    const group = await groupOr404(org.id, id);
    if (group.type === "builtin") throw badRequest("Can't modify built-in groups.");
    const name = groupName(bodyObject(request));
    await renameGroup(db, id, name);
    await recordRequestEvent(ctx, request, "edit", "group", id);
    return presentGroup({ ...group, name });
  });

  app.delete<GroupParams>("/api/groups/:id", { schema: docs.delete }, async (request, reply) => {
    const id = parseId(request.params.id);
    const { org } = requireAdmin(request);
    const group = await groupOr404(org.id, id);
    if (group.type === "builtin") throw badRequest("Can't delete built-in groups.");
    await deleteGroup(db, id);
    return reply.send(null);
  });

  // ---- Members ----

  app.get<GroupParams>("/api/groups/:id/members", { schema: docs.members }, async (request) => {
    const id = parseId(request.params.id);
    requirePermission(request, "list_users");
    const { org } = requireGroupAccess(request, id);
    await groupOr404(org.id, id);
    return (await groupMembers(db, id)).map((u) => presentUser(u));
  });

  app.post<GroupParams>("/api/groups/:id/members", { schema: docs.addMember }, async (request) => {
    const id = parseId(request.params.id);
    const { org } = requireAdmin(request);
    const userId = bodyId(bodyObject(request), "user_id");
    await groupOr404(org.id, id);
    const user = await findUserById(db, org.id, userId);
    if (!user) throw notFound();
    await addMember(db, id, user.id);
    await recordRequestEvent(ctx, request, "add_member", "group", id, { member_id: user.id });
    const updated = (await findUserById(db, org.id, user.id))!;
    return presentUser(updated);
  });

  app.delete<MemberParams>(
    "/api/groups/:id/members/:user_id",
    { schema: docs.removeMember },
    async (request, reply) => {
      const id = parseId(request.params.id);
      const userId = parseId(request.params.user_id);
      const { org } = requireAdmin(request);
      await groupOr404(org.id, id);
      const user = await findUserById(db, org.id, userId);
      if (!user) throw notFound();
      await removeMember(db, id, user.id);
      await recordRequestEvent(ctx, request, "remove_member", "group", id, { member_id: user.id });
      return reply.send(null);
    },
  );

  // ---- Data sources ----

  app.get<GroupParams>(
    "/api/groups/:id/data_sources",
    { schema: docs.dataSources },
    async (request) => {
      const id = parseId(request.params.id);
      const { org } = requireAdmin(request);
      await groupOr404(org.id, id);
      const sources = await groupDataSources(db, id);
      await recordRequestEvent(ctx, request, "list", "group", id);
      return sources.map((s) =>
        presentGroupDataSource(s.dataSource, findRunner(s.dataSource.type), s.viewOnly),
      );
    },
  );

  app.post<GroupParams>(
    "/api/groups/:id/data_sources",
    { schema: docs.addDataSource },
    async (request) => {
      const id = parseId(request.params.id);
      const { org } = requireAdmin(request);
      const dataSourceId = bodyId(bodyObject(request), "data_source_id");
      await groupOr404(org.id, id);
      const ds = await findDataSource(db, org.id, dataSourceId);
      if (!ds) throw notFound();
      const link = await addDataSourceLink(db, id, ds.id);
      await recordRequestEvent(ctx, request, "add_data_source", "group", id, { member_id: ds.id });
      return presentGroupDataSource(ds, findRunner(ds.type), link.view_only);
    },
  );

  app.post<DataSourceParams>(
    "/api/groups/:id/data_sources/:data_source_id",
    { schema: docs.setViewOnly },
    async (request) => {
      const id = parseId(request.params.id);
      const dataSourceId = parseId(request.params.data_source_id);
      const { org } = requireAdmin(request);
      const viewOnly = bodyObject(request).view_only;
      if (typeof viewOnly !== "boolean") throw badRequest("'view_only' must be true or false.");
      await groupOr404(org.id, id);
      const ds = await findDataSource(db, org.id, dataSourceId);
      if (!ds || !(await findDataSourceLink(db, id, ds.id))) throw notFound();
      await setDataSourceViewOnly(db, id, ds.id, viewOnly);
      await recordRequestEvent(ctx, request, "change_data_source_permission", "group", id, {
        member_id: ds.id,
        view_only: viewOnly,
      });
      return presentGroupDataSource(ds, findRunner(ds.type), viewOnly);
    },
  );

  app.delete<DataSourceParams>(
    "/api/groups/:id/data_sources/:data_source_id",
    { schema: docs.removeDataSource },
    async (request, reply) => {
      const id = parseId(request.params.id);
      const dataSourceId = parseId(request.params.data_source_id);
      const { org } = requireAdmin(request);
      await groupOr404(org.id, id);
      const ds = await findDataSource(db, org.id, dataSourceId);
      if (!ds) throw notFound();
      await removeDataSourceLink(db, id, ds.id);
      await recordRequestEvent(ctx, request, "remove_data_source", "group", id, {
        member_id: ds.id,
      });
      return reply.send(null);
    },
  );
}
