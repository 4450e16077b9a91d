import { principalOf } from "../execution/principal";
import type { RunPrincipal } from "../runners/types";
import type { FastifyReply, FastifyRequest } from "fastify";
import {
  applyAutoLimit,
  collectParametersFromQueryString,
  DetachedDropdownQueryError,
  findMissingParameters,
  invalidParametersMessage,
  isSavedQuerySafe,
  missingParametersError,
  QueryTemplateError,
  renderQueryText,
  validateParameters,
  type ParameterDefinition,
} from "@sightline/core";
import type { AppContext } from "../context";
import type { Identity } from "../auth/identity";
import { isShareKey } from "../auth/shareKeyRoutes";
import type { Organization } from "../store/organizations";
import { parameterSchema, type Query } from "../store/queries";
import { findDataSource } from "../store/dataSources";
import { accessAllows, type DataSourceAccess } from "../policies";
import { findRunner } from "../services/dataSourceTypes";
import { validationContext } from "../services/queryDropdowns";
import { viewerAutoLimit } from "../services/viewerRuns";
import { loadResultMeta } from "../results";
import { QueueUnavailableError } from "../execution";
import { presentJob, sendQueryResult } from "./queryResults";
import { HttpError } from "./errors";
import { lenientBody, queryArgs } from "./input";

/** Execution of saved queries: POST /api/queries/<id>/results (§4.2) and /refresh (§3.14). */

const DETACHED = "This query is detached from any data source. Please select a different query.";

/** A refusal in Redash's job shape: `{"job": {"status": 4, "error": ...}}`. */
function jobError(status: number, error: string): HttpError {
  const err = new HttpError(status, error);
  return Object.assign(err, { jobBody: { job: { status: 4, error } } });
}

function sendJobError(reply: FastifyReply, err: HttpError & { jobBody?: unknown }) {
  return reply.code(err.statusCode).send(err.jobBody ?? { message: err.message });
}

function readMaxAge(value: unknown): number {
  if (value === undefined || value === null || value === "") return -1;
  const n = typeof value === "number" ? value : Number(value);
  if (!Number.isFinite(n)) throw new HttpError(400, "max_age must be a number.");
  return Math.trunc(n);
}

/**
 * Anonymous viewers of a public dashboard do not decide how fresh a result must be: a stored
 * result within the query's refresh interval, or at least the configured minimum age, is theirs,
 * so a crowd of viewers runs each query once per period, not once per viewer.
 */
function viewerMaxAge(ctx: AppContext, identity: Identity, query: Query, requested: number) {
  if (!isShareKey(identity) || requested === -1) return requested;
  const interval = Number(query.schedule?.interval);
  const period = Number.isFinite(interval) && interval > 0 ? interval : 0;
  return Math.max(requested, ctx.config.publicMinResultAge, period);
}

interface RunInput {
  orgId: number;
  query: Query;
  schema: ParameterDefinition[];
  values: Record<string, unknown>;
  applyAutoLimit: boolean;
  maxAge: number;
  userId: number | null;
  userEmail?: string;
  /** Who runs it: checked again by the engine (cached results, the Query Results runner). */
  principal: RunPrincipal | null;
  reduced: boolean;
  /** Answer with the job even when it finishes at once (the legacy refresh route, §3.14). */
  alwaysJob?: boolean;
}

