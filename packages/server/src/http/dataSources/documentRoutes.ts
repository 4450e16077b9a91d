// One data source as a document: create, get, update and delete.
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import {
  dataSourceViewOnly,
  hasPermission,
  isAdmin,
  requireAdmin,
  requireDataSourceAccess,
  requireLogin,
} from "../../policies";
import { presentDataSourceBasic, presentDataSourceFull } from "../../presenters/dataSources";
import { deleteDataSourceResultObjects } from "../../results";
import { uploadsFolder } from "../../runners/ownPaths";
import { removeUploads } from "../../runners/uploadFiles";
import { readDataSourceOptions, writeDataSourceOptions } from "../../services/dataSourceOptions";
import { findRunner } from "../../services/dataSourceTypes";
import { recordEvent } from "../../services/events";
import { defaultGroupId } from "../../services/organizationSetup";
import {
  deleteDataSource,
  findDataSource,
  findDataSourceByName,
  groupLinksOf,
  insertDataSource,
  updateDataSource,
} from "../../store/dataSources";
import { bodyObject } from "../input";
import { saveWithUniqueName } from "../uniqueNames";
import { readDataSourceInput } from "./bodyFields";
import { docs } from "./docs";
import type { DataSourceSupport, Params } from "./support";

export function dataSourceDocumentRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  support: DataSourceSupport,
): void {
  const { db } = ctx.database;
  const { load, presentFull, refuseUnsafe } = support;

  app.post("/api/data_sources", { schema: docs.create }, async (request) => {
    const { identity, org } = requireAdmin(request);
    const input = readDataSourceInput(bodyObject(request), null);
    await refuseUnsafe(input.runner, input.options, null);
    const ds = await saveWithUniqueName({
      kind: "Data source",
      name: input.name,
      selfId: null,
      findByName: (name) => findDataSourceByName(db, org.id, name),
      save: async () =>
        insertDataSource(db, {
          orgId: org.id,
          name: input.name,
          type: input.runner.type,
          encryptedOptions: writeDataSourceOptions(ctx, input.options),
          groupId: await defaultGroupId(db, org.id),
        }),
    });
    await recordEvent(db, {
      orgId: org.id,
      userId: identity.user.id,
      action: "create",
      objectType: "datasource",
      objectId: ds.id,
      request,
    });
    return presentFull(ds);
  });

  app.get<{ Params: Params }>("/api/data_sources/:id", { schema: docs.get }, async (request) => {
    const { identity, org } = requireLogin(request);
    const ds = await load(request, org.id);
    const links = await groupLinksOf(db, ds.id);
    requireDataSourceAccess(identity, links, "view");
    const viewOnly = dataSourceViewOnly(identity, links);
    if (!hasPermission(identity, "list_data_sources")) return { view_only: viewOnly };
    const runner = findRunner(ds.type);
    const shape = isAdmin(identity)
      ? presentDataSourceFull(ctx, ds, runner, links)
      : presentDataSourceBasic(ds, runner);
    return { ...shape, view_only: viewOnly };
  });

  app.post<{ Params: Params }>(
    "/api/data_sources/:id",
    { schema: docs.update },
    async (request) => {
      const { identity, org } = requireAdmin(request);
      const ds = await load(request, org.id);
      const input = readDataSourceInput(bodyObject(request), {
        type: ds.type,
        options: readDataSourceOptions(ctx, ds),
      });
      await refuseUnsafe(input.runner, input.options, ds.id);
      await saveWithUniqueName({
        kind: "Data source",
        name: input.name,
        selfId: ds.id,
        findByName: (name) => findDataSourceByName(db, org.id, name),
        save: () =>
          updateDataSource(db, ds.id, {
            name: input.name,
            type: input.runner.type,
            encrypted_options: writeDataSourceOptions(ctx, input.options),
          }),
      });
      await recordEvent(db, {
        orgId: org.id,
        userId: identity.user.id,
        action: "edit",
        objectType: "datasource",
        objectId: ds.id,
        request,
      });
      return presentFull((await findDataSource(db, org.id, ds.id))!);
    },
  );

  app.delete<{ Params: Params }>(
    "/api/data_sources/:id",
    { schema: docs.delete },
    async (request, reply) => {
      const { identity, org } = requireAdmin(request);
      const ds = await load(request, org.id);
      await deleteDataSourceResultObjects(db, ds.id);
      await deleteDataSource(db, ds.id);
      await removeUploads(uploadsFolder(ctx.config, ds.id));
      await recordEvent(db, {
        orgId: org.id,
        userId: identity.user.id,
        action: "delete",
        objectType: "datasource",
        objectId: ds.id,
        request,
      });
      return reply.code(204).send();
    },
  );
}
