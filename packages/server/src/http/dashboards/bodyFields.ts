// The fields of a dashboard's create and save bodies, checked: a wrong value is a 400 naming it.
import type { DashboardFields } from "../../store/dashboards";
import { badRequest } from "../errors";
import { readTags } from "../input";

/** Longest dashboard name (Redash's column). */
export const MAX_NAME_LENGTH = 100;
/** Longest stored `layout` or `options` of a dashboard, as JSON text. */
export const MAX_JSON_LENGTH = 1_000_000;

export function readName(value: unknown): string {
  if (typeof value !== "string" || value.trim() === "") {
    throw badRequest("name is required and must be a string.");
  }
  if (value.length > MAX_NAME_LENGTH) {
    throw badRequest(`name must be at most ${MAX_NAME_LENGTH} characters.`);
  }
  return value;
}

function readBool(value: unknown, key: string): boolean {
  if (typeof value !== "boolean") throw badRequest(`${key} must be true or false.`);
  return value;
}

/** Any JSON value, kept exactly as given, within the size limit. */
function readStoredJson(value: unknown, key: string): unknown {
  if (JSON.stringify(value ?? null).length > MAX_JSON_LENGTH) {
    throw badRequest(`${key} is too large.`);
  }
  return value;
}

function readOptions(value: unknown): Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw badRequest("options must be an object.");
  }
  return readStoredJson(value, "options") as Record<string, unknown>;
}

/** The writable fields of a save (api-platform.md §7.5); other keys are ignored. */
export function readChanges(body: Record<string, unknown>): Partial<DashboardFields> {
  const changes: Partial<DashboardFields> = {};
  if ("name" in body) changes.name = readName(body.name);
  if ("layout" in body) changes.layout = readStoredJson(body.layout ?? [], "layout");
  if ("tags" in body) changes.tags = readTags(body.tags);
  if ("is_draft" in body) changes.is_draft = readBool(body.is_draft, "is_draft");
  if ("is_archived" in body) changes.is_archived = readBool(body.is_archived, "is_archived");
  if ("dashboard_filters_enabled" in body) {
    changes.dashboard_filters_enabled = readBool(
      body.dashboard_filters_enabled,
      "dashboard_filters_enabled",
    );
  }
  if ("options" in body) changes.options = readOptions(body.options);
  return changes;
}

/** The `version` of a save: undefined when absent or null (last write wins). */
export function readVersion(body: Record<string, unknown>): number | undefined {
  if (body.version === undefined || body.version === null) return undefined;
  if (typeof body.version !== "number" || !Number.isSafeInteger(body.version)) {
    throw badRequest("version must be a whole number.");
  }
  return body.version;
}
