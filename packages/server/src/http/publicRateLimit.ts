import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { AppContext } from "../context";
import { isShareKey } from "../auth/shareKeyRoutes";

/** The public dashboard's own addresses, limited even when the token is wrong. */
const PUBLIC_ROUTES = new Set(["/public/dashboards/:token", "/api/dashboards/public/:token"]);

export const PUBLIC_RATE_LIMIT_MESSAGE =
  "Too many requests to this public dashboard from your address. Please try again in a minute.";

/**
 * Anonymous viewers of public dashboards (every call made with a share key) are limited per
 * client address, so a public link cannot be used to hammer the databases behind it. Signed-in
 * users are not counted. Registered after requestAuth, whose hook resolves the identity.
 */
export const publicRateLimit = fp(async (app: FastifyInstance, ctx: AppContext) => {
  const limit = app.createRateLimit({
    max: ctx.config.publicRateLimitPerMinute,
    timeWindow: 60_000,
  });
  app.addHook("onRequest", async (request, reply) => {
    const identity = request.auth?.identity;
    if (!identity) return;
    const anonymousPublic =
      identity.kind === "anonymous" && PUBLIC_ROUTES.has(request.routeOptions.url ?? "");
    if (!isShareKey(identity) && !anonymousPublic) return;
    const answer = await limit(request);
    if (answer.isAllowed || !answer.isExceeded) return;
    return reply
      .code(429)
      .header("Retry-After", String(answer.ttlInSeconds))
      .type("application/json")
      .send({ message: PUBLIC_RATE_LIMIT_MESSAGE });
  });
});
