// A readable result sent in its format: JSON (up to the display cap without an extension; reduced
// to data and retrieved_at for API keys), CSV, TSV or XLSX, with its download name, and the view
// recorded.
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Identity } from "../../auth/identity";
import type { AppContext } from "../../context";
import {
  contentDisposition,
  delimitedStream,
  downloadFilename,
  primedStream,
  xlsxStream,
  type ResultMeta,
} from "../../results";
import { recordEventSoon } from "../../services/events";
import type { Organization } from "../../store/organizations";
import type { Query } from "../../store/queries";
import type { FileType } from "./fileTypes";
import { sendQueryResult } from "./responses";

export async function sendDownload(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  input: {
    identity: Identity;
    org: Organization;
    query: Query | null;
    meta: ResultMeta;
    type: FileType | null;
    explicitResult: boolean;
    /** Redash's reduced JSON, `{data, retrieved_at}` (results read with an API key). */
    reduced: boolean;
  },
) {
  const { identity, org, query, meta } = input;
  const db = ctx.database.db;
  const type = input.type ?? "json";
  const filename = downloadFilename({
    query: query ? { id: query.id, name: query.name } : undefined,
    resultId: meta.id,
    retrievedAt: meta.retrievedAt,
    extension: type,
  });
  reply.header("Content-Disposition", contentDisposition(filename));
  if (input.explicitResult) reply.header("Cache-Control", "private,max-age=31557600");
  if (identity.kind === "user") {
    recordEventSoon(ctx.database.db, {
      orgId: org.id,
      userId: identity.user.id,
      action: "view",
      objectType: "query_result",
      objectId: meta.id,
      details: { file_type: type },
      request,
    });
  }
  switch (type) {
    case "json":
      // No extension: the web app's view, up to the display cap; ".json": the whole stored result.
      return sendQueryResult(ctx, reply, meta, {
        maxRows: input.type === null ? ctx.resultLimits.displayRows : Number.POSITIVE_INFINITY,
        reduced: input.reduced,
      });
    case "csv":
    case "tsv": {
      // Started before the headers: a store out of reach is a 503 with its message.
      const stream = await primedStream(
        delimitedStream(db, meta, { delimiter: type === "csv" ? "," : "\t" }),
      );
      return reply
        .type(
          type === "csv" ? "text/csv; charset=UTF-8" : "text/tab-separated-values; charset=UTF-8",
        )
        .send(stream);
    }
    case "xlsx":
      return reply
        .type("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
        .send(xlsxStream(db, meta));
  }
}
