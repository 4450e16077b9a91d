// Deliveries of a destination (issue 25): its last failure as the API reports it, and
// "Send test notification", answered with the delivery's outcome in words.
import type { Destination } from "@sightline/core";
import { http } from "../../api/http";

/** A destination with its last failed delivery: the time for everyone, why for some. */
export type DestinationWithFailure = Destination & {
  last_failure?: string | null;
  last_failure_at?: string | null;
};

/** What a test delivery did: sent, or why not (never a secret). */
export interface TestOutcome {
  ok: boolean;
  message: string;
}

/** From the destination's page (admins). */
export function testDestination(id: number): Promise<TestOutcome> {
  return http.post<TestOutcome>(`api/destinations/${id}/test`);
}

/** From the alert's page: one of its subscriptions (the alert's owner and admins). */
export function testSubscription(alertId: number, subscriptionId: number): Promise<TestOutcome> {
  return http.post<TestOutcome>(`api/alerts/${alertId}/subscriptions/${subscriptionId}/test`);
}
