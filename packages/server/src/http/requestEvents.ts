// The event a route records for what its caller did (api-platform.md §10).
import type { FastifyRequest } from "fastify";
import type { AppContext } from "../context";
import { recordEvent } from "../services/events";
import { eventActor } from "./objectEvents";

/** Records an event for the caller of this request (api-platform.md §10). */
export async function recordRequestEvent(
  ctx: AppContext,
  request: FastifyRequest,
  action: string,
  objectType: string,
  objectId?: string | number | null,
  details: Record<string, unknown> = {},
  timestamp?: string,
): Promise<void> {
  const { org, identity } = request.auth;
  if (!org || identity.kind === "anonymous") return;
  await recordEvent(ctx.database.db, {
    orgId: org.id,
    ...eventActor(identity),
    action,
    objectType,
    objectId,
    details: identity.kind === "user" ? { user_name: identity.user.name, ...details } : details,
    request,
    timestamp,
  });
}
