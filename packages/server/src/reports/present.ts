// Subscriptions and runs as the API shows them.
import { isScheduleActive, nextRunAt, normalizeSchedule } from "@sightline/core";
import type { Run, Subscription } from "./store";

export interface RunView {
  id: number;
  subscription_id: number;
  status: Run["status"];
  trigger: Run["trigger"];
  started_at: string;
  finished_at: string | null;
  duration_ms: number | null;
  recipients: string[];
  error: string | null;
  widgets: Run["widgets"];
  has_thumbnail: boolean;
}

export function presentRun(run: Run): RunView {
  return {
    id: run.id,
    subscription_id: run.subscription_id,
    status: run.status,
    trigger: run.trigger,
    started_at: run.started_at,
    finished_at: run.finished_at,
    duration_ms: run.duration_ms,
    recipients: run.recipients,
    error: run.error,
    widgets: run.widgets,
    has_thumbnail: run.has_thumbnail,
  };
}

/**
 * When the scheduler sends the report next: the query schedule rules, counted from the last
 * scheduled sending (or the subscription's creation: a new subscription does not send at once).
 */
export function nextReportAt(subscription: Subscription, now = new Date()): Date | null {
  if (!subscription.active) return null;
  const schedule = normalizeSchedule(subscription.schedule);
  if (!isScheduleActive(schedule, now) || schedule.interval === null) return null;
  const previous = new Date(subscription.last_scheduled_at ?? subscription.created_at);
  const next = nextRunAt(schedule, previous);
  if (!next) return null;
  const until = schedule.until ? new Date(`${schedule.until}T00:00:00Z`) : null;
  return until && next.getTime() >= until.getTime() ? null : next;
}

export function presentSubscription(
  subscription: Subscription,
  owner: { id: number; name: string; email: string } | undefined,
  lastRun: Run | undefined,
) {
  const next = nextReportAt(subscription);
  return {
    id: subscription.id,
    dashboard_id: subscription.dashboard_id,
    query_id: subscription.query_id,
    visualization_id: subscription.visualization_id,
    name: subscription.name,
    user: owner ? { id: owner.id, name: owner.name, email: owner.email } : null,
    schedule: subscription.schedule,
    format: subscription.format,
    recipients: subscription.recipients,
    parameters: subscription.parameters,
    skip_if_empty: subscription.skip_if_empty,
    only_if_changed: subscription.only_if_changed,
    active: subscription.active,
    last_run: lastRun ? presentRun(lastRun) : null,
    next_run_at: next ? next.toISOString() : null,
    created_at: subscription.created_at,
    updated_at: subscription.updated_at,
  };
}
