// The data source routes (/api/data_sources..., and the lazy schema under /api/databricks), by
// concern in ./dataSources/: the lists, one data source as a document, its schema, actions on
// it, and the lazy schema. Registered in this order, the order of the API docs.
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../context";
import { dataSourceActionRoutes } from "./dataSources/actionRoutes";
import { dataSourceDocumentRoutes } from "./dataSources/documentRoutes";
import { dataSourceFileRoutes } from "./dataSources/fileRoutes";
import { dataSourceLazySchemaRoutes } from "./dataSources/lazySchemaRoutes";
import { dataSourceListRoutes } from "./dataSources/listRoutes";
import { dataSourceSchemaRoutes } from "./dataSources/schemaRoutes";
import { dataSourceSupport } from "./dataSources/support";

export async function dataSourceRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const support = dataSourceSupport(ctx);
  dataSourceListRoutes(app, ctx);
  dataSourceDocumentRoutes(app, ctx, support);
  dataSourceSchemaRoutes(app, ctx, support);
  dataSourceActionRoutes(app, ctx, support);
  dataSourceLazySchemaRoutes(app, ctx, support);
  await dataSourceFileRoutes(app, ctx, support);
}
