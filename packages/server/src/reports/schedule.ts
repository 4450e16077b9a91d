// Scheduled sending: the scheduler's pass (execution/scheduler.ts) queues a run of every active
// subscription whose schedule is due, with the query schedule rules (nextReportAt). A schedule
// that came due while the scheduler was down sends once when it is back, not once per missed time.
import type { Kysely } from "kysely";
import type { DB } from "../store/schema";
import { nextReportAt } from "./present";
import { enqueueReportRun } from "./queue";
import { activeSubscriptions, markScheduled } from "./store";

/** Queues the due reports; returns the subscriptions queued. */
export async function enqueueDueReports(db: Kysely<DB>, now = new Date()): Promise<number[]> {
  const queued: number[] = [];
  const subscriptions = await activeSubscriptions(db);
  if (subscriptions.length === 0) return queued;
  const live = new Set(
    (
      await db
        .selectFrom("report_runs")
        .select("subscription_id")
        .where("status", "in", ["queued", "running"])
        .execute()
    ).map((row) => row.subscription_id),
  );
  for (const subscription of subscriptions) {
    const next = nextReportAt(subscription, now);
    if (!next || next.getTime() > now.getTime()) continue;
    // Still sending the last one: this time is taken as sent, so they cannot pile up.
    await markScheduled(db, subscription.id, now.toISOString());
    if (live.has(subscription.id)) continue;
    await enqueueReportRun(db, subscription, "schedule");
    queued.push(subscription.id);
  }
  return queued;
}
