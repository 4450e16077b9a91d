// The render queue on the status pages (GET /api/admin/queries/rq_status): runs waiting and
// being made now, and each worker's render times and browser memory (reports/worker.ts).
import type { Kysely } from "kysely";
import { readState } from "../execution/serverState";
import type { DB } from "../store/schema";
import { REPORT_WORKERS_KEY, type ReportWorkerStatus } from "./worker";

export interface ReportQueueStatus {
  queued: number;
  running: number;
  workers: ReportWorkerStatus[];
}

export async function reportQueueStatus(db: Kysely<DB>): Promise<ReportQueueStatus> {
  const counts = await db
    .selectFrom("report_runs")
    .select(["status", (eb) => eb.fn.countAll<number>().as("n")])
    .where("status", "in", ["queued", "running"])
    .groupBy("status")
    .execute();
  const n = (status: string) => Number(counts.find((c) => c.status === status)?.n ?? 0);
  const workers = await readState<Record<string, ReportWorkerStatus>>(db, REPORT_WORKERS_KEY, {});
  return { queued: n("queued"), running: n("running"), workers: Object.values(workers) };
}
