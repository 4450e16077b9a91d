import type { FastifyRequest } from "fastify";
import type { Kysely } from "kysely";
import type { DB } from "../store/schema";
import { now, toJson } from "../store/values";

export interface EventInput {
  orgId: number;
  userId: number | null;
  action: string;
  objectType: string;
  objectId?: string | number | null;
  details?: Record<string, unknown>;
  request?: FastifyRequest;
  /** For API-key callers: the key's name, stored as `api_key`. */
  apiKeyName?: string;
  timestamp?: string;
}

/** Records a usage event (api-platform.md §10). Never fails the request that records it. */
export async function recordEvent(db: Kysely<DB>, e: EventInput): Promise<void> {
  const extra: Record<string, unknown> = { ...(e.details ?? {}) };
  if (e.request) {
    extra.user_agent = e.request.headers["user-agent"] ?? null;
    extra.ip = e.request.ip;
  }
  if (e.apiKeyName) extra.api_key = e.apiKeyName;
  try {
    await db
      .insertInto("events")
      .values({
        org_id: e.orgId,
        user_id: e.userId,
        action: e.action,
        object_type: e.objectType,
        object_id: e.objectId === undefined || e.objectId === null ? null : String(e.objectId),
        additional_properties: toJson(extra),
        created_at: e.timestamp ?? now(),
      })
      .execute();
  } catch (err) {
    e.request?.log.warn({ err }, "could not record event");
  }
}

/**
 * Records the event once the current response has gone out: reads whose event nobody waits for
 * (running a query, viewing a result) do not wait for the insert and its commit.
 */
export function recordEventSoon(db: Kysely<DB>, e: EventInput): void {
  const timestamp = e.timestamp ?? now();
  setImmediate(() => void recordEvent(db, { ...e, timestamp }));
}
