// How a run's outcome is answered: a pipeline refusal or queue outage, a job, or a stored
// result as `{"query_result": …}` (the query and job routes answer the same way).
import type { FastifyReply } from "fastify";
import type { AppContext } from "../../context";
import { JobRefusalError, QueueUnavailableError, type JobJson } from "../../execution";
import {
  acceptsGzip,
  primedStream,
  queryResultGzipStream,
  queryResultJsonStream,
  type ResultMeta,
} from "../../results";
import { HttpError } from "../errors";

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
  const jsonOptions = {
    maxRows: options.maxRows ?? ctx.resultLimits.displayRows,
    reduced: options.reduced,
    job: options.job && presentJob(options.job),
  };
  reply.type("application/json");
  // Small results (the common case) go out in one write: streaming them costs more than it saves.
  if (meta.byteSize <= SMALL_RESULT_BYTES) {
    const body = queryResultJsonStream(ctx.database.db, meta, jsonOptions);
    return collect(body).then((text) => reply.send(text));
  }
  // A big result to a client taking gzip: its stored chunks are sent as they are compressed.
  const { headers } = reply.request;
  if (headers["x-no-compression"] === undefined && acceptsGzip(headers["accept-encoding"])) {
    return primedStream(queryResultGzipStream(ctx.database.db, meta, jsonOptions)).then((stream) =>
      reply.header("Content-Encoding", "gzip").header("Vary", "Accept-Encoding").send(stream),
    );
  }
  return primedStream(queryResultJsonStream(ctx.database.db, meta, jsonOptions)).then((stream) =>
    reply.send(stream),
  );
}

const SMALL_RESULT_BYTES = 256 * 1024;

async function collect(pieces: AsyncIterable<string | Buffer>): Promise<string> {
  let text = "";
  for await (const piece of pieces) text += piece.toString();
  return text;
}
