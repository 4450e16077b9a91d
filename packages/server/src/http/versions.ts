// What the version routes of queries and dashboards share (/api/{queries,dashboards}/{id}/versions):
// their documentation, the reading of page, version and restore body, the conflict answer, and
// the list's entries.
import type { FastifyRequest } from "fastify";
import type { Kysely } from "kysely";
import type { DB } from "../store/schema";
import type { VersionEntry } from "../store/objectVersions";
import { profileImageUrl } from "../presenters/users";
import { usersByIds } from "../store/users";
import { MAX_STORED_ID } from "../store/values";
import { HttpError, badRequest, notFound } from "./errors";
import { queryParam } from "./listParams";
import * as S from "./schemas";

export type VersionParams = { id: string; version: string };

export const MAX_VERSIONS_PAGE_SIZE = 250;
export const DEFAULT_VERSIONS_PAGE_SIZE = 25;

export const VERSION_NOT_FOUND = "Version not found.";
export const VERSION_CONFLICT =
  "It seems like the object has been modified by another user. Reload it to see the newest version.";

const versionEntry = S.complete(
  {
    version: { ...S.int, description: "The object's version number that save produced" },
    created_at: S.timestamp,
    user: {
      ...S.orNull(S.complete({ id: S.int, name: S.str, profile_image_url: S.str })),
      description: "null when the author is unknown (a state from before version history)",
    },
    changes: S.array(S.str, "Names of the fields that changed (e.g. query, name, widgets)"),
  },
  "A version",
);

const versionParams = S.params({ id: S.storedId, version: { ...S.int, minimum: 1 } });

/** The documentation of the three version routes of an object kind. */
export function versionDocs(tag: string, noun: string, object: object) {
  const tags = [tag];
  return {
    list: {
      tags,
      summary: `The versions of a ${noun}, newest first`,
      params: S.idParams,
      querystring: S.object({
        page: { ...S.int, minimum: 1, default: 1 },
        page_size: { ...S.int, minimum: 1, maximum: MAX_VERSIONS_PAGE_SIZE, default: 25 },
      }),
      response: {
        200: S.paginated(versionEntry, "A page of versions"),
        ...S.errors(400, 403, 404),
      },
    },
    get: {
      tags,
      summary: `A ${noun} as it was at one of its versions`,
      params: versionParams,
      response: { 200: object, ...S.errors(400, 403, 404) },
    },
    restore: {
      tags,
      summary: `Makes the ${noun} as it was at a version; the restore is a new version`,
      params: versionParams,
      body: S.object({
        version: {
          ...S.int,
          description: "The version the caller has; another one is refused with 409",
        },
      }),
      response: {
        200: object,
        409: S.complete(
          { message: S.str, version: S.int },
          "Saved meanwhile: `version` is the current one",
        ),
        ...S.errors(400, 403, 404),
      },
    },
  };
}

/** `page` (from 1) and `page_size` (1–250): absent ones take the defaults, anything else is a 400. */
export function versionPage(request: FastifyRequest): { page: number; pageSize: number } {
  const read = (name: string, fallback: number, max: number) => {
    const raw = queryParam(request, name);
    if (raw === undefined || raw.trim() === "") return fallback;
    const text = raw.trim();
    const n = /^\d{1,9}$/.test(text) ? Number(text) : NaN;
    if (!(n >= 1 && n <= max)) throw badRequest(`${name} must be a whole number from 1 to ${max}.`);
    return n;
  };
  return {
    page: read("page", 1, 1_000_000),
    pageSize: read("page_size", DEFAULT_VERSIONS_PAGE_SIZE, MAX_VERSIONS_PAGE_SIZE),
  };
}

/** The `{version}` of the path; one that names no version is a 404. */
export function versionParam(request: FastifyRequest<{ Params: VersionParams }>): number {
  const raw = request.params.version;
  const n = /^\d{1,10}$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= 1 && n <= MAX_STORED_ID)) throw notFound(VERSION_NOT_FOUND);
  return n;
}

/** The optional `version` of a restore body (the version the caller has). */
export function expectedVersion(body: unknown): number | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body !== "object" || Array.isArray(body)) throw badRequest("Expected a JSON object.");
  const version = (body as Record<string, unknown>).version;
  if (version === undefined || version === null) return undefined;
  if (typeof version !== "number" || !Number.isSafeInteger(version)) {
    throw badRequest("version must be a whole number.");
  }
  return version;
}

/** 409 naming the current version, so a client can offer to compare with it. */
export const versionConflict = (current: number) =>
  new HttpError(409, VERSION_CONFLICT, { version: current });

/** The list's entries, with each author's id and name. */
export async function presentVersionEntries(db: Kysely<DB>, entries: VersionEntry[]) {
  const users = await usersByIds(
    db,
    entries.map((e) => e.user_id),
  );
  return entries.map((e) => {
    const user = e.user_id === null ? undefined : users.get(e.user_id);
    return {
      version: e.version,
      created_at: e.created_at,
      user: user
        ? { id: user.id, name: user.name, profile_image_url: profileImageUrl(user) }
        : null,
      changes: e.changes,
    };
  });
}
