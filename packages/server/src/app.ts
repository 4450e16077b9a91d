import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from "fastify";
import cookie from "@fastify/cookie";
import rateLimit from "@fastify/rate-limit";
import compress from "@fastify/compress";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { AppContext } from "./context";
import { publicRateLimit } from "./http/publicRateLimit";
import { requestAuth } from "./auth/requestAuth";
import { authRoutes } from "./auth/routes";
import { trackRouteMethods } from "./http/allowedMethods";
import { registerBodyParsers } from "./http/bodyParsing";
import { registerInputChecks } from "./http/inputChecks";
import { registerSecurityHeaders } from "./http/securityHeaders";
import { GENERIC_MESSAGES, HttpError, LOGIN_REQUIRED_MESSAGE } from "./http/errors";
import * as S from "./http/schemas";
import { sessionRoutes } from "./http/session";
import { apiRoutes } from "./http/routes";
import { registerWebAppFiles } from "./http/webAppFiles";
import { responseCompression } from "./http/compression";
import { registerOperations } from "./http/health";
import { MetadataUnavailableError } from "./store/outage";
import { ResultStorageError } from "./results/chunkStore";

const DEFAULT_WEB_DIST = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../web/dist",
);

function isApiRequest(request: FastifyRequest): boolean {
  return (
    request.url.startsWith("/api/") || request.headers["x-requested-with"] === "XMLHttpRequest"
  );
}

/**
 * Repeated slashes in the path count as one (clients whose base URL ends in "/" ask for
 * //api/queries). Rewriting the URL itself keeps request.url and the router in agreement.
 */
export function collapseSlashes(url: string): string {
  return url.replace(/^[^?]*/, (pathPart) => pathPart.replace(/\/{2,}/g, "/"));
}

export function stripOrgPrefix(url: string): string {
  return /^\/default(\/|$|\?)/.test(url) ? url.slice("/default".length) || "/" : url;
}

