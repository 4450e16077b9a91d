import type { Alert, Subscription } from "../store/alerts";
import type { Destination } from "../store/destinations";
import type { Query } from "../store/queries";
import type { User } from "../store/users";
import { presentDestination } from "./destinations";
import { presentQueryDetail } from "./queries";
import { presentUser } from "./users";

/** Alert and subscription JSON (api-platform.md §6.7, §6.8). */

/** The first eight fields, shared by the full and compact forms. */
export function alertFields(alert: Alert) {
  return {
    id: alert.id,
    name: alert.name,
    options: alert.options,
    state: alert.state,
    last_triggered_at: alert.last_triggered_at,
    updated_at: alert.updated_at,
    created_at: alert.created_at,
    rearm: alert.rearm,
  };
}

/** The full form, with its query (and the query's users) and owner from `users`. */
export function presentAlert(alert: Alert, query: Query, users: Map<number, User>) {
  const owner = users.get(alert.user_id);
  return {
    ...alertFields(alert),
    query: presentQueryDetail(query, { users }),
    user: owner ? presentUser(owner) : null,
  };
}

/** The compact form (webhook payloads): ids instead of the query and the owner. */
export function presentCompactAlert(alert: Alert) {
  return { ...alertFields(alert), query_id: alert.query_id, user_id: alert.user_id };
}

/**
 * A subscription; its destination carries when its last delivery failed, and why for those who
 * may send it a test (`withReason`: the alert's owner and admins), so a failing one shows on
 * every alert that uses it.
 */
export function presentSubscription(
  subscription: Subscription,
  users: Map<number, User>,
  destinations: Map<number, Destination>,
  withReason = false,
) {
  const user = users.get(subscription.user_id);
  const destination =
    subscription.destination_id === null
      ? undefined
      : destinations.get(subscription.destination_id);
  return {
    id: subscription.id,
    user: user ? presentUser(user) : null,
    alert_id: subscription.alert_id,
    ...(destination
      ? {
          destination: {
            ...presentDestination(destination),
            last_failure_at: destination.last_failure_at ?? null,
            ...(withReason ? { last_failure: destination.last_failure ?? null } : {}),
          },
        }
      : {}),
  };
}
