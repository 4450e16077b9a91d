import type { FastifyInstance, FastifyRequest } from "fastify";
import { parseAlertNumber, type AlertOptions } from "@sightline/core";
import type { AppContext } from "../context";
import type { Identity } from "../auth/identity";
import { createAlertService } from "../alerts/evaluation";
import { templateProblem } from "../alerts/templates";
import {
  accessAllows,
  isAdmin,
  isAdminOrSelf,
  queryAccess,
  requireAdminOrOwner,
  requireLogin,
  requirePermission,
  requireUser,
} from "../policies";
import { presentAlert, presentSubscription } from "../presenters/alerts";
import {
  deleteAlert,
  deleteSubscription,
  findAlert,
  findSameSubscription,
  findSubscription,
  insertAlert,
  insertSubscription,
  listAlertsForGroups,
  listSubscriptions,
  updateAlert,
  type Alert,
  type AlertChanges,
} from "../store/alerts";
import { groupLinksOf } from "../store/dataSources";
import { destinationsByIds, findDestination } from "../store/destinations";
import { findQueriesByIds, findQuery, type Query } from "../store/queries";
import { usersByIds } from "../store/users";
import { badRequest, forbidden, notFound } from "./errors";
import { bodyId, bodyObject, parseId, requiredName, requiredObject } from "./input";
import * as S from "./schemas";
import { recordRequestEvent } from "./requestEvents";

type Params = { Params: { id: string } };
type SubscriptionParams = { Params: { id: string; subscriptionId: string } };

// ---- Route documentation (the shapes are in ./schemas) ----

const tags = ["alerts"];

const alertBody = S.object(
  {
    name: S.str,
    query_id: S.int,
    options: { ...S.anyObject, description: "column, op, value, selector, muted, templates" },
    rearm: S.orNull({ ...S.int, description: "Seconds between repeated notifications" }),
  },
  ["name", "query_id", "options"],
);

const docs = {
  list: {
    tags,
    summary: "List the alerts on data sources of the caller's groups",
    response: { 200: S.array(S.alert, "Alerts by id"), ...S.errors(403, 404) },
  },
  create: {
    tags,
    summary: "Create an alert",
    body: alertBody,
    response: { 200: S.alert, ...S.errors(400, 403, 404) },
  },
  get: {
    tags,
    summary: "Get an alert",
    params: S.idParams,
    response: { 200: S.alert, ...S.errors(403, 404) },
  },
  update: {
    tags,
    summary:
      "Change an alert (owner or admin); options are replaced whole, except that options without muted keep the stored flag",
    params: S.idParams,
    body: { ...alertBody, required: [] },
    response: { 200: S.alert, ...S.errors(400, 403, 404) },
  },
  delete: {
    tags,
    summary: "Delete an alert and its subscriptions (owner or admin)",
    params: S.idParams,
    response: { 200: S.nullBody, ...S.errors(403, 404) },
  },
  mute: {
    tags,
    summary: "Mute an alert's automatic notifications (owner or admin)",
    params: S.idParams,
    response: { 200: S.nullBody, ...S.errors(403, 404) },
  },
  unmute: {
    tags,
    summary: "Unmute an alert (owner or admin)",
    params: S.idParams,
    response: { 200: S.nullBody, ...S.errors(403, 404) },
  },
  evaluate: {
    tags,
    summary: "Evaluate an alert now and notify every subscription (owner or admin)",
    params: S.idParams,
    response: { 200: S.nullBody, ...S.errors(403, 404) },
  },
  subscriptions: {
    tags,
    summary: "List an alert's subscriptions",
    params: S.idParams,
    response: { 200: S.array(S.alertSubscription, "Subscriptions by id"), ...S.errors(403, 404) },
  },
  subscribe: {
    tags,
    summary: "Subscribe the caller to an alert, by e-mail or through a destination",
    params: S.idParams,
    body: S.object({ destination_id: S.int }),
    response: { 200: S.alertSubscription, ...S.errors(400, 403, 404) },
  },
  unsubscribe: {
    tags,
    summary: "Remove a subscription (its subscriber or an admin)",
    params: S.params({ id: S.int, subscriptionId: S.int }),
    response: { 200: S.nullBody, ...S.errors(403, 404) },
  },
};

// ---- Input ----

/** Which value of the column is compared (reference §9.1); absent means `first`. */
const SELECTORS: readonly unknown[] = ["first", "min", "max"];

/**
 * The threshold, `options.value`: Redash stores it as the client sent it, a number or text (text
 * that does not read as a number is compared as text). A number must be finite: JSON's 1e400
 * arrives as Infinity, and "1e400", "inf" or "nan" would compare as such. Numbers beyond 2^53 are
 * accepted and stored as JSON reads them (12345678901234567890 becomes 12345678901234567000):
 * Redash compares thresholds as floats too, so nothing changes for its clients; one that wants the
 * digits kept as typed sends them as text, which compares the same.
 */
