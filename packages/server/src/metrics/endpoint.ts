import crypto from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { Registry } from "prom-client";
import { proxyMatcher } from "../auth/providers/trustedHeader";
import type { Config } from "../config";
import { GENERIC_MESSAGES } from "../http/errors";
import { processRegistry } from "./registry";

export const METRICS_TOKEN_MESSAGE =
  "Metrics need the token set in SIGHTLINE_METRICS_TOKEN, sent as Authorization: Bearer <token>.";
export const METRICS_PROXY_MESSAGE =
  "Metrics are served only to the addresses in SIGHTLINE_TRUSTED_PROXIES, asking directly.";

/** Who may scrape: the bearer token, the trusted-proxy rule, or both; neither: /metrics is off. */
export type MetricsGuard = Pick<
  Config,
  "metricsToken" | "metricsFromTrustedProxies" | "trustedProxies"
>;

/** Whether /metrics is served at all. */
export function metricsEnabled(guard: MetricsGuard): boolean {
  return guard.metricsToken !== null || guard.metricsFromTrustedProxies;
}

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
 * GET /metrics in Prometheus' text format: off (404) unless SIGHTLINE_METRICS_TOKEN is set or
 * SIGHTLINE_METRICS_FROM_TRUSTED_PROXIES is on. Then only for requests bearing the token, or
 * (trusted-proxy rule) whose connection comes from an address in SIGHTLINE_TRUSTED_PROXIES and
 * carries no X-Forwarded-For: a request a reverse proxy relayed from anyone else names its client
 * there, so it is not taken for the proxy's own. No session or store access: scrapes stay cheap.
 */
export function metricsRoute(
  scope: FastifyInstance,
  guard: MetricsGuard,
  appRegistry: Registry,
): void {
  const options = { schema: { hide: true }, config: { withoutSession: true } };
  const { metricsToken: token } = guard;
  const fromTrustedProxy = guard.metricsFromTrustedProxies
    ? proxyMatcher(guard.trustedProxies)
    : () => false;
  scope.get("/metrics", options, async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header("Cache-Control", "no-store");
    if (!metricsEnabled(guard)) return reply.code(404).send({ message: GENERIC_MESSAGES[404] });
    const given = bearerToken(request);
    const byToken = token !== null && given !== null && sameToken(given, token);
    const byAddress =
      request.headers["x-forwarded-for"] === undefined &&
      fromTrustedProxy(request.socket.remoteAddress);
    if (!byToken && !byAddress) {
      if (token === null) return reply.code(403).send({ message: METRICS_PROXY_MESSAGE });
      return reply
        .code(401)
        .header("WWW-Authenticate", 'Bearer realm="metrics"')
        .send({ message: METRICS_TOKEN_MESSAGE });
    }
    const merged = Registry.merge([processRegistry, appRegistry]);
    return reply.type(merged.contentType).send(await merged.metrics());
  });
}
