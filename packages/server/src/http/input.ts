import type { FastifyRequest } from "fastify";
import { isStoredId } from "../store/values";
import { badRequest, notFound } from "./errors";

/** Reading request input at the edge: ids, bodies and typed fields, with 404/400 for bad values. */

/**
 * A path id: anything but a whole number a row could have (1 to 2^31 - 1, the stores' integer
 * range) is an unknown id (404), on both metadata stores alike.
 */
export function parseId(raw: unknown): number {
  const id = typeof raw === "string" && /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  if (!isStoredId(id)) throw notFound();
  return id;
}

/** The JSON body as an object; `{}` when empty; 400 when it is some other JSON value. */
export function bodyObject(request: FastifyRequest): Record<string, unknown> {
  const body = request.body;
  if (body === undefined || body === null) return {};
  if (typeof body !== "object" || Array.isArray(body)) {
    throw badRequest("The request body must be a JSON object.");
  }
  return body as Record<string, unknown>;
}

/** Like bodyObject, but any non-object body counts as `{}` (routes that tolerate bad bodies). */
export function lenientBody(request: FastifyRequest): Record<string, unknown> {
  const body = request.body;
  return body && typeof body === "object" && !Array.isArray(body)
    ? (body as Record<string, unknown>)
    : {};
}

export function queryArgs(request: FastifyRequest): Record<string, unknown> {
  return (request.query ?? {}) as Record<string, unknown>;
}

export function requireString(body: Record<string, unknown>, key: string): string {
  const value = body[key];
  if (typeof value !== "string") throw badRequest(`${key} is required and must be a string.`);
  return value;
}

export function optionalString(
  body: Record<string, unknown>,
  key: string,
): string | null | undefined {
  const value = body[key];
  if (value === undefined || value === null) return value;
  if (typeof value !== "string") throw badRequest(`${key} must be a string.`);
  return value;
}

export function optionalObject(
  body: Record<string, unknown>,
  key: string,
): Record<string, unknown> | null | undefined {
  const value = body[key];
  if (value === undefined || value === null) return value;
  if (typeof value !== "object" || Array.isArray(value))
    throw badRequest(`${key} must be an object.`);
  return value as Record<string, unknown>;
}

/** A required object field (options): 400 when absent or some other JSON value. */
export function requiredObject(value: unknown, key: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw badRequest(`${key} is required and must be an object.`);
  }
  return value as Record<string, unknown>;
}

/** Redash's column limit for the names of alerts, data sources and destinations. */
const MAX_NAME = 255;

/** A required `name`, trimmed: 400 when absent, blank or too long. */
export function requiredName(value: unknown): string {
  if (typeof value !== "string" || value.trim() === "") throw badRequest("name is required.");
  if (value.trim().length > MAX_NAME) {
    throw badRequest(`name is too long (at most ${MAX_NAME} characters).`);
  }
  return value.trim();
}

/**
 * The create/update body of an object with a type and options (data source, alert destination):
 * `name`, `type` and `options`, each required (400 otherwise). The caller looks the type up and
 * checks the options against its schema.
 */
export function typedObjectBody(body: Record<string, unknown>): {
  name: string;
  type: string;
  options: Record<string, unknown>;
} {
  const name = requiredName(body.name);
  const type = body.type;
  if (typeof type !== "string" || type === "") throw badRequest("type is required.");
  return { name, type, options: requiredObject(body.options, "options") };
}

/** An id in a body: a whole number (or its string form), else 400. */
export function bodyId(body: Record<string, unknown>, key: string): number {
  const value = body[key];
  if (typeof value === "number" && Number.isSafeInteger(value) && value > 0) return value;
  if (typeof value === "string" && /^\d{1,15}$/.test(value)) return Number(value);
  throw badRequest(`${key} is required and must be an id.`);
}

/** Query-string flags are true when present, whatever their value. */
export function flag(request: FastifyRequest, name: string): boolean {
  return Object.prototype.hasOwnProperty.call(queryArgs(request), name);
}

/** Most tags a query or dashboard holds, and the longest tag (Redash sets no limit). */
export const MAX_TAGS = 50;
export const MAX_TAG_LENGTH = 100;

/**
 * A body's `tags` (queries and dashboards): a list of at most MAX_TAGS strings of at most
 * MAX_TAG_LENGTH characters (null or absent = none; empty entries are dropped).
 */
export function readTags(value: unknown): string[] {
  if (value === null || value === undefined) return [];
  if (!Array.isArray(value)) throw badRequest("tags must be a list of strings.");
  const tags = value
    .filter((t) => t !== null && t !== "" && t !== undefined)
    .map((t) => {
      if (typeof t !== "string") throw badRequest("tags must be a list of strings.");
      if (t.length > MAX_TAG_LENGTH) {
        throw badRequest(`A tag must be at most ${MAX_TAG_LENGTH} characters.`);
      }
      return t;
    });
  if (tags.length > MAX_TAGS) throw badRequest(`tags must be at most ${MAX_TAGS} tags.`);
  return tags;
}
