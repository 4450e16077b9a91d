import type { FastifyRequest } from "fastify";
import type { Kysely } from "kysely";
import type { Identity } from "../auth/identity";
import { recordEvent, recordEventSoon, type EventInput } from "../services/events";
import type { DB } from "../store/schema";

/** Who an event says acted (api-platform.md §10): the user, or an API key by its name. */
export function eventActor(identity: Identity): Pick<EventInput, "userId" | "apiKeyName"> {
  return {
    userId: identity.kind === "user" ? identity.user.id : null,
    apiKeyName: identity.kind === "api_key" ? identity.name : undefined,
  };
}

/**
 * The audit event of a caller's action on an object of one type (`"query"`, `"dashboard"`).
 * `soon` leaves the write until after the answer, for reads that should not wait for it.
 */
export function objectEvents(db: Kysely<DB>, objectType: string) {
  return function event(
    request: FastifyRequest,
    identity: Identity,
    orgId: number,
    action: string,
    objectId?: number | string,
    details?: Record<string, unknown>,
    soon = false,
  ): Promise<void> {
    const input = {
      orgId,
      ...eventActor(identity),
      action,
      objectType,
      objectId,
      details,
      request,
    };
    if (soon) {
      recordEventSoon(db, input);
      return Promise.resolve();
    }
    return recordEvent(db, input);
  };
}
