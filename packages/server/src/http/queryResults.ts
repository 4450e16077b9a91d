// Ad-hoc execution and the result routes (api-queries §4.1, §4.3, §4.4), by concern in
// ./queryResults/: the run, the CORS preflights, and reading results (access, then format).
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../context";
import { resultPreflightRoutes } from "./queryResults/cors";
import { adHocExecutionRoute } from "./queryResults/executeRoute";
import { resultReadRoutes } from "./queryResults/readRoutes";

export { presentJob, sendQueryResult, withExecutionErrors } from "./queryResults/responses";
export { NO_CACHED_RESULT_MESSAGE } from "./queryResults/resultAccess";

export async function queryResultRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  adHocExecutionRoute(app, ctx);
  resultPreflightRoutes(app, ctx);
  resultReadRoutes(app, ctx);
}
