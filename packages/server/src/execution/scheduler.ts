import type { Kysely } from "kysely";
import {
  isOutdated,
  isScheduleExpired,
  normalizeSchedule,
  savedParameterValues,
  type ParameterDefinition,
} from "@sightline/core";
import { enqueueDueReports } from "../reports/schedule";
import { sweepAdHocRuns } from "../store/queryRuns";
import { selectScheduledQueries } from "../store/scheduledQueries";
import type { DB } from "../store/schema";
import { bool, parseJson } from "../store/values";
import { countScheduleFailure, purgeUnusedResults } from "../results/cache";
import { finalQueryText, JobRefusalError, renderWithValues } from "./pipeline";
import {
  readState,
  SCHEDULER_LAST_RUNS_KEY,
  SCHEDULER_STATE_KEY,
  writeState,
  type SchedulerState,
} from "./serverState";
import type { ExecutionService } from "./types";

/** Only one scheduler may enqueue at a time. */
export interface LeaderLock {
  /** True while this process holds (or has just taken or renewed) the lock. */
  acquire(): Promise<boolean>;
  release(): Promise<void>;
}

/** Embedded mode: the one process is always the leader. */
export const localLeader: LeaderLock = { acquire: async () => true, release: async () => {} };

export interface SchedulerOptions {
  db: Kysely<DB>;
  execution: ExecutionService;
  leader: LeaderLock;
  intervalMs?: number;
  onError?: (error: unknown) => void;
}

/**
 * Every 30 s: enqueues the scheduled queries that are due (api-queries §7), clears schedules
 * whose end date passed, and purges unused results. Only the leader acts.
 */
export class Scheduler {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private passes = 0;
  private readonly startedAt = Math.floor(Date.now() / 1000);

  constructor(private readonly options: SchedulerOptions) {}

  start(): void {
    const tick = () => {
      this.running = this.tick().finally(() => (this.running = null));
    };
    tick();
    this.timer = setInterval(() => {
      if (!this.running) tick();
    }, this.options.intervalMs ?? 30_000);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
    await this.options.leader.release();
  }

  private async tick(): Promise<void> {
    try {
      if (!(await this.options.leader.acquire())) return;
      const now = new Date();
      await this.refreshOutdated(now);
      // Scheduled reports, with the same schedule rules (reports/schedule.ts).
      await enqueueDueReports(this.options.db, now).catch((error: unknown) =>
        this.options.onError?.(error),
      );
      if (this.passes % 120 === 0) await this.clearExpiredSchedules(now);
      if (this.passes % 20 === 0) {
        await purgeUnusedResults(this.options.db);
        await sweepAdHocRuns(this.options.db, now.getTime());
      }
      this.passes += 1;
    } catch (error) {
      this.options.onError?.(error);
    }
  }

  /** One pass: enqueue every outdated scheduled query; returns the enqueued query ids. */
  async refreshOutdated(now = new Date()): Promise<number[]> {
    const { db, execution } = this.options;
    const rows = await selectScheduledQueries(db)
      .select([
        "queries.id",
        "queries.org_id",
        "queries.query",
        "queries.query_hash",
        "queries.schedule",
        "queries.schedule_failures",
        "queries.options",
        "queries.data_source_id",
        "data_sources.type",
        "data_sources.paused",
        "query_results.retrieved_at",
      ])
      .execute();
    const lastRuns = await readState<Record<string, string>>(db, SCHEDULER_LAST_RUNS_KEY, {});

    // Among due queries with the same text and data source, only the newest runs.
    const due = new Map<string, (typeof rows)[number]>();
    for (const row of rows) {
      const last = lastRuns[String(row.id)];
      const outdated = isOutdated(
        {
          schedule: parseJson(row.schedule, null),
          schedule_failures: row.schedule_failures,
          lastScheduledAt: last ? new Date(last) : null,
          latestResultAt: row.retrieved_at ? new Date(row.retrieved_at) : null,
        },
        now,
      );
      if (!outdated || bool(row.paused)) continue;
      const key = `${row.query_hash}:${row.data_source_id}`;
      const other = due.get(key);
      if (!other || other.id < row.id) due.set(key, row);
    }

    const enqueued: number[] = [];
    for (const row of due.values()) {
      const options = parseJson<{ parameters?: ParameterDefinition[]; apply_auto_limit?: boolean }>(
        row.options,
        {},
      );
      const schema = Array.isArray(options.parameters) ? options.parameters : [];
      let text: string;
      try {
        const rendered = renderWithValues(row.query, savedParameterValues(schema), schema);
        text = finalQueryText(row.type, rendered, options.apply_auto_limit === true);
      } catch {
        await countScheduleFailure(db, row.org_id, row.id);
        continue;
      }
      try {
        await execution.execute({
          orgId: row.org_id,
          dataSourceId: row.data_source_id!,
          queryText: text,
          queryId: row.id,
          userId: null,
          scheduled: true,
          maxAge: 0,
          noWait: true,
        });
        lastRuns[String(row.id)] = now.toISOString();
        enqueued.push(row.id);
      } catch (error) {
        // A refused run (e.g. the owner lost access to a query it reads) backs off like a failure.
        if (error instanceof JobRefusalError) {
          await countScheduleFailure(db, row.org_id, row.id);
          lastRuns[String(row.id)] = now.toISOString();
        } else {
          this.options.onError?.(error);
        }
      }
    }
    await writeState(db, SCHEDULER_LAST_RUNS_KEY, lastRuns);
    const state: SchedulerState = {
      started_at: this.startedAt,
      // The heartbeat: when this pass really happened, whatever time it was asked to judge.
      last_refresh_at: Math.floor(Date.now() / 1000),
      outdated_queries_count: enqueued.length,
      query_ids: enqueued,
    };
    await writeState(db, SCHEDULER_STATE_KEY, state);
    return enqueued;
  }

  /** Schedules whose `until` date passed become null (§7 step 8). */
  private async clearExpiredSchedules(now: Date): Promise<void> {
    const { db } = this.options;
    const rows = await db
      .selectFrom("queries")
      .select(["id", "schedule"])
      .where("schedule", "is not", null)
      .execute();
    for (const row of rows) {
      const schedule = normalizeSchedule(parseJson(row.schedule, null));
      if (schedule && isScheduleExpired(schedule, now)) {
        await db.updateTable("queries").set({ schedule: null }).where("id", "=", row.id).execute();
      }
    }
  }
}
