// The render queue: report runs wait in the metadata store (status "queued") and a worker takes
// them one statement at a time (store.claimRun), so it works the same with either query queue
// backend and across processes. In one process the worker is woken at once.
import { EventEmitter } from "node:events";
import type { Kysely } from "kysely";
import { lockRow } from "../store/rowLocks";
import type { DB } from "../store/schema";
import {
  insertRun,
  manualRunUnderWay,
  trimRuns,
  type Run,
  type RunTrigger,
  type Subscription,
} from "./store";

const wakeups = new EventEmitter();
wakeups.setMaxListeners(100);

export async function enqueueReportRun(
  db: Kysely<DB>,
  subscription: Subscription,
  trigger: RunTrigger,
): Promise<Run> {
  const run = await insertRun(db, subscription, trigger);
  await trimRuns(db, subscription.id);
  wakeups.emit("queued");
  return run;
}

/**
 * "Send now": a new manual run, or the one already queued or being sent (a double click, a
 * second tab), so one press of the button sends the report once. The subscription's row is
 * locked for the check and the insert, so two presses at once, on one server or two, cannot both
 * find none.
 */
export async function enqueueManualRun(
  db: Kysely<DB>,
  subscription: Subscription,
): Promise<{ run: Run; queued: boolean }> {
  const sent = await db.transaction().execute(async (tx) => {
    await lockRow(tx, "report_subscriptions", subscription.id);
    const underWay = await manualRunUnderWay(tx, subscription.id);
    if (underWay) return { run: underWay, queued: false };
    const run = await insertRun(tx, subscription, "manual");
    await trimRuns(tx, subscription.id);
    return { run, queued: true };
  });
  if (sent.queued) wakeups.emit("queued");
  return sent;
}

/** Calls `listener` whenever a run is queued in this process; returns the unsubscribe. */
export function onReportQueued(listener: () => void): () => void {
  wakeups.on("queued", listener);
  return () => wakeups.off("queued", listener);
}
