import type { Kysely } from "kysely";
import { isOutdated } from "@sightline/core";
import { queriesWithFailedLastScheduledRun } from "../store/queryRuns";
import type { DB } from "../store/schema";
import { bool, parseJson } from "../store/values";
import { selectScheduledQueries } from "../store/scheduledQueries";
import {
  readState,
  SCHEDULER_LAST_RUNS_KEY,
  SCHEDULER_STATE_KEY,
  type SchedulerState,
} from "./serverState";

/** A schedule is late when it was due more than this long ago and has not run. */
export const LATE_MARGIN_SECONDS = 300;

export interface ScheduleHealth {
  /** Epoch seconds of the scheduler's last pass (its heartbeat), null when it never ran. */
  heartbeat_at: number | null;
  /** Seconds since the heartbeat, null when it never ran. */
  heartbeat_age: number | null;
  /** Scheduled queries due more than LATE_MARGIN_SECONDS ago that have not run. */
  late_schedules_count: number;
  late_margin_seconds: number;
  /** Scheduled queries whose last scheduled run failed (they back off until one succeeds). */
  failing_schedules_count: number;
}

/** The scheduler's heartbeat and the late schedules, for /status.json and System Status. */
export async function scheduleHealth(db: Kysely<DB>, now = new Date()): Promise<ScheduleHealth> {
  const state = await readState<SchedulerState | null>(db, SCHEDULER_STATE_KEY, null);
  const lastRuns = await readState<Record<string, string>>(db, SCHEDULER_LAST_RUNS_KEY, {});
  const rows = await selectScheduledQueries(db)
    .select([
      "queries.id",
      "queries.schedule",
      "queries.schedule_failures",
      "data_sources.paused",
      "query_results.retrieved_at",
    ])
    .execute();
  // Due at `now - margin` means the due time is more than the margin in the past.
  const then = new Date(now.getTime() - LATE_MARGIN_SECONDS * 1000);
  let late = 0;
  const active = rows.filter((row) => !bool(row.paused));
  const failing = await queriesWithFailedLastScheduledRun(
    db,
    null,
    active.map((row) => row.id),
  );
  for (const row of active) {
    const last = lastRuns[String(row.id)];
    const lastScheduledAt = last ? new Date(last) : null;
    // A query that never ran is "due" since it was scheduled; only a stale scheduler makes it late.
    if (!lastScheduledAt && !row.retrieved_at) {
      if (state?.last_refresh_at && state.last_refresh_at * 1000 >= then.getTime()) continue;
    }
    const due = isOutdated(
      {
        schedule: parseJson(row.schedule, null),
        schedule_failures: row.schedule_failures,
        lastScheduledAt,
        latestResultAt: row.retrieved_at ? new Date(row.retrieved_at) : null,
      },
      then,
    );
    if (due) late += 1;
  }
  const heartbeat = state?.last_refresh_at ?? null;
  return {
    heartbeat_at: heartbeat,
    heartbeat_age:
      heartbeat === null ? null : Math.max(0, Math.floor(now.getTime() / 1000) - heartbeat),
    late_schedules_count: late,
    late_margin_seconds: LATE_MARGIN_SECONDS,
    failing_schedules_count: failing.size,
  };
}
