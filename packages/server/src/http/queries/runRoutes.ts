// A query's run history: every finished execution, newest first (store/queryRuns.ts).
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { requirePermission } from "../../policies";
import { listQueryRuns } from "../../store/queryRuns";
import * as S from "../schemas";
import { versionPage } from "../versions";
import type { Params, QuerySupport } from "./support";

const runEntry = S.complete(
  {
    id: S.int,
    query_id: S.orNull(S.int),
    data_source_id: S.orNull(S.int),
    user_id: { ...S.orNull(S.int), description: "null for the scheduler" },
    user: S.orNull(S.complete({ id: S.int, name: S.str })),
    scheduled: { ...S.bool, description: "true when the scheduler ran it" },
    status: { type: "string", enum: ["success", "failed", "cancelled", "timeout"] },
    error: { ...S.orNull(S.str), description: "The message users saw; null on success" },
    rows: { ...S.orNull(S.int), description: "Rows returned; null when it did not succeed" },
    query_result_id: S.orNull(S.int),
    started_at: S.timestamp,
    runtime: { ...S.num, description: "Seconds" },
  },
  "A finished run",
);

const docs = {
  tags: ["queries"],
  summary: "The query's runs, newest first (the last 200 are kept)",
  params: S.idParams,
  querystring: S.object({
    page: { ...S.int, minimum: 1, default: 1 },
    page_size: { ...S.int, minimum: 1, maximum: 250, default: 25 },
  }),
  response: {
    200: S.paginated(runEntry, "A page of runs"),
    ...S.errors(400, 403, 404),
  },
};

export function queryRunRoutes(app: FastifyInstance, ctx: AppContext, q: QuerySupport): void {
  const { db } = ctx.database;
  app.get<{ Params: Params }>("/api/queries/:id/runs", { schema: docs }, async (request) => {
    const { identity, org } = requirePermission(request, "view_query");
    const { page, pageSize } = versionPage(request);
    const query = await q.loadQuery(request, org.id);
    await q.requireQueryAccess(identity, query, "view");
    const { count, results } = await listQueryRuns(db, org.id, query.id, page, pageSize);
    return { count, page, page_size: pageSize, results };
  });
}