/** Builds the HTTP server: plugins, auth, routes and the web app. */
export async function buildApp(
  ctx: AppContext,
  logger: FastifyInstance["log"],
  /** webDist: the built web app (packages/web/dist unless given, e.g. by tests). */
  options: { webDist?: string } = {},
): Promise<FastifyInstance> {
  const webDist = options.webDist ?? DEFAULT_WEB_DIST;
  const app = Fastify({
    loggerInstance: logger,
    bodyLimit: 10 * 1024 * 1024,
    // Only the configured proxies may name the client's address (X-Forwarded-For).
    trustProxy: ctx.config.trustedProxies.length > 0 ? ctx.config.trustedProxies : false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    // Single-organisation mode: the organisation's slug prefix (/default/api/...) is accepted too.
    rewriteUrl: (req) => stripOrgPrefix(collapseSlashes(req.url ?? "/")),
  });

  // Route schemas only document the API (/api/docs). The hand-written checks in the routes stay
  // the source of truth, since their messages and leniency follow Redash's: accept any input here.
  app.setValidatorCompiler(() => () => true);
  // Answers go out as the presenters built them: response schemas must never strip or coerce fields.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  registerBodyParsers(app);
  registerInputChecks(app);
  const otherMethods = trackRouteMethods(app);

  await app.register(cookie);
  // Before the routes: the plugin adds its hook to each route registered after it.
  await app.register(compress, responseCompression);
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: () => new HttpError(429, GENERIC_MESSAGES[429]!),
  });
  await app.register(swagger, {
    openapi: { info: { title: "Sightline API", version: "1" } },
    hideUntagged: false,
  });
  await app.register(swaggerUi, { routePrefix: "/api/docs" });

  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) {
      return reply.code(error.statusCode).send({ message: error.message, ...error.extra });
    }
    if (error instanceof MetadataUnavailableError) {
      // An outage, not a fault of this request: the pool reconnects once the database is back.
      request.log.warn({ err: String(error.cause) }, "metadata database unavailable");
      return reply.code(503).header("Retry-After", "5").send({ message: error.message });
    }
    if (error instanceof ResultStorageError) {
      // Object storage of results (SIGHTLINE_RESULTS_URL) failed: its message names the store.
      request.log.warn({ err: String(error.cause ?? error) }, "result storage failed");
      return reply.code(503).header("Retry-After", "5").send({ message: error.message });
    }
    const status = (error as FastifyError).statusCode ?? 500;
    if ((error as FastifyError).validation) {
      return reply.code(400).send({ message: `Invalid request: ${error.message}` });
    }
    if (status >= 400 && status < 500) {
      return reply
        .code(status)
        .send({ message: error.message || GENERIC_MESSAGES[status] || "Bad request" });
    }
    if ((error as NodeJS.ErrnoException).code === "ERR_STREAM_PREMATURE_CLOSE") {
      // The client went away while a streamed answer was being sent: nothing to report.
      request.log.debug({ err: error }, "client closed the connection early");
      return reply;
    }
    request.log.error({ err: error }, "request failed");
    return reply
      .code(500)
      .send({ message: "An internal error occurred. It was logged for the administrator." });
  });

  registerSecurityHeaders(app, ctx.config);

  // /healthz, /readyz, /metrics, and the HTTP metrics of every route.
  await registerOperations(app, ctx);
  await app.register(requestAuth, ctx);
  await app.register(publicRateLimit, ctx);
  await app.register(async (scope) => authRoutes(scope, ctx));
  await app.register(async (scope) => sessionRoutes(scope, ctx));
  await app.register(async (scope) => apiRoutes(scope, ctx));

  const hasWebApp = fs.existsSync(path.join(webDist, "index.html"));
  if (hasWebApp) await registerWebAppFiles(app, webDist);

  /** The web app's page: for signed-in users, and on embeddable pages for their API key too. */
  async function serveWebApp(request: FastifyRequest, reply: FastifyReply) {
    if (!request.auth?.org) return reply.redirect("/setup");
    const identity = request.auth.identity;
    const pagePath = request.url.split("?")[0]!;
    const embed = pagePath.startsWith("/embed/");
    // The public dashboard page answers a wrong or withdrawn token itself (its not-found card):
    // the page is only the app's static shell, the API decides what the token opens.
    // The report print page: its data route checks the renderer's one-time token itself.
    const publicPage =
      pagePath.startsWith("/public/dashboards/") || pagePath.startsWith("/reports/print/");
    const refused = identity.kind === "anonymous" || (identity.kind === "api_key" && !embed);
    if (refused && !publicPage) {
      return reply.redirect(`/login?next=${encodeURIComponent(request.url)}`);
    }
    if (!hasWebApp) {
      return reply
        .code(503)
        .type("text/plain")
        .send("The web app is not built. Run `npm run build`.");
    }
    return reply.header("Cache-Control", "no-store").sendFile("index.html");
  }

  // Embeddable pages are real routes so that a query's API key (it needs the route's query_id)
  // or a dashboard's share token opens them without a session.
  const webAppPage = {
    tags: ["web app"],
    response: {
      200: S.htmlPage("The web app"),
      302: S.redirect("To the login page"),
      503: S.plainText("The web app is not built"),
    },
  };
  app.get(
    "/embed/query/:query_id/visualization/:visualization_id",
    {
      schema: {
        ...webAppPage,
        summary: "Embedded visualization page",
        params: S.params({ query_id: S.int, visualization_id: S.int }),
      },
    },
    serveWebApp,
  );
  app.get(
    "/public/dashboards/:token",
    {
      schema: {
        ...webAppPage,
        summary: "Public dashboard page",
        params: S.params({ token: S.str }),
      },
    },
    serveWebApp,
  );

  // Everything else: the web app for signed-in users, a login redirect for visitors, JSON 404 for the API.
  app.setNotFoundHandler(async (request, reply) => {
    if (isApiRequest(request)) {
      const allowed = otherMethods(request.method, request.url);
      if (allowed.length > 0) {
        return reply
          .code(405)
          .header("Allow", allowed.join(", "))
          .send({ message: GENERIC_MESSAGES[405] });
      }
      if (request.auth?.identity.kind === "anonymous")
        return reply.code(404).send({ message: LOGIN_REQUIRED_MESSAGE });
      return reply.code(404).send({ message: GENERIC_MESSAGES[404] });
    }
    if (request.method !== "GET" && request.method !== "HEAD") {
      return reply.code(404).send({ message: GENERIC_MESSAGES[404] });
    }
    return serveWebApp(request, reply);
  });

  return app;
}
