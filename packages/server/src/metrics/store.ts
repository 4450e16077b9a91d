import type { Kysely } from "kysely";
import { Gauge, type Registry } from "prom-client";
import { SCHEDULER_STATE_KEY, readState, type SchedulerState } from "../execution/serverState";
import type { DB } from "../store/schema";

/**
 * What the metadata store says at scrape time: how long ago the scheduler last completed a pass
 * (any scheduler process: its state is shared), and the stored results' size (as System Status
 * shows it). A store out of reach reports nothing; /readyz says why.
 */
export function registerStoreMetrics(registry: Registry, db: Kysely<DB>): void {
  new Gauge({
    name: "sightline_scheduler_last_pass_age_seconds",
    help: "Seconds since a scheduler last completed a pass (absent before the first pass).",
    registers: [registry],
    async collect() {
      this.reset();
      const state = await readState<SchedulerState | null>(db, SCHEDULER_STATE_KEY, null).catch(
        () => null,
      );
      if (state?.last_refresh_at == null) return;
      this.set(Math.max(0, Date.now() / 1000 - state.last_refresh_at));
    },
  });
  new Gauge({
    name: "sightline_query_results_bytes",
    help: "Size of the stored query results, bytes.",
    registers: [registry],
    async collect() {
      this.reset();
      const row = await db
        .selectFrom("query_results")
        .select((eb) => eb.fn.sum<number>("byte_size").as("n"))
        .executeTakeFirst()
        .catch(() => null);
      if (row) this.set(Number(row.n ?? 0));
    },
  });
}
