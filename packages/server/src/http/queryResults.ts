import { Readable } from "node:stream";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { collectParametersFromQueryString, type UrlQuery } from "@sightline/core";
import type { AppContext } from "../context";
import type { Identity } from "../auth/identity";
import {
  assertNotPaused,
  finalQueryText,
  JobRefusalError,
  NO_PERMISSION_MESSAGE,
  parseMaxAge,
  QueueUnavailableError,
  renderWithValues,
  SELECT_DATA_SOURCE_MESSAGE,
  type JobJson,
} from "../execution";
import {
  accessAllows,
  dataSourceAccess,
  hasPermission,
  queryAccess,
  requireLogin,
  requirePermission,
} from "../policies";
import {
  contentDisposition,
  delimitedStream,
  downloadFilename,
  loadResultMeta,
  queryResultJsonStream,
  xlsxStream,
  type ResultMeta,
} from "../results";
import { principalOf } from "../execution/principal";
import {
  dashboardQueryOfResult,
  isOwnResult,
  requireStoredResultAccess,
} from "../policies/results";
import { isViewerRunOf } from "../policies/viewerRuns";
import { groupIdsOfDataSource } from "../store/groups";
import { orgSetting } from "../services/orgSettings";
import { recordEventSoon } from "../services/events";
import { findDataSource, groupLinksOf } from "../store/dataSources";
import { findQuery, type Query } from "../store/queries";
import type { Organization } from "../store/organizations";
import { badRequest, forbidden, HttpError, notFound } from "./errors";
import { bodyObject, parseId, queryArgs } from "./input";
import * as S from "./schemas";

export const NO_CACHED_RESULT_MESSAGE = "No cached result found for this query.";
const FILE_TYPES = ["json", "csv", "tsv", "xlsx"] as const;
type FileType = (typeof FILE_TYPES)[number];

// ---- Route documentation (the shapes are in ./schemas) ----

const tags = ["query results"];

const refusal = (description: string) => ({
  anyOf: [S.errorMessage, S.jobRefusal],
  description,
});

const docs = {
  execute: {
    tags,
    summary: "Run query text on a data source, or get a cached result",
    description:
      "Without `parameters` in the body, values come from `p_<name>` query-string arguments.",
    body: S.object(
      {
        query: S.str,
        data_source_id: { anyOf: [S.int, S.str] },
        parameters: S.anyObject,
        max_age: {
          anyOf: [S.int, S.str, { type: "null" }],
          description: "Seconds: 0 = always run, -1 (default) = a cached result of any age",
        },
        apply_auto_limit: S.bool,
        query_id: { anyOf: [S.int, S.str, { type: "null" }], description: 'A query id or "adhoc"' },
      },
      ["query", "data_source_id"],
    ),
    response: {
      200: S.resultOrJob,
      400: refusal("Invalid input, a paused data source or missing parameter values"),
      401: { ...S.jobRefusal, description: "No data source given" },
      403: refusal("Not permitted to run queries on this data source"),
      ...S.errors(404, 503),
    },
  },
  preflight: {
    tags,
    summary: "CORS preflight of a result route (no authentication)",
    response: { 200: { ...S.noContent, description: "No body; CORS headers when allowed" } },
  },
  result: {
    tags,
    summary: "Get a result, as JSON or (by extension) CSV, TSV or XLSX",
    params: S.params({
      id: { ...S.str, description: "Result id, optionally with .json, .csv, .tsv or .xlsx" },
    }),
    response: { 200: S.resultDownload, ...S.errors(400, 403, 404) },
  },
  latest: {
    tags,
    summary: "Get a query's latest result",
    params: S.idParams,
    response: {
      200: { ...S.queryResultResponse, description: "The result, up to the display cap" },
      ...S.errors(403, 404),
    },
  },
  latestFile: {
    tags,
    summary: "Download a query's latest result",
    params: S.params({ id: S.int, filetype: { type: "string", enum: FILE_TYPES } }),
    response: { 200: S.resultDownload, ...S.errors(400, 403, 404) },
  },
  queryResult: {
    tags,
    summary: "Download one of a query's results",
    params: S.params({
      id: S.int,
      rid: { ...S.str, description: "Result id with .json, .csv, .tsv or .xlsx" },
    }),
    response: { 200: S.resultDownload, ...S.errors(400, 403, 404) },
  },
};

/** Answers a pipeline refusal as exactly `{"job": {"status": 4, "error"}}` and a queue outage as 503. */
export async function withExecutionErrors<T>(reply: FastifyReply, work: () => Promise<T>) {
  try {
    return await work();
  } catch (error) {
    if (error instanceof JobRefusalError) {
      return reply.code(error.statusCode).send({ job: { status: 4, error: error.error } });
    }
    if (error instanceof QueueUnavailableError) throw new HttpError(503, error.message);
    throw error;
  }
}

/** Job JSON as the API sends it: `result` mirrors `query_result_id` (§5.1). */
export function presentJob(job: JobJson) {
  return {
    id: job.id,
    updated_at: job.updated_at,
    status: job.status,
    error: job.error,
    result: job.query_result_id,
    query_result_id: job.query_result_id,
  };
}

/** `{"query_result": …}` streamed from the stored chunks, up to the display cap. */
export function sendQueryResult(
  ctx: AppContext,
  reply: FastifyReply,
  meta: ResultMeta,
  options: { reduced?: boolean; maxRows?: number; job?: JobJson } = {},
) {
  const body = queryResultJsonStream(ctx.database.db, meta, {
    maxRows: options.maxRows ?? ctx.resultLimits.displayRows,
    reduced: options.reduced,
    job: options.job && presentJob(options.job),
  });
  reply.type("application/json");
  // Small results (the common case) go out in one write: streaming them costs more than it saves.
  if (meta.byteSize <= SMALL_RESULT_BYTES) return collect(body).then((text) => reply.send(text));
  return reply.send(Readable.from(body));
}

