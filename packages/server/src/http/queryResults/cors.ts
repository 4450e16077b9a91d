// CORS on the result routes (§4.5), and their preflights.
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { AppContext } from "../../context";
import { docs } from "./docs";

/**
 * CORS on the result routes (§4.5): an allowed Origin (or `*` in the list) is echoed with the
 * credentials setting; other origins get no CORS headers.
 */
export function allowCors(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): void {
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

/** The preflights of the result routes; they carry no credentials, so no authentication. */
export function resultPreflightRoutes(app: FastifyInstance, ctx: AppContext): void {
  for (const path of RESULT_PATHS) {
    app.options(path, { schema: docs.preflight }, async (request, reply) => {
      allowCors(ctx, request, reply);
      reply.header("Access-Control-Request-Method", "GET, POST, PUT");
      reply.header("Access-Control-Allow-Methods", "GET, POST, PUT");
      reply.header("Access-Control-Allow-Headers", "Content-Type");
      return reply.code(200).send();
    });
  }
}
