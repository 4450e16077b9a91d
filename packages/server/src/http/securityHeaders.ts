// The security headers of every answer (SECURITY.md rule 8): the Content-Security-Policy, which
// pages may be framed and by whom, the referrer policy and no MIME sniffing.
import type { FastifyInstance, FastifyRequest } from "fastify";
import { isShareKey } from "../auth/shareKeyRoutes";

/**
 * The app's pages and API answers. No page evaluates code: custom JavaScript charts run only in
 * the sandbox page below. Forms submit only to the app itself. Images may come from elsewhere
 * (table image cells, map tiles); text boxes' sanitiser keeps theirs to the app's own origin.
 */
export const APP_CSP =
  "default-src 'self'; style-src 'self' 'unsafe-inline'; script-src 'self'; font-src 'self' data:; " +
  "img-src 'self' http: https: data: blob:; object-src 'none'; frame-src 'self'; worker-src 'self' blob:; " +
  "form-action 'self';";

/**
 * The sandbox page custom JavaScript charts run in, framed with sandbox="allow-scripts": inline
 * code, no network, no forms. It evaluates the chart's code only where custom JavaScript
 * visualizations are switched on (SIGHTLINE_ALLOW_CUSTOM_JS_VISUALIZATIONS).
 */
export function sandboxCsp(allowCustomJs: boolean): string {
  const scripts = allowCustomJs ? "'unsafe-inline' 'unsafe-eval'" : "'unsafe-inline'";
  return (
    `default-src 'none'; script-src ${scripts}; style-src 'unsafe-inline'; img-src data: blob:; ` +
    "form-action 'none'; frame-ancestors 'self';"
  );
}

/** Pages that may be framed by other sites (embeds and public dashboards). */
function isEmbeddable(url: string): boolean {
  return /^\/(embed\/query\/|public\/dashboards\/|api\/dashboards\/public\/|dashboard\/)/.test(url);
}

function shareKeyCall(request: FastifyRequest): boolean {
  return request.auth ? isShareKey(request.auth.identity) : false;
}

export function registerSecurityHeaders(
  app: FastifyInstance,
  options: { allowCustomJsVisualizations: boolean },
): void {
  app.addHook("onSend", async (request, reply, payload) => {
    // The calls a public dashboard makes with its share key go with the framable page.
    if (isEmbeddable(request.url) || shareKeyCall(request)) {
      reply.header("Content-Security-Policy", `${APP_CSP} frame-ancestors *;`);
    } else if (request.url.startsWith("/sandbox/")) {
      reply.header("Content-Security-Policy", sandboxCsp(options.allowCustomJsVisualizations));
      reply.header("X-Frame-Options", "sameorigin");
    } else if (request.url.startsWith("/docs/")) {
      // The help pages open inside the app's help drawer.
      reply.header("Content-Security-Policy", `${APP_CSP} frame-ancestors 'self';`);
      reply.header("X-Frame-Options", "sameorigin");
    } else {
      reply.header("Content-Security-Policy", `${APP_CSP} frame-ancestors 'none';`);
      reply.header("X-Frame-Options", "deny");
    }
    reply.header("Referrer-Policy", "strict-origin-when-cross-origin");
    reply.header("X-Content-Type-Options", "nosniff");
    return payload;
  });
}
