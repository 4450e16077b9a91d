// A subscription's create and edit bodies, checked at the edge: a wrong value is a 400 naming it.
import { canCarryReport, normalizeSchedule, scheduleProblem } from "@sightline/core";
import type { Kysely } from "kysely";
import { badRequest } from "../http/errors";
import { destinationsByIds } from "../store/destinations";
import type { DB } from "../store/schema";
import { isStoredId } from "../store/values";
import {
  REPORT_FORMATS,
  type Recipients,
  type ReportFormat,
  type ReportSchedule,
  type SubscriptionFields,
} from "./store";

export const MAX_RECIPIENTS = 50;
const EMAIL_RE = /^[^\s@<>",;]+@[^\s@<>",;]+\.[^\s@<>",;]+$/;

function readSchedule(value: unknown): ReportSchedule {
  if (value === null || value === undefined) {
    return { interval: null, time: null, day_of_week: null, until: null };
  }
  const problem = scheduleProblem(value);
  if (problem) throw badRequest(problem);
  const schedule = normalizeSchedule(value)!;
  return {
    interval: schedule.interval === null ? null : Number(schedule.interval),
    time: schedule.time,
    day_of_week: schedule.day_of_week,
    until: schedule.until,
  };
}

function readFormat(value: unknown): ReportFormat {
  if (typeof value !== "string" || !(REPORT_FORMATS as readonly string[]).includes(value)) {
    throw badRequest(`format must be one of ${REPORT_FORMATS.join(", ")}.`);
  }
  return value as ReportFormat;
}

function readBool(value: unknown, key: string): boolean {
  if (typeof value !== "boolean") throw badRequest(`${key} must be true or false.`);
  return value;
}

function readName(value: unknown): string {
  if (typeof value !== "string" || value.trim() === "") throw badRequest("name must be a text.");
  if (value.length > 255) throw badRequest("name must be at most 255 characters.");
  return value.trim();
}

function readParameters(value: unknown): Record<string, unknown> {
  if (value === null || value === undefined) return {};
  if (typeof value !== "object" || Array.isArray(value)) {
    throw badRequest("parameters must be an object of parameter values.");
  }
  if (JSON.stringify(value).length > 64 * 1024) throw badRequest("parameters are too large.");
  return value as Record<string, unknown>;
}

/** Recipients, their destinations checked to be the organisation's and of a type that fits. */
async function readRecipients(db: Kysely<DB>, orgId: number, value: unknown): Promise<Recipients> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw badRequest("recipients must be an object {emails, destination_ids}.");
  }
  const r = value as Record<string, unknown>;
  const emails = r.emails ?? [];
  const ids = r.destination_ids ?? [];
  if (!Array.isArray(emails) || !emails.every((e) => typeof e === "string")) {
    throw badRequest("recipients.emails must be a list of e-mail addresses.");
  }
  const cleaned = [...new Set(emails.map((e) => e.trim()).filter((e) => e !== ""))];
  const bad = cleaned.find((e) => e.length > 254 || !EMAIL_RE.test(e));
  if (bad !== undefined) throw badRequest(`"${bad.slice(0, 80)}" is not an e-mail address.`);
  if (!Array.isArray(ids) || !ids.every((id) => Number.isSafeInteger(id) && id > 0)) {
    throw badRequest("recipients.destination_ids must be a list of destination ids.");
  }
  const destinationIds = [...new Set(ids as number[])];
  if (cleaned.length + destinationIds.length === 0) {
    throw badRequest("Add at least one recipient: an e-mail address or a destination.");
  }
  if (cleaned.length + destinationIds.length > MAX_RECIPIENTS) {
    throw badRequest(`A report can have at most ${MAX_RECIPIENTS} recipients.`);
  }
  const found = await destinationsByIds(db, destinationIds.filter(isStoredId));
  for (const id of destinationIds) {
    const destination = found.get(id);
    if (!destination || destination.org_id !== orgId) {
      throw badRequest(`Destination ${id} does not exist.`);
    }
    if (!canCarryReport(destination.type)) {
      throw badRequest(`Destination "${destination.name}" cannot carry a report.`);
    }
  }
  return { emails: cleaned, destination_ids: destinationIds };
}

export type SubscriptionInput = Omit<
  SubscriptionFields,
  "dashboard_id" | "query_id" | "visualization_id"
>;

/** A create body: everything but recipients has a default. */
export async function readNewSubscription(
  db: Kysely<DB>,
  orgId: number,
  body: Record<string, unknown>,
  defaultName: string,
): Promise<SubscriptionInput> {
  return {
    name: body.name === undefined ? defaultName : readName(body.name),
    schedule: readSchedule(body.schedule),
    format: body.format === undefined ? "png" : readFormat(body.format),
    recipients: await readRecipients(db, orgId, body.recipients),
    parameters: readParameters(body.parameters),
    skip_if_empty:
      body.skip_if_empty === undefined ? false : readBool(body.skip_if_empty, "skip_if_empty"),
    only_if_changed:
      body.only_if_changed === undefined
        ? false
        : readBool(body.only_if_changed, "only_if_changed"),
    active: body.active === undefined ? true : readBool(body.active, "active"),
  };
}

/** An edit body: only the fields given change. */
export async function readSubscriptionChanges(
  db: Kysely<DB>,
  orgId: number,
  body: Record<string, unknown>,
): Promise<Partial<SubscriptionInput>> {
  const changes: Partial<SubscriptionInput> = {};
  if (body.name !== undefined) changes.name = readName(body.name);
  if (body.schedule !== undefined) changes.schedule = readSchedule(body.schedule);
  if (body.format !== undefined) changes.format = readFormat(body.format);
  if (body.recipients !== undefined) {
    changes.recipients = await readRecipients(db, orgId, body.recipients);
  }
  if (body.parameters !== undefined) changes.parameters = readParameters(body.parameters);
  for (const key of ["skip_if_empty", "only_if_changed", "active"] as const) {
    if (body[key] !== undefined) changes[key] = readBool(body[key], key);
  }
  return changes;
}
