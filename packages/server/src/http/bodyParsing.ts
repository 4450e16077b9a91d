import querystring from "node:querystring";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { HttpError } from "./errors";
import { checkInput } from "./inputChecks";

/**
 * How request bodies are read (api-queries.md §1.1):
 * - /api bodies are JSON whatever their Content-Type, as Redash reads them (scripts often post
 *   `json.dumps(...)` with no type, or `curl -d` with the form type);
 * - the sign-in pages (/login, /setup, …) read HTML forms;
 * - an empty body counts as none (Redash clients POST without bodies);
 * - malformed JSON is a 400, except on routes declared `lenientBody`, which read it as no body;
 * - too deep nesting and NUL characters are a 400 on every route (inputChecks.ts).
 * Cross-site forms cannot abuse the type-blind reading: every state-changing call with a session
 * needs the CSRF token, which another site cannot read.
 */

declare module "fastify" {
  interface FastifyContextConfig {
    /** Malformed JSON counts as no body (api-queries.md §1.1: saved query runs, pause). */
    lenientBody?: boolean;
  }
}

export const INVALID_JSON_MESSAGE = "The request body is not valid JSON.";

function isApiRequest(request: FastifyRequest): boolean {
  return request.url.startsWith("/api/");
}

function parseJson(request: FastifyRequest, text: string): unknown {
  if (text.trim() === "") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    if (request.routeOptions.config.lenientBody) return undefined;
    throw new HttpError(400, INVALID_JSON_MESSAGE);
  }
  checkInput(value);
  return value;
}

function parseForm(text: string): Record<string, unknown> {
  const form = { ...querystring.parse(text) };
  checkInput(form);
  return form;
}

export function registerBodyParsers(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  const asString = { parseAs: "string" } as const;
  type Done = (error: Error | null, body?: unknown) => void;
  const reading =
    (read: (request: FastifyRequest, text: string) => unknown) =>
    (request: FastifyRequest, body: string | Buffer, done: Done) => {
      try {
        done(null, read(request, typeof body === "string" ? body : body.toString("utf8")));
      } catch (error) {
        done(error as Error, undefined);
      }
    };

  app.addContentTypeParser("application/json", asString, reading(parseJson));
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    asString,
    reading((request, text) =>
      isApiRequest(request) ? parseJson(request, text) : parseForm(text),
    ),
  );
  // Any other type, or none at all.
  app.addContentTypeParser(
    "*",
    asString,
    reading((request, text) => {
      if (isApiRequest(request)) return parseJson(request, text);
      throw new HttpError(415, "Unsupported Media Type: send a form or JSON.");
    }),
  );
}
