// What a subscriptions drawer is about (issue 28): a dashboard, or one visualization of a query.
// The drawer reads from here whose subscriptions to list, the report's parameters and their
// current values, and the words that name the target.
import type { Query, Visualization } from "@sightline/core";
import type { DashboardDetail } from "../../api/dashboards";
import type { ReportOwner, ReportSubscription } from "../../api/reports";
import { dashboardParameters, type DashboardParameter } from "../../lib/parameterMappings";
import { dashboardParameterValues } from "../dashboards/dashboardParameters";

export type SubscriptionTarget =
  | { kind: "dashboard"; dashboard: DashboardDetail }
  | {
      kind: "query";
      query: Query;
      visualization: Pick<Visualization, "id" | "name">;
      /** The query page's current parameter values. */
      values: Record<string, unknown>;
    };

export const noSubscriptionsText = (target: SubscriptionTarget) =>
  `No report subscriptions yet. Subscribe to have this ${
    target.kind === "dashboard" ? "dashboard" : "visualization"
  } sent by e-mail or to a destination on a schedule.`;

export function targetOwner(target: SubscriptionTarget): ReportOwner {
  return target.kind === "dashboard"
    ? { kind: "dashboard", id: target.dashboard.id }
    : { kind: "query", id: target.query.id };
}

/** The name a new subscription's default is made from. */
export function targetName(target: SubscriptionTarget): string {
  return target.kind === "dashboard"
    ? target.dashboard.name
    : `${target.query.name}: ${target.visualization.name}`;
}

/** A query's subscriptions are listed together; the drawer shows its visualization's only. */
export function targetSubscriptions(
  target: SubscriptionTarget,
  list: readonly ReportSubscription[],
): ReportSubscription[] {
  return target.kind === "dashboard"
    ? [...list]
    : list.filter((s) => s.visualization_id === target.visualization.id);
}

/** The parameters a report of the target takes (a query's own, or the dashboard's). */
export function targetParameters(target: SubscriptionTarget): DashboardParameter[] {
  if (target.kind === "query") {
    return (target.query.options?.parameters ?? []).map((def) => ({
      ...def,
      parentQueryId: target.query.id,
    }));
  }
  const order = target.dashboard.options?.globalParamOrder;
  return dashboardParameters(
    target.dashboard.widgets ?? [],
    Array.isArray(order) ? order.map(String) : [],
  );
}

/** The values a new subscription starts with: the page's current ones. */
export function targetValues(
  target: SubscriptionTarget,
  parameters: readonly DashboardParameter[],
  search: URLSearchParams,
): Record<string, unknown> {
  if (target.kind === "dashboard") return dashboardParameterValues(parameters, search);
  const out: Record<string, unknown> = {};
  for (const def of parameters) {
    if (def.name in target.values) out[def.name] = target.values[def.name];
    else if (def.value !== undefined) out[def.name] = def.value;
  }
  return out;
}
