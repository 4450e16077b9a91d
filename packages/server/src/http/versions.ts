// What the version routes of queries and dashboards share (/api/{queries,dashboards}/{id}/versions):
// their documentation, the reading of page, version and restore body, the conflict answer, and
// the list's entries, and the steps of a restore.
import type { FastifyRequest } from "fastify";
import type { Kysely } from "kysely";
import type { DB } from "../store/schema";
import {
  findVersion,
  listVersions,
  type VersionEntry,
  type VersionRecord,
} from "../store/objectVersions";
import {
  recordBaseline,
  recordVersion,
  type Snapshot,
  type VersionedKind,
} from "../services/versioning";
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

/** A page of an object's versions (`page` and `page_size` already read by versionPage). */
export async function versionListPage<S extends Snapshot>(
  db: Kysely<DB>,
  kind: VersionedKind<S>,
  objectId: number,
  { page, pageSize }: { page: number; pageSize: number },
) {
  const key = { type: kind.type, objectId };
  const { count, results } = await listVersions(db, key, page, pageSize);
  return { count, page, page_size: pageSize, results: await presentVersionEntries(db, results) };
}

/** The version of the path of an object, or a 404. */
export async function requireVersion<S extends Snapshot>(
  db: Kysely<DB>,
  kind: VersionedKind<S>,
  objectId: number,
  request: FastifyRequest<{ Params: VersionParams }>,
): Promise<VersionRecord<S>> {
  const key = { type: kind.type, objectId };
  const record = await findVersion<S>(db, key, versionParam(request));
  if (!record) throw notFound(VERSION_NOT_FOUND);
  return record;
}

/** What a restore of one object kind does beside the steps all kinds share. */
export interface RestoreSteps<S extends Snapshot, C> {
  kind: VersionedKind<S>;
  /** The object as the caller loaded it, the caller's right to change it already checked. */
  object: { id: number; version: number };
  /** The version the caller says it has (the restore body's), if it sent one. */
  sent: number | undefined;
  userId: number | null;
  /** Versions kept per object (config.versionsPerObject). */
  keep: number;
  /** Refuses (throws a 4xx) a snapshot the caller may not restore; answers what `apply` needs. */
  check(snapshot: S): Promise<C>;
  /** Writes the snapshot inside `tx`; false when the object was saved meanwhile. */
  apply(tx: Kysely<DB>, snapshot: S, checked: C): Promise<boolean>;
  /** The object's version now, for the conflict answer when `apply` found it saved meanwhile. */
  currentVersion(): Promise<number | undefined>;
}

/**
 * Restores the path's version of an object as a new version: 404 for an unknown version, 409
 * when the caller's version (or the object, meanwhile) is not the current one, then the kind's
 * checks, and in one transaction the baseline, the write and the new version.
 */
export async function restoreVersion<S extends Snapshot, C>(
  db: Kysely<DB>,
  request: FastifyRequest<{ Params: VersionParams }>,
  steps: RestoreSteps<S, C>,
): Promise<void> {
  const { kind, object, sent } = steps;
  const record = await requireVersion(db, kind, object.id, request);
  if (sent !== undefined && sent !== object.version) throw versionConflict(object.version);
  const checked = await steps.check(record.snapshot);
  const restored = await db.transaction().execute(async (tx) => {
    await recordBaseline(tx, kind, object.id);
    if (!(await steps.apply(tx, record.snapshot, checked))) return false;
    await recordVersion(tx, kind, object.id, { userId: steps.userId, keep: steps.keep });
    return true;
  });
  if (!restored) throw versionConflict((await steps.currentVersion()) ?? object.version);
}
