// Running query text on a data source, or getting a cached result of it (api-queries §4.1).
import type { FastifyInstance } from "fastify";
import { collectParametersFromQueryString } from "@sightline/core";
import type { AppContext } from "../../context";
import {
  assertNotPaused,
  finalQueryText,
  JobRefusalError,
  NO_PERMISSION_MESSAGE,
  parseMaxAge,
  renderWithValues,
  SELECT_DATA_SOURCE_MESSAGE,
} from "../../execution";
import { principalOf } from "../../execution/principal";
import { accessAllows, dataSourceAccess, requirePermission } from "../../policies";
import { loadResultMeta } from "../../results";
import { recordEventSoon } from "../../services/events";
import { findDataSource, groupLinksOf } from "../../store/dataSources";
import { findQuery } from "../../store/queries";
import { badRequest, notFound } from "../errors";
import { bodyObject, queryArgs } from "../input";
import { docs } from "./docs";
import { presentJob, sendQueryResult, withExecutionErrors } from "./responses";
import { NO_CACHED_RESULT_MESSAGE } from "./resultAccess";

export function adHocExecutionRoute(app: FastifyInstance, ctx: AppContext): void {
  const db = ctx.database.db;

  app.post("/api/query_results", { schema: docs.execute }, async (request, reply) => {
    const { identity, org } = requirePermission(request, "execute_query");
    const body = bodyObject(request);
    return withExecutionErrors(reply, async () => {
      const rawSource = body.data_source_id;
      if (rawSource === undefined || rawSource === null || rawSource === 0 || rawSource === "") {
        throw new JobRefusalError(401, SELECT_DATA_SOURCE_MESSAGE);
      }
      const dataSourceId = Number(rawSource);
      if (!Number.isSafeInteger(dataSourceId) || dataSourceId < 1) {
        throw badRequest("data_source_id must be a data source id.");
      }
      if (typeof body.query !== "string")
        throw badRequest("query is required and must be a string.");
      const source = await findDataSource(db, org.id, dataSourceId);
      if (!source) throw notFound("Data source not found.");
      const links = await groupLinksOf(db, source.id);
      if (!accessAllows(dataSourceAccess(identity, links), "full")) {
        throw new JobRefusalError(403, NO_PERMISSION_MESSAGE);
      }
      assertNotPaused(source);

      let values: Record<string, unknown>;
      if (body.parameters === undefined || body.parameters === null) {
        values = collectParametersFromQueryString(
          queryArgs(request) as Record<string, string | string[] | undefined>,
        );
      } else if (typeof body.parameters === "object" && !Array.isArray(body.parameters)) {
        values = body.parameters as Record<string, unknown>;
      } else {
        throw badRequest("parameters must be an object.");
      }
      if (body.apply_auto_limit !== undefined && typeof body.apply_auto_limit !== "boolean") {
        throw badRequest("apply_auto_limit must be true or false.");
      }
      const maxAge = parseMaxAge(body.max_age);
      let queryId: number | null = null;
      if (body.query_id !== undefined && body.query_id !== null && body.query_id !== "adhoc") {
        queryId = Number(body.query_id);
        if (!Number.isSafeInteger(queryId) || queryId < 1) {
          throw badRequest("query_id must be a query id.");
        }
        if (!(await findQuery(db, org.id, queryId))) queryId = null;
      }
      const text = finalQueryText(
        source.type,
        renderWithValues(body.query, values),
        body.apply_auto_limit === true,
      );
      const outcome = await ctx.execution.execute({
        orgId: org.id,
        dataSourceId: source.id,
        queryText: text,
        queryId,
        userId: identity.kind === "user" ? identity.user.id : null,
        userEmail: identity.kind === "user" ? identity.user.email : undefined,
        scheduled: false,
        maxAge,
        principal: principalOf(identity),
        dataSource: source,
      });
      recordEventSoon(db, {
        orgId: org.id,
        userId: identity.kind === "user" ? identity.user.id : null,
        action: "execute_query",
        objectType: "data_source",
        objectId: source.id,
        request,
      });
      if (outcome.kind === "job") return { job: presentJob(outcome.job) };
      const meta = await loadResultMeta(db, org.id, outcome.resultId);
      if (!meta) throw notFound(NO_CACHED_RESULT_MESSAGE);
      return sendQueryResult(ctx, reply, meta, { job: outcome.job });
    });
  });
}
