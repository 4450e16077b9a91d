import crypto from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { Registry } from "prom-client";
import { GENERIC_MESSAGES } from "../http/errors";
import { processRegistry } from "./registry";

export const METRICS_TOKEN_MESSAGE =
  "Metrics need the token set in SIGHTLINE_METRICS_TOKEN, sent as Authorization: Bearer <token>.";

/** Compared as digests: equal lengths, and the time taken tells nothing about the token. */
function sameToken(given: string, expected: string): boolean {
  const digest = (text: string) => crypto.createHash("sha256").update(text, "utf8").digest();
  return crypto.timingSafeEqual(digest(given), digest(expected));
}

function bearerToken(request: FastifyRequest): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? "");
  return match ? match[1]! : null;
}

/**
 * GET /metrics in Prometheus' text format: off (404) unless SIGHTLINE_METRICS_TOKEN is set, then
 * only for requests bearing that token. No session or store access: scrapes stay cheap.
 */
export function metricsRoute(
  scope: FastifyInstance,
  token: string | null,
  appRegistry: Registry,
): void {
  const options = { schema: { hide: true }, config: { withoutSession: true } };
  scope.get("/metrics", options, async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header("Cache-Control", "no-store");
    if (token === null) return reply.code(404).send({ message: GENERIC_MESSAGES[404] });
    const given = bearerToken(request);
    if (given === null || !sameToken(given, token)) {
      return reply
        .code(401)
        .header("WWW-Authenticate", 'Bearer realm="metrics"')
        .send({ message: METRICS_TOKEN_MESSAGE });
    }
    const merged = Registry.merge([processRegistry, appRegistry]);
    return reply.type(merged.contentType).send(await merged.metrics());
  });
}
