// The render queue: report runs wait in the metadata store (status "queued") and a worker takes
// them one statement at a time (store.claimRun), so it works the same with either query queue
// backend and across processes. In one process the worker is woken at once.
import { EventEmitter } from "node:events";
import type { Kysely } from "kysely";
import type { DB } from "../store/schema";
import { insertRun, trimRuns, type Run, type RunTrigger, type Subscription } from "./store";

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

/** Calls `listener` whenever a run is queued in this process; returns the unsubscribe. */
export function onReportQueued(listener: () => void): () => void {
  wakeups.on("queued", listener);
  return () => wakeups.off("queued", listener);
}
