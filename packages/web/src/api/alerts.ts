// Typed calls of the alerts area (spec 3 §7 Alerts and destinations; api-platform.md §7.9).
import type { Alert, AlertOptions, AlertState, AlertSubscription } from "@sightline/core";
import { http } from "./http";

export type { Alert, AlertOptions, AlertState, AlertSubscription };

/** What the alert form saves: the query travels as query_id (spec 3 §7). */
export interface AlertInput {
  name: string;
  query_id: number;
  options: AlertOptions;
  rearm: number | null;
}

/** Legacy operator words stored by old clients, shown as their symbols (spec 3 §7). */
const OPERATOR_WORDS: Record<string, string> = {
  "greater than": ">",
  "less than": "<",
  equals: "==",
};

function withSymbols(alert: Alert): Alert {
  const op = alert.options?.op;
  if (typeof op !== "string" || !(op in OPERATOR_WORDS)) return alert;
  return { ...alert, options: { ...alert.options, op: OPERATOR_WORDS[op] } };
}

export function listAlerts(): Promise<Alert[]> {
  return http.get<Alert[]>("api/alerts");
}

export async function getAlert(id: number): Promise<Alert> {
  return withSymbols(await http.get<Alert>(`api/alerts/${id}`));
}

export function createAlert(input: AlertInput): Promise<Alert> {
  return http.post<Alert>("api/alerts", input);
}

export function saveAlert(id: number, input: AlertInput): Promise<Alert> {
  return http.post<Alert>(`api/alerts/${id}`, input);
}

export function deleteAlert(id: number): Promise<null> {
  return http.delete<null>(`api/alerts/${id}`);
}

export function setAlertMuted(id: number, muted: boolean): Promise<null> {
  const path = `api/alerts/${id}/mute`;
  return muted ? http.post<null>(path) : http.delete<null>(path);
}

export function listSubscriptions(alertId: number): Promise<AlertSubscription[]> {
  return http.get<AlertSubscription[]>(`api/alerts/${alertId}/subscriptions`);
}

/** Subscribes the caller: to a destination, or (without one) to e-mail at their own address. */
export function subscribe(alertId: number, destinationId?: number): Promise<AlertSubscription> {
  const body =
    destinationId === undefined
      ? { alert_id: alertId }
      : { alert_id: alertId, destination_id: destinationId };
  return http.post<AlertSubscription>(`api/alerts/${alertId}/subscriptions`, body);
}

export function unsubscribe(alertId: number, subscriptionId: number): Promise<null> {
  return http.delete<null>(`api/alerts/${alertId}/subscriptions/${subscriptionId}`);
}
