import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppContext } from "../context";
import { badRequest } from "./errors";
import * as S from "./schemas";
import { checkPage, pageParams } from "./listParams";
import { recordRequestEvent } from "./requestEvents";
import { requireAdmin, requireLogin } from "../policies";
import { countEvents, listEvents } from "../store/events";
import { presentEvent } from "../presenters/events";

/** At most this many events in one POST (the web client sends a few at a time). */
const MAX_EVENTS_PER_POST = 500;
const MAX_NAME_LENGTH = 200;

/** Keys the server sets itself; a client cannot supply them. */
const SERVER_KEYS = new Set([
  "action",
  "object_type",
  "object_id",
  "timestamp",
  "user_id",
  "user_name",
  "org_id",
  "api_key",
  "user_agent",
  "ip",
]);

// ---- Route documentation (the shapes are in ./schemas) ----

const tags = ["events"];

const docs = {
  record: {
    tags,
    summary: "Record usage events from the web app",
    body: S.array(
      S.object(
        {
          action: S.str,
          object_type: S.str,
          object_id: { anyOf: [S.str, S.num, { type: "null" }] },
          timestamp: { ...S.num, description: "Seconds since the epoch (default: now)" },
        },
        ["action", "object_type"],
        "An event; other keys are stored with it",
      ),
      `At most ${MAX_EVENTS_PER_POST} events`,
    ),
    response: { 200: S.nullBody, ...S.errors(400, 404) },
  },
  list: {
    tags,
    summary: "List events, newest first (admin)",
    querystring: S.object(S.pageQuerystring),
    response: { 200: S.paginated(S.event, "A page of events"), ...S.errors(400, 403, 404) },
  },
};

interface ClientEvent {
  action: string;
  objectType: string;
  objectId: string | null;
  timestamp: string | undefined;
  extra: Record<string, unknown>;
}

function shortString(value: unknown, key: string, index: number): string {
  if (typeof value !== "string" || !value || value.length > MAX_NAME_LENGTH) {
    throw badRequest(`Event ${index}: '${key}' must be a non-empty string.`);
  }
  return value;
}

/** Validates one event of a POST body (api-platform.md §7.4). */
function readEvent(item: unknown, index: number): ClientEvent {
  if (!item || typeof item !== "object" || Array.isArray(item)) {
    throw badRequest(`Event ${index} must be an object.`);
  }
  const e = item as Record<string, unknown>;
  const objectId = e.object_id;
  if (
    objectId !== undefined &&
    objectId !== null &&
    typeof objectId !== "string" &&
    typeof objectId !== "number"
  ) {
    throw badRequest(`Event ${index}: 'object_id' must be a string or a number.`);
  }
  let timestamp: string | undefined;
  if (e.timestamp !== undefined && e.timestamp !== null) {
    const seconds = e.timestamp;
    const date = typeof seconds === "number" ? new Date(seconds * 1000) : null;
    if (!date || Number.isNaN(date.getTime()) || (seconds as number) < 0) {
      throw badRequest(`Event ${index}: 'timestamp' must be seconds since the epoch.`);
    }
    timestamp = date.toISOString();
  }
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(e)) if (!SERVER_KEYS.has(key)) extra[key] = value;
  return {
    action: shortString(e.action, "action", index),
    objectType: shortString(e.object_type, "object_type", index),
    objectId: objectId === undefined || objectId === null ? null : String(objectId),
    timestamp,
    extra,
  };
}

function readEvents(request: FastifyRequest): ClientEvent[] {
  const body = request.body;
  if (!Array.isArray(body)) throw badRequest("The request body must be a JSON array of events.");
  if (body.length > MAX_EVENTS_PER_POST) {
    throw badRequest(`At most ${MAX_EVENTS_PER_POST} events can be sent at once.`);
  }
  return body.map(readEvent);
}

/** Usage events: the web client reports them, admins list them (api-platform.md §7.4). */
export async function eventRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const db = ctx.database.db;

  app.post("/api/events", { schema: docs.record }, async (request, reply) => {
    requireLogin(request);
    // Every event is checked before any is stored.
    const events = readEvents(request);
    for (const e of events) {
      await recordRequestEvent(
        ctx,
        request,
        e.action,
        e.objectType,
        e.objectId,
        e.extra,
        e.timestamp,
      );
    }
    return reply.send(null);
  });

  app.get("/api/events", { schema: docs.list }, async (request) => {
    const { org } = requireAdmin(request);
    const page = pageParams(request);
    const count = await countEvents(db, org.id);
    checkPage(page, count);
    const events = await listEvents(db, org.id, page.pageSize, (page.page - 1) * page.pageSize);
    return {
      count,
      page: page.page,
      page_size: page.pageSize,
      results: events.map(presentEvent),
    };
  });
}