function checkThreshold(value: unknown): void {
  const number = parseAlertNumber(value);
  if (number !== null && !Number.isFinite(number)) {
    throw badRequest("The threshold (options.value) must be a finite number.");
  }
}

function readOptions(value: unknown): AlertOptions {
  const options: AlertOptions = requiredObject(value, "options");
  if (options.selector !== undefined && !SELECTORS.includes(options.selector)) {
    throw badRequest("selector must be first, min or max.");
  }
  checkThreshold(options.value);
  // A template that cannot be rendered would only fail later, when the alert fires.
  for (const key of ["custom_subject", "custom_body", "template"] as const) {
    const problem = templateProblem(options[key]);
    if (problem) throw badRequest(`${key} is not a valid template: ${problem}`);
  }
  return options;
}

/** Seconds (a whole number, 0 or more) or null for none. */
function readRearm(value: unknown): number | null {
  if (value === null || value === undefined || value === "") return null;
  const number = typeof value === "string" && /^\d{1,10}$/.test(value) ? Number(value) : value;
  if (typeof number !== "number" || !Number.isSafeInteger(number) || number < 0) {
    throw badRequest("rearm must be a whole number of seconds or null.");
  }
  return number;
}

/** Alerts and their subscriptions (api-platform.md §7.9); events per §10. */
export async function alertRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const db = ctx.database.db;
  const alerts = createAlertService({
    db,
    config: ctx.config,
    keys: ctx.keys,
    mailer: ctx.mailer,
    log: ctx.log,
  });

  async function canView(identity: Identity, query: Query): Promise<boolean> {
    const links = query.data_source_id === null ? [] : await groupLinksOf(db, query.data_source_id);
    return accessAllows(await queryAccess(db, identity, query, links), "view");
  }

  async function queryOf(orgId: number, queryId: number): Promise<Query> {
    const query = await findQuery(db, orgId, queryId);
    if (!query) throw badRequest("Query not found.");
    return query;
  }

  /** The alert and its query, for a caller with view access to the query (404 / 403). */
  async function load(request: FastifyRequest<Params>) {
    const { identity, org } = requireLogin(request);
    const alert = await findAlert(db, org.id, parseId(request.params.id));
    if (!alert) throw notFound();
    const query = await findQuery(db, org.id, alert.query_id);
    if (!query || !(await canView(identity, query))) throw forbidden();
    return { identity, org, alert, query };
  }

  /** The alert, for its owner or an admin. */
  async function loadForEdit(request: FastifyRequest<Params>) {
    const { identity, org } = requireLogin(request);
    const alert = await findAlert(db, org.id, parseId(request.params.id));
    if (!alert) throw notFound();
    requireAdminOrOwner(identity, alert.user_id);
    return { identity, org, alert };
  }

  async function present(alerts: Alert[], orgId: number) {
    const queries = new Map(
      (
        await findQueriesByIds(
          db,
          orgId,
          alerts.map((a) => a.query_id),
        )
      ).map((q) => [q.id, q]),
    );
    const users = await usersByIds(db, [
      ...alerts.map((a) => a.user_id),
      ...[...queries.values()].flatMap((q) => [q.user_id, q.last_modified_by_id]),
    ]);
    return alerts.flatMap((alert) => {
      const query = queries.get(alert.query_id);
      return query ? [presentAlert(alert, query, users)] : [];
    });
  }

  async function presentOne(alertId: number, orgId: number) {
    const alert = await findAlert(db, orgId, alertId);
    return (await present(alert ? [alert] : [], orgId))[0]!;
  }

  app.get("/api/alerts", { schema: docs.list }, async (request) => {
    const { identity, org } = requirePermission(request, "list_alerts");
    const list = await listAlertsForGroups(db, org.id, identity.groupIds);
    await recordRequestEvent(ctx, request, "list", "alert");
    return present(list, org.id);
  });

  app.post("/api/alerts", { schema: docs.create }, async (request) => {
    const { identity, org } = requireUser(request);
    const body = bodyObject(request);
    const name = requiredName(body.name);
    const queryId = bodyId(body, "query_id");
    const options = readOptions(body.options);
    const rearm = readRearm(body.rearm);
    const query = await queryOf(org.id, queryId);
    if (!(await canView(identity, query))) throw forbidden();
    const alert = await insertAlert(db, {
      orgId: org.id,
      userId: identity.user.id,
      name,
      queryId: query.id,
      options,
      rearm,
    });
    await alerts.evaluateNew(alert);
    await recordRequestEvent(ctx, request, "create", "alert", alert.id);
    return presentOne(alert.id, org.id);
  });

  app.get<Params>("/api/alerts/:id", { schema: docs.get }, async (request) => {
    const { org, alert } = await load(request);
    await recordRequestEvent(ctx, request, "view", "alert", alert.id);
    return presentOne(alert.id, org.id);
  });

  app.post<Params>("/api/alerts/:id", { schema: docs.update }, async (request) => {
    const { identity, org, alert } = await loadForEdit(request);
    const body = bodyObject(request);
    const changes: AlertChanges = {};
    if (body.name !== undefined) changes.name = requiredName(body.name);
    if (body.options !== undefined) {
      const options = readOptions(body.options);
      // Muting has its own routes: options sent without the flag (an edit form opened before
      // another tab muted the alert) keep the stored one instead of unmuting it.
      const stored = alert.options.muted;
      changes.options =
        options.muted === undefined && stored !== undefined
          ? { ...options, muted: stored }
          : options;
    }
    if (body.rearm !== undefined) changes.rearm = readRearm(body.rearm);
    if (body.query_id !== undefined) {
      // Same rule as creating: the alert answers its query's text and sends its rows on.
      const query = await queryOf(org.id, bodyId(body, "query_id"));
      if (!(await canView(identity, query))) throw forbidden();
      changes.queryId = query.id;
    }
    await updateAlert(db, alert.id, changes);
    await recordRequestEvent(ctx, request, "edit", "alert", alert.id);
    return presentOne(alert.id, org.id);
  });

  app.delete<Params>("/api/alerts/:id", { schema: docs.delete }, async (request) => {
    const { alert } = await loadForEdit(request);
    await deleteAlert(db, alert.id);
    return null;
  });

  for (const [method, muted] of [
    ["POST", true],
    ["DELETE", false],
  ] as const) {
    app.route<Params>({
      method,
      url: "/api/alerts/:id/mute",
      schema: muted ? docs.mute : docs.unmute,
      handler: async (request) => {
        const { alert } = await loadForEdit(request);
        await updateAlert(db, alert.id, { options: { ...alert.options, muted } });
        await recordRequestEvent(ctx, request, muted ? "mute" : "unmute", "alert", alert.id);
        return null;
      },
    });
  }

  app.post<Params>("/api/alerts/:id/eval", { schema: docs.evaluate }, async (request) => {
    const { alert } = await loadForEdit(request);
    await alerts.evaluateNow(alert);
    await recordRequestEvent(ctx, request, "evaluate", "alert", alert.id);
    return null;
  });

  app.get<Params>(
    "/api/alerts/:id/subscriptions",
    { schema: docs.subscriptions },
    async (request) => {
      const { alert, identity } = await load(request);
      const subscriptions = await listSubscriptions(db, alert.id);
      const users = await usersByIds(
        db,
        subscriptions.map((s) => s.user_id),
      );
      const destinations = await destinationsByIds(
        db,
        subscriptions.map((s) => s.destination_id),
      );
      const withReason = isAdminOrSelf(identity, alert.user_id);
      return subscriptions.map((s) => presentSubscription(s, users, destinations, withReason));
    },
  );

  app.post<Params>("/api/alerts/:id/subscriptions", { schema: docs.subscribe }, async (request) => {
    const { alert, identity, org } = await load(request);
    if (identity.kind !== "user") throw forbidden();
    const body = bodyObject(request);
    // Absent: the caller by e-mail. Given, it must name a destination: redash-migrate sends null
    // for one it could not copy, which must not turn into an e-mail subscription of the caller.
    const destinationId = body.destination_id === undefined ? null : bodyId(body, "destination_id");
    const destination =
      destinationId === null ? null : await findDestination(db, org.id, destinationId);
    if (destinationId !== null && !destination) throw badRequest("Destination not found.");
    if (await findSameSubscription(db, alert.id, identity.user.id, destinationId)) {
      throw badRequest(
        destination
          ? `This alert already sends to ${destination.name}.`
          : "You are already subscribed to this alert.",
      );
    }
    const subscription = await insertSubscription(db, {
      alertId: alert.id,
      userId: identity.user.id,
      destinationId,
    });
    await recordRequestEvent(ctx, request, "subscribe", "alert", alert.id, {
      destination: destinationId,
    });
    return presentSubscription(
      subscription,
      new Map([[identity.user.id, identity.user]]),
      new Map(destination ? [[destination.id, destination]] : []),
      isAdminOrSelf(identity, alert.user_id),
    );
  });

  app.delete<SubscriptionParams>(
    "/api/alerts/:id/subscriptions/:subscriptionId",
    { schema: docs.unsubscribe },
    async (request) => {
      const { identity, org } = requireLogin(request);
      const subscription = await findSubscription(
        db,
        org.id,
        parseId(request.params.subscriptionId),
      );
      if (!subscription) throw notFound();
      const own = identity.kind === "user" && identity.user.id === subscription.user_id;
      if (!own && !isAdmin(identity)) throw forbidden();
      await deleteSubscription(db, subscription.id);
      await recordRequestEvent(ctx, request, "unsubscribe", "alert", subscription.alert_id);
      return null;
    },
  );
}
