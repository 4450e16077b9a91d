// Reading results (api-queries §4.3, §4.4): one by id, a query's latest, or one of a query's, as
// JSON or by extension as a file.
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { AppContext } from "../../context";
import { findQuery } from "../../store/queries";
import { notFound } from "../errors";
import { parseId } from "../input";
import { allowCors } from "./cors";
import { docs } from "./docs";
import { sendDownload } from "./download";
import { fileType, idWithType, type FileType } from "./fileTypes";
import {
  NO_CACHED_RESULT_MESSAGE,
  readableResult,
  requireResultViewer,
  type ResultRequest,
} from "./resultAccess";

export function resultReadRoutes(app: FastifyInstance, ctx: AppContext): void {
  const db = ctx.database.db;

  /** The result, checked for the caller, in the asked format. */
  async function sendResult(
    request: FastifyRequest,
    reply: FastifyReply,
    input: ResultRequest & { type: FileType | null },
  ) {
    const { meta, query, reduced } = await readableResult(ctx, request, input);
    return sendDownload(ctx, request, reply, { ...input, query, meta, reduced });
  }

  app.get("/api/query_results/:id", { schema: docs.result }, async (request, reply) => {
    allowCors(ctx, request, reply);
    const { identity, org } = requireResultViewer(request);
    const [resultId, type] = idWithType((request.params as { id: string }).id, false);
    return sendResult(request, reply, {
      identity,
      org,
      query: null,
      resultId,
      type,
      explicitResult: true,
    });
  });

  const latest = async (request: FastifyRequest, reply: FastifyReply, type: FileType | null) => {
    allowCors(ctx, request, reply);
    const { identity, org } = requireResultViewer(request);
    const query = await findQuery(db, org.id, parseId((request.params as { id: string }).id));
    if (!query) throw notFound();
    if (query.latest_query_data_id === null) throw notFound(NO_CACHED_RESULT_MESSAGE);
    return sendResult(request, reply, {
      identity,
      org,
      query,
      resultId: query.latest_query_data_id,
      type,
      explicitResult: false,
    });
  };
  app.get("/api/queries/:id/results", { schema: docs.latest }, (request, reply) =>
    latest(request, reply, null),
  );
  app.get("/api/queries/:id/results.:filetype", { schema: docs.latestFile }, (request, reply) =>
    latest(
      request,
      reply,
      fileType((request.params as { filetype: string }).filetype.toLowerCase()),
    ),
  );

  app.get("/api/queries/:id/results/:rid", { schema: docs.queryResult }, async (request, reply) => {
    allowCors(ctx, request, reply);
    const { identity, org } = requireResultViewer(request);
    const params = request.params as { id: string; rid: string };
    const query = await findQuery(db, org.id, parseId(params.id));
    const [resultId, type] = idWithType(params.rid, true);
    if (!query) throw notFound();
    return sendResult(request, reply, {
      identity,
      org,
      query,
      resultId,
      type,
      explicitResult: true,
    });
  });
}
