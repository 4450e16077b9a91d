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

function eventRow(e: EventInput) {
  const extra: Record<string, unknown> = { ...(e.details ?? {}) };
  if (e.request) {
    extra.user_agent = e.request.headers["user-agent"] ?? null;
    extra.ip = e.request.ip;
  }
  if (e.apiKeyName) extra.api_key = e.apiKeyName;
  return {
    org_id: e.orgId,
    user_id: e.userId,
    action: e.action,
    object_type: e.objectType,
    object_id: e.objectId === undefined || e.objectId === null ? null : String(e.objectId),
    additional_properties: toJson(extra),
    created_at: e.timestamp ?? now(),
  };
}

/** Records a usage event (api-platform.md §10). Never fails the request that records it. */
export async function recordEvent(db: Kysely<DB>, e: EventInput): Promise<void> {
  try {
    await db.insertInto("events").values(eventRow(e)).execute();
  } catch (err) {
    e.request?.log.warn({ err }, "could not record event");
  }
}

/**
 * Events of reads nobody waits for (running a query, viewing a result) are written a moment
 * later, many in one statement: the request does not pay for an insert and its commit, and a
 * busy server commits a few times a second instead of once per request. They are written at the
 * latest FLUSH_AFTER_MS after being recorded, and when the server closes.
 */
const FLUSH_AFTER_MS = 200;
const FLUSH_AT_COUNT = 100;

interface PendingEvents {
  rows: ReturnType<typeof eventRow>[];
  log: FastifyRequest["log"] | null;
  timer: NodeJS.Timeout | null;
}

const pendingByStore = new Map<Kysely<DB>, PendingEvents>();

export function recordEventSoon(db: Kysely<DB>, e: EventInput): void {
  let pending = pendingByStore.get(db);
  if (!pending) {
    pending = { rows: [], log: null, timer: null };
    pendingByStore.set(db, pending);
  }
  pending.rows.push(eventRow(e));
  pending.log ??= e.request?.log ?? null;
  if (pending.rows.length >= FLUSH_AT_COUNT) {
    void flushEvents(db);
  } else if (!pending.timer) {
    pending.timer = setTimeout(() => void flushEvents(db), FLUSH_AFTER_MS);
    pending.timer.unref();
  }
}

/** Writes the events recorded "soon" that are still waiting (on shutdown, in tests). */
export async function flushEvents(db: Kysely<DB>): Promise<void> {
  const pending = pendingByStore.get(db);
  if (!pending) return;
  pendingByStore.delete(db);
  if (pending.timer) clearTimeout(pending.timer);
  try {
    await db.insertInto("events").values(pending.rows).execute();
  } catch {
    // One bad row (its user deleted meanwhile, say) must not lose the others.
    for (const row of pending.rows) {
      await db
        .insertInto("events")
        .values(row)
        .execute()
        .catch((err: unknown) => pending.log?.warn({ err }, "could not record event"));
    }
  }
}
