import type { FastifyInstance, FastifyRequest } from "fastify";
import type { UrlQuery } from "@sightline/core";
import type { AppContext } from "../context";
import { queryArgs } from "./input";
import { QueueUnavailableError } from "../execution";
import { requireLogin } from "../policies";
import { canAccessJob } from "../services/jobAccess";
import { HttpError, notFound } from "./errors";
import { presentJob } from "./queryResults";
import { polledSchemaFailure } from "./schemaFailures";
import * as S from "./schemas";

export const JOB_NOT_FOUND_MESSAGE = "Job not found. It may have expired.";

// ---- Route documentation (the shapes are in ./schemas) ----

const tags = ["jobs"];
const jobParams = S.params({ jobId: S.str });
// The query-scoped paths let a query's API key poll (api-queries.md §5.2).
const queryJobParams = S.params({ id: S.int, jobId: S.str });

const docs = {
  get: (params: object, summary: string) => ({
    tags,
    summary,
    params,
    response: { 200: S.jobResponse, ...S.errors(404, 503) },
  }),
  cancel: (params: object, summary: string) => ({
    tags,
    summary,
    params,
    response: { 200: S.nullBody, ...S.errors(400, 404, 503) },
  }),
};

/** Polling and cancelling jobs (api-queries §5.2, §5.3). */
export async function jobRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const findJob = async (request: FastifyRequest) => {
    const { identity, org } = requireLogin(request);
    const { jobId } = request.params as { jobId: string };
    if (!/^[A-Za-z0-9_-]{1,200}$/.test(jobId)) throw notFound(JOB_NOT_FOUND_MESSAGE);
    try {
      const job = await ctx.execution.getJob(jobId);
      // Another organisation's or another user's job is as unknown as a missing one.
      if (
        !job ||
        !(await canAccessJob(
          ctx.database.db,
          identity,
          org.id,
          job,
          queryArgs(request) as UrlQuery,
        ))
      ) {
        throw notFound(JOB_NOT_FOUND_MESSAGE);
      }
      return job;
    } catch (error) {
      if (error instanceof QueueUnavailableError) throw new HttpError(503, error.message);
      throw error;
    }
  };

  const get = async (request: FastifyRequest) => {
    requireLogin(request);
    const schemaFailure = polledSchemaFailure((request.params as { jobId: string }).jobId);
    if (schemaFailure) return schemaFailure;
    return { job: presentJob(await findJob(request)) };
  };
  const cancel = async (request: FastifyRequest) => {
    const job = await findJob(request);
    try {
      await ctx.execution.cancel(job.id);
    } catch (error) {
      if (error instanceof QueueUnavailableError) throw new HttpError(503, error.message);
      throw error;
    }
    return null;
  };
  app.get("/api/jobs/:jobId", { schema: docs.get(jobParams, "Poll a job") }, get);
  app.get(
    "/api/queries/:id/jobs/:jobId",
    { schema: docs.get(queryJobParams, "Poll a job of a query") },
    get,
  );
  app.delete("/api/jobs/:jobId", { schema: docs.cancel(jobParams, "Cancel a job") }, cancel);
  app.delete(
    "/api/queries/:id/jobs/:jobId",
    { schema: docs.cancel(queryJobParams, "Cancel a job of a query") },
    cancel,
  );
}
