// The render queue: report runs wait in the metadata store (status "queued") and a worker takes
// them one statement at a time (store.claimRun), so it works the same with either query queue
// backend and across processes. In one process the worker is woken at once.
import { EventEmitter } from "node:events";
import type { Kysely } from "kysely";
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

/** "Send now"s of one subscription, one after another in this process. */
const sendingNow = new Map<number, Promise<{ run: Run; queued: boolean }>>();

/**
 * "Send now": a new manual run, or the one already queued or being sent (a double click, a
 * second tab), so one press of the button sends the report once. Presses of the same
 * subscription are taken one at a time, so two at once cannot both find none.
 */
export function enqueueManualRun(
  db: Kysely<DB>,
  subscription: Subscription,
): Promise<{ run: Run; queued: boolean }> {
  const before = sendingNow.get(subscription.id) ?? Promise.resolve(null);
  const next = before
    .catch(() => null)
    .then(async () => {
      const underWay = await manualRunUnderWay(db, subscription.id);
      if (underWay) return { run: underWay, queued: false };
      return { run: await enqueueReportRun(db, subscription, "manual"), queued: true };
    });
  sendingNow.set(subscription.id, next);
  const forget = () => {
    if (sendingNow.get(subscription.id) === next) sendingNow.delete(subscription.id);
  };
  next.then(forget, forget);
  return next;
}

/** Calls `listener` whenever a run is queued in this process; returns the unsubscribe. */
export function onReportQueued(listener: () => void): () => void {
  wakeups.on("queued", listener);
  return () => wakeups.off("queued", listener);
}
