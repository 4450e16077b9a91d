// The answers that are not an API object: no body, errors (each status with the reason it
// stands for), the refusal to run, HTML and text pages and redirects.
import { str, complete } from "./basics";

/** The JSON body `null`, which Redash answers when there is nothing to return. */
export const nullBody = { type: "null", description: "The JSON value `null`" } as const;
/** An empty body (204, CORS preflights). */
export const noContent = { type: "null", description: "No body" } as const;

// ---- Errors --------------------------------------------------------------------------------

export const errorMessage = complete({ message: str }, "Error");

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: "Invalid input (the message says which), or a session's write without its CSRF token",
  401: "No data source to run on",
  403: "Not permitted",
  404: "Not found; also the answer to API calls without a valid session or API key",
  409: "The object changed meanwhile (version conflict)",
  429: "Rate limit exceeded",
  503: "The job queue is unavailable",
};

/**
 * `{"message": ...}` answers for these error statuses, to spread into a route's `response`.
 * The statuses keep their literal types: Fastify types `reply.code()` from the declared ones.
 */
export function errors<const C extends readonly number[]>(...statuses: C) {
  return Object.fromEntries(
    statuses.map((status) => [
      status,
      { ...errorMessage, description: ERROR_DESCRIPTIONS[status] },
    ]),
  ) as Record<C[number], typeof errorMessage & { description: string }>;
}

/** A refusal to run, in Redash's job shape (api-queries.md §1.3). */
export const jobRefusal = complete(
  { job: complete({ status: { type: "integer", enum: [4] }, error: str }) },
  "Refused to run",
);

// ---- Pages and redirects ---------------------------------------------------------------------

/** An HTML page answer (sign-in pages, the web app). */
export const htmlPage = (description: string) =>
  ({ description, content: { "text/html": { schema: str } } }) as const;
/** A plain-text answer. */
export const plainText = (description: string) =>
  ({ description, content: { "text/plain": { schema: str } } }) as const;
/** A redirect, with its Location header. */
export const redirect = (description: string) =>
  ({ ...noContent, description, headers: { location: str } }) as const;
