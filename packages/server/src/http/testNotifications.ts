import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppContext } from "../context";
import { email } from "../destinations/email";
import { readDestinationOptions } from "../destinations/options";
import { findDestinationType } from "../destinations/registry";
import {
  sendTest,
  testNotification,
  type TestOutcome,
  type TestSubject,
} from "../destinations/testNotification";
import type { DeliveryTools } from "../destinations/types";
import { createOutboundClient } from "../outbound/client";
import { requireAdmin, requireAdminOrOwner, requireLogin } from "../policies";
import { presentCompactAlert } from "../presenters/alerts";
import { findAlert, findSubscription } from "../store/alerts";
import { findDestination, type Destination } from "../store/destinations";
import { findQuery } from "../store/queries";
import { usersByIds } from "../store/users";
import { notFound } from "./errors";
import { parseId } from "./input";
import * as S from "./schemas";
import { recordRequestEvent } from "./requestEvents";

type Params = { Params: { id: string } };
type SubscriptionParams = { Params: { id: string; subscriptionId: string } };

const outcome = S.object(
  {
    ok: { ...S.bool, description: "Whether the destination took the notification" },
    message: { ...S.str, description: "What happened, in words (why it failed)" },
  },
  ["ok", "message"],
  "The test delivery's outcome",
);

const docs = {
  destination: {
    tags: ["destinations"],
    summary: "Send a test notification to a destination now and tell how it went (admin)",
    params: S.idParams,
    response: { 200: outcome, ...S.errors(403, 404) },
  },
  subscription: {
    tags: ["alerts"],
    summary:
      "Send a test notification of the alert to one of its subscriptions now and tell how it went (owner or admin)",
    params: S.params({ id: S.storedId, subscriptionId: S.storedId }),
    response: { 200: outcome, ...S.errors(403, 404) },
  },
};

/**
 * "Send test notification" (issue 25): from a destination's page, and from an alert's page for
 * each of its subscriptions. One delivery, answered with its outcome in words; a failure is an
 * answer (200, ok false), not an error of the request.
 */
export async function testNotificationRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const db = ctx.database.db;
  const tools: DeliveryTools = {
    outbound: createOutboundClient({ allowedRanges: ctx.config.outboundAllowedRanges }),
    mailer: ctx.mailer,
  };
  const host = () => ctx.config.baseUrl.replace(/\/+$/, "");

  function sendToDestination(
    destination: Destination,
    subject: TestSubject | null,
  ): Promise<TestOutcome> | TestOutcome {
    const type = findDestinationType(destination.type);
    if (!type) {
      return {
        ok: false,
        message: `This server does not know the destination type "${destination.type}".`,
      };
    }
    let options;
    try {
      options = readDestinationOptions(ctx, destination);
    } catch {
      return {
        ok: false,
        message: `The options of ${destination.name} cannot be read (they were saved with another secret key).`,
      };
    }
    return sendTest(destination.name, type, options, testNotification(host(), subject), tools);
  }

  app.post<Params>("/api/destinations/:id/test", { schema: docs.destination }, async (request) => {
    const { org } = requireAdmin(request);
    const destination = await findDestination(db, org.id, parseId(request.params.id));
    if (!destination) throw notFound();
    await recordRequestEvent(ctx, request, "test", "destination", destination.id);
    return sendToDestination(destination, null);
  });

  app.post<SubscriptionParams>(
    "/api/alerts/:id/subscriptions/:subscriptionId/test",
    { schema: docs.subscription },
    async (request: FastifyRequest<SubscriptionParams>) => {
      const { identity, org } = requireLogin(request);
      const alert = await findAlert(db, org.id, parseId(request.params.id));
      if (!alert) throw notFound();
      requireAdminOrOwner(identity, alert.user_id);
      const subscription = await findSubscription(
        db,
        org.id,
        parseId(request.params.subscriptionId),
      );
      if (!subscription || subscription.alert_id !== alert.id) throw notFound();
      const query = await findQuery(db, org.id, alert.query_id);
      if (!query) throw notFound();
      const subject: TestSubject = {
        alert: presentCompactAlert(alert),
        query: { id: query.id, name: query.name, query: query.query },
      };
      await recordRequestEvent(ctx, request, "test", "alert", alert.id);
      if (subscription.destination_id !== null) {
        const destination = await findDestination(db, org.id, subscription.destination_id);
        if (!destination) throw notFound();
        return sendToDestination(destination, subject);
      }
      // The e-mail-to-self kind: to the subscriber's address.
      const user = (await usersByIds(db, [subscription.user_id])).get(subscription.user_id);
      if (!user) throw notFound();
      return sendTest(
        user.email,
        email,
        { addresses: user.email },
        testNotification(host(), subject),
        tools,
      );
    },
  );
}
