import type { FastifyInstance } from "fastify";
import FindMyWay from "find-my-way";

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
type Method = (typeof METHODS)[number];

/**
 * Remembers every route the app registers, so that a request whose path exists under other
 * methods can be answered 405 instead of 404 (api-queries.md, routing notes). Fastify's own
 * router answers 404 for both. Must be called before the routes are registered.
 */
export function trackRouteMethods(app: FastifyInstance): (method: string, url: string) => Method[] {
  const router = FindMyWay({ ignoreTrailingSlash: true, maxParamLength: 500 });
  app.addHook("onRoute", (route) => {
    for (const method of [route.method].flat()) {
      if (!(METHODS as readonly string[]).includes(method)) continue;
      // A path registered twice for a method (Fastify's own HEAD routes) is known already.
      if (!router.hasRoute(method as Method, route.url))
        router.on(method as Method, route.url, () => {});
    }
  });
  return (method, url) => {
    const path = url.split("?")[0]!;
    return METHODS.filter((m) => m !== method && router.find(m, path) !== null);
  };
}
