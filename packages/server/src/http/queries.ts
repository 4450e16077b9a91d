// The query routes (/api/queries...), by concern in ./queries/: the lists, one query as a
// document, actions on it, dropdown options, and running it.
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../context";
import { queryActionRoutes } from "./queries/actionRoutes";
import { queryDocumentRoutes } from "./queries/documentRoutes";
import { queryDropdownRoutes } from "./queries/dropdownRoutes";
import { queryExecutionRoutes } from "./queries/executionRoutes";
import { queryListRoutes } from "./queries/listRoutes";
import { queryRunRoutes } from "./queries/runRoutes";
import { querySupport } from "./queries/support";
import { queryVersionRoutes } from "./queries/versionRoutes";

export { storedQueryHash } from "./queries/storedQueryHash";

export async function queryRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const support = querySupport(ctx);
  queryListRoutes(app, ctx);
  queryDocumentRoutes(app, ctx, support);
  queryActionRoutes(app, ctx, support);
  queryDropdownRoutes(app, ctx, support);
  queryExecutionRoutes(app, ctx, support);
  queryVersionRoutes(app, ctx, support);
  queryRunRoutes(app, ctx, support);
}