/** The common pipeline (api-queries.md §4.6) from the data source checks to the engine. */
async function run(ctx: AppContext, reply: FastifyReply, input: RunInput) {
  const { db } = ctx.database;
  const ds =
    input.query.data_source_id === null
      ? null
      : await findDataSource(db, input.orgId, input.query.data_source_id);
  if (!ds) throw jobError(401, "Target data source not available.");
  if (ds.paused) {
    const reason = ds.pause_reason ? ` (${ds.pause_reason})` : "";
    throw jobError(400, `${ds.name} is paused${reason}. Please try later.`);
  }
  try {
    if (input.schema.length > 0) {
      const validation = validateParameters(
        input.schema,
        input.values,
        await validationContext(db, input.orgId, input.schema, input.principal),
      );
      if (!validation.ok) throw new HttpError(400, invalidParametersMessage(validation.invalid));
    }
  } catch (error) {
    if (error instanceof DetachedDropdownQueryError) throw new HttpError(400, DETACHED);
    throw error;
  }
  let text: string;
  let missing: string[];
  try {
    text = renderQueryText(input.query.query, input.values, input.schema);
    missing = findMissingParameters(input.query.query, input.values);
  } catch (error) {
    if (error instanceof QueryTemplateError) throw jobError(400, error.message);
    throw error;
  }
  if (missing.length > 0) throw jobError(400, missingParametersError(missing));
  const runner = findRunner(ds.type);
  if (runner?.supportsAutoLimit) text = applyAutoLimit(text, input.applyAutoLimit);

  const outcome = await ctx.execution.execute({
    orgId: input.orgId,
    dataSourceId: ds.id,
    queryText: text,
    queryId: input.query.id,
    userId: input.userId,
    principal: input.principal,
    scheduled: false,
    maxAge: input.maxAge,
    userEmail: input.userEmail,
    dataSource: ds,
    noWait: input.alwaysJob,
  });
  if (outcome.kind === "job") return reply.send({ job: presentJob(outcome.job) });
  const meta = await loadResultMeta(db, input.orgId, outcome.resultId);
  if (!meta) throw new HttpError(404, "No cached result found for this query.");
  return sendQueryResult(ctx, reply, meta, { reduced: input.reduced, job: outcome.job });
}

async function guarded(reply: FastifyReply, work: () => Promise<unknown>) {
  try {
    return await work();
  } catch (error) {
    if (error instanceof HttpError && "jobBody" in error) return sendJobError(reply, error);
    if (error instanceof QueueUnavailableError) throw new HttpError(503, error.message);
    throw error;
  }
}

export function executeSavedQuery(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  c: { identity: Identity; org: Organization; query: Query; access: DataSourceAccess },
) {
  return guarded(reply, async () => {
    const safe = isSavedQuerySafe(c.query.query, c.query.options);
    if (!accessAllows(c.access, safe ? "view" : "full")) {
      if (safe)
        throw jobError(403, "You do not have permission to run queries with this data source.");
      throw jobError(
        403,
        c.identity.kind === "api_key"
          ? "This query contains potentially unsafe parameters and cannot be executed on a shared dashboard or an embedded visualization."
          : "This query contains potentially unsafe parameters and cannot be executed with read-only access to this data source.",
      );
    }
    const body = lenientBody(request);
    const parameters =
      body.parameters && typeof body.parameters === "object" && !Array.isArray(body.parameters)
        ? (body.parameters as Record<string, unknown>)
        : {};
    // Public viewers run the query as saved, so their results can be matched to it again.
    const autoLimit =
      "apply_auto_limit" in body && !isShareKey(c.identity)
        ? body.apply_auto_limit === true
        : viewerAutoLimit(c.query);
    return run(ctx, reply, {
      orgId: c.org.id,
      query: c.query,
      schema: parameterSchema(c.query.options),
      values: parameters,
      applyAutoLimit: autoLimit,
      maxAge: viewerMaxAge(ctx, c.identity, c.query, readMaxAge(body.max_age)),
      userId: c.identity.kind === "user" ? c.identity.user.id : null,
      userEmail: c.identity.kind === "user" ? c.identity.user.email : undefined,
      principal: principalOf(c.identity),
      reduced: c.identity.kind === "api_key",
    });
  });
}

export function refreshSavedQuery(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  c: { identity: Identity; org: Organization; query: Query },
) {
  return guarded(reply, () =>
    run(ctx, reply, {
      orgId: c.org.id,
      query: c.query,
      // Values from p_<name> arguments are not checked against the definitions (§3.14).
      schema: [],
      values: collectParametersFromQueryString(
        queryArgs(request) as Record<string, string | string[] | undefined>,
      ),
      applyAutoLimit: c.query.options.apply_auto_limit === true,
      maxAge: 0,
      userId: c.identity.kind === "user" ? c.identity.user.id : null,
      userEmail: c.identity.kind === "user" ? c.identity.user.email : undefined,
      principal: principalOf(c.identity),
      reduced: false,
      // Scripts written for Redash read `job` from this route's answer.
      alwaysJob: true,
    }),
  );
}