const SMALL_RESULT_BYTES = 256 * 1024;

async function collect(pieces: AsyncIterable<string | Buffer>): Promise<string> {
  let text = "";
  for await (const piece of pieces) text += piece.toString();
  return text;
}

/** "12" → [12, null]; "12.csv" → [12, "csv"]; anything else → 404 / 400. */
function idWithType(raw: unknown, requireType: boolean): [number, FileType | null] {
  const match = typeof raw === "string" ? /^(\d{1,15})(?:\.([A-Za-z0-9]+))?$/.exec(raw) : null;
  if (!match) throw notFound();
  const type = match[2]?.toLowerCase() ?? null;
  if (requireType && type === null) throw notFound();
  return [Number(match[1]), fileType(type)];
}

function fileType(raw: string | null): FileType | null {
  if (raw === null) return null;
  if (!(FILE_TYPES as readonly string[]).includes(raw)) {
    throw badRequest(`Unsupported file type ".${raw}": use json, csv, tsv or xlsx.`);
  }
  return raw as FileType;
}

/**
 * CORS on the result routes (§4.5): an allowed Origin (or `*` in the list) is echoed with the
 * credentials setting; other origins get no CORS headers.
 */
function allowCors(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): void {
  const origin = request.headers.origin;
  reply.header("Vary", "Origin");
  if (typeof origin !== "string" || origin === "") return;
  const allowed = ctx.config.corsOrigins;
  if (!allowed.includes("*") && !allowed.includes(origin)) return;
  reply.header("Access-Control-Allow-Origin", origin);
  reply.header("Access-Control-Allow-Credentials", String(ctx.config.corsAllowCredentials));
}

/** Paths of the result routes (rows 21–23), which answer CORS preflights. */
const RESULT_PATHS = [
  "/api/query_results/:id",
  "/api/queries/:id/results",
  "/api/queries/:id/results.:filetype",
  "/api/queries/:id/results/:rid",
];

function requireResultViewer(request: FastifyRequest) {
  const result = requireLogin(request);
  if (
    !hasPermission(result.identity, "view_query") &&
    !hasPermission(result.identity, "execute_query")
  ) {
    throw forbidden();
  }
  return result;
}

async function sendResult(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  input: {
    identity: Identity;
    org: Organization;
    query: Query | null;
    resultId: number;
    type: FileType | null;
    explicitResult: boolean;
  },
) {
  const { identity, org } = input;
  const db = ctx.database.db;
  const meta = await loadResultMeta(db, org.id, input.resultId);
  if (!meta) throw input.explicitResult ? notFound() : notFound(NO_CACHED_RESULT_MESSAGE);
  let query = input.query;
  let reader = identity;
  if (identity.kind === "api_key" && identity.object.type === "dashboards") {
    // One of the dashboard's widget queries made it: its saved text, or the text rendered with
    // the values the viewer ran it with (p_<name> arguments); then read as that query's key would.
    const args = queryArgs(request) as UrlQuery;
    const principal = principalOf(identity);
    if (query) {
      if ((await queryAccess(db, identity, query, [])) === "none") throw forbidden();
      if (!(await isViewerRunOf(db, query, meta, args, principal))) query = null;
    } else {
      query = await dashboardQueryOfResult(db, org.id, identity.object.id, meta, args, principal);
    }
    if (!query) throw notFound(NO_CACHED_RESULT_MESSAGE);
    reader = { ...identity, groupIds: await groupIdsOfDataSource(db, query.data_source_id) };
  } else if (identity.kind === "api_key") {
    // A query's key opens only its query's results: its current text on its data source.
    if (!query || !isOwnResult(query, meta, true)) throw notFound(NO_CACHED_RESULT_MESSAGE);
    if (identity.object.id !== query.id) throw forbidden();
  }
  // The data source's groups, and for Query Results the queries its text read (SECURITY.md rule 5).
  await requireStoredResultAccess(db, reader, meta);

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
      });
    case "csv":
    case "tsv": {
      const stream = delimitedStream(db, meta, {
        delimiter: type === "csv" ? "," : "\t",
        dateFormat: orgSetting(org, "date_format"),
        timeFormat: orgSetting(org, "time_format"),
      });
      return reply
        .type(
          type === "csv" ? "text/csv; charset=UTF-8" : "text/tab-separated-values; charset=UTF-8",
        )
        .send(Readable.from(stream));
    }
    case "xlsx":
      return reply
        .type("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
        .send(xlsxStream(db, meta));
  }
}

/** Ad-hoc execution and the result routes (api-queries §4.1, §4.3, §4.4). */
export async function queryResultRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
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

  // Preflights carry no credentials, so they are answered without authentication.
  for (const path of RESULT_PATHS) {
    app.options(path, { schema: docs.preflight }, async (request, reply) => {
      allowCors(ctx, request, reply);
      reply.header("Access-Control-Request-Method", "GET, POST, PUT");
      reply.header("Access-Control-Allow-Methods", "GET, POST, PUT");
      reply.header("Access-Control-Allow-Headers", "Content-Type");
      return reply.code(200).send();
    });
  }

  app.get("/api/query_results/:id", { schema: docs.result }, async (request, reply) => {
    allowCors(ctx, request, reply);
    const { identity, org } = requireResultViewer(request);
    const [resultId, type] = idWithType((request.params as { id: string }).id, false);
    return sendResult(ctx, request, reply, {
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
    return sendResult(ctx, request, reply, {
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
    return sendResult(ctx, request, reply, {
      identity,
      org,
      query,
      resultId,
      type,
      explicitResult: true,
    });
  });
}
