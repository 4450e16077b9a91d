import type { FastifyInstance, FastifyRequest } from "fastify";
import { reportQueueStatus } from "../reports/status";
import { sql } from "kysely";
import type { AppContext } from "../context";
import { QueueUnavailableError, type JobState, type QueueStatus } from "../execution";
import { scheduleHealth } from "../execution/scheduleHealth";
import { readState, SCHEDULER_STATE_KEY, type SchedulerState } from "../execution/serverState";
import { hasPermission } from "../policies";
import { presentRecentQuery } from "../presenters/queries";
import { favoritesAmong } from "../store/favorites";
import { presentUser } from "../presenters/users";
import { countUnusedResults, formatBytes, resultStoreSizes } from "../results";
import { recordEventSoon } from "../services/events";
import { findQueriesByIds } from "../store/queries";
import { findUserById } from "../store/users";
import { SERVER_VERSION } from "../version";
import { forbidden, HttpError } from "./errors";
import * as S from "./schemas";

const TASK_NAME = "sightline.execution.execute_query";

// ---- Route documentation (the shapes are in ./schemas) ----

const tags = ["admin"];

const storeSize = S.object(
  {
    count: S.int,
    size: { ...S.int, description: "Bytes as Redash JSON" },
    stored_size: { ...S.orNull(S.int), description: "Compressed bytes kept; null: not known" },
  },
  ["count", "size", "stored_size"],
);

const statusJson = S.object(
  {
    version: S.str,
    workers: S.array(S.anyValue),
    queue_backend: {
      ...S.str,
      description: "Sightline: redis, in-process (the embedded mode) or unavailable",
    },
    redis_used_memory: { ...S.int, description: "With Redis only" },
    redis_used_memory_human: { ...S.str, description: "With Redis only" },
    queued_jobs: { ...S.int, description: "In-process queue: jobs waiting" },
    started_jobs: { ...S.int, description: "In-process queue: jobs running" },
    successful_jobs: { ...S.int, description: "In-process queue: jobs done since start" },
    failed_jobs: { ...S.int, description: "In-process queue: jobs failed since start" },
    queries_count: S.int,
    dashboards_count: S.int,
    widgets_count: S.int,
    query_results_count: S.int,
    unused_query_results_count: S.int,
    query_results_storage: S.object(
      {
        metadata_database: storeSize,
        object_storage: storeSize,
        new_results_in: { type: "string", enum: ["metadata_database", "object_storage"] },
      },
      ["metadata_database", "object_storage", "new_results_in"],
      "Stored results per store: the metadata database or object storage (SIGHTLINE_RESULTS_URL)",
    ),
    manager: S.object({
      started_at: { ...S.orNull(S.num), description: "Epoch seconds" },
      last_refresh_at: { ...S.orNull(S.num), description: "Epoch seconds" },
      outdated_queries_count: S.int,
      query_ids: { ...S.str, description: "A JSON-encoded array of query ids" },
      heartbeat_at: { ...S.orNull(S.num), description: "Epoch seconds of the last pass" },
      heartbeat_age: { ...S.orNull(S.num), description: "Seconds since the last pass" },
      late_schedules_count: {
        ...S.int,
        description: "Scheduled queries due more than late_margin_seconds ago and not run",
      },
      late_margin_seconds: S.int,
      failing_schedules_count: {
        ...S.int,
        description: "Scheduled queries whose last scheduled run failed",
      },
      queues: {
        type: "object",
        additionalProperties: S.object({ size: S.int }, ["size"]),
        description: "Queue name to its size",
      },
    }),
    database_metrics: S.object({
      metrics: S.array(S.array({ anyOf: [S.str, S.num] }), "[name, bytes] pairs"),
    }),
  },
  ["version", "workers", "manager", "database_metrics"],
  "Server status",
);

const queueJob = S.object(
  {
    id: S.str,
    name: S.str,
    origin: { ...S.str, description: "Queue name" },
    enqueued_at: S.orNull(S.timestamp),
    started_at: S.orNull(S.timestamp),
    meta: S.object({
      data_source_id: S.int,
      org_id: S.int,
      scheduled: S.bool,
      query_id: { anyOf: [S.int, S.str], description: 'A query id or "adhoc"' },
      user_id: S.orNull(S.int),
    }),
  },
  ["id", "name", "origin", "enqueued_at", "started_at", "meta"],
);

const worker = S.object(
  {
    name: S.str,
    hostname: S.str,
    pid: S.int,
    queues: { ...S.str, description: "Comma-separated queue names" },
    state: { type: "string", enum: ["busy", "idle"] },
    last_heartbeat: S.str,
    birth_date: S.str,
    current_job: S.orNull(S.str),
    successful_jobs: S.int,
    failed_jobs: S.int,
    total_working_time: S.num,
  },
  ["name", "hostname", "pid", "queues", "state"],
);

const docs = {
  status: {
    tags,
    summary: "Server status (super admin)",
    response: {
      200: statusJson,
      302: S.redirect("To the login page"),
      403: S.htmlPage("Forbidden"),
    },
  },
  rqStatus: {
    tags,
    summary: "Queues and workers (super admin)",
    response: {
      200: S.object(
        {
          queues: {
            type: "object",
            additionalProperties: S.object(
              { name: S.str, started: S.array(queueJob), queued: S.int },
              ["name", "started", "queued"],
            ),
            description: "Queue name to its running jobs and queued count",
          },
          workers: S.array(worker),
          reports: { ...S.anyObject, description: "Report render queue and renderers" },
          data_sources: S.array(
            S.object(
              {
                id: S.int,
                name: S.str,
                running: S.int,
                waiting: S.int,
                limit: { type: "integer", description: "Queries at once (0 = no limit)" },
              },
              ["id", "name", "running", "waiting", "limit"],
            ),
          ),
        },
        ["queues", "workers", "data_sources"],
        "Queue status",
      ),
      ...S.errors(403, 503),
    },
  },
  outdated: {
    tags,
    summary: "Queries the scheduler enqueued in its last pass (super admin)",
    response: {
      200: S.object(
        {
          queries: S.array(S.outdatedQuery, "Newest first"),
          updated_at: { ...S.orNull(S.str), description: "Last refresh, epoch seconds" },
        },
        ["queries", "updated_at"],
        "Outdated queries",
      ),
      ...S.errors(403),
    },
  },
};

function requireSuperAdmin(request: FastifyRequest) {
  const { identity, org } = request.auth;
  if (identity.kind !== "user" || !org || !hasPermission(identity, "super_admin"))
    throw forbidden();
  return { identity, org };
}

async function queueStatus(ctx: AppContext): Promise<QueueStatus | null> {
  try {
    return await ctx.execution.status();
  } catch (error) {
    if (error instanceof QueueUnavailableError) return null;
    throw error;
  }
}

function presentQueueJob(job: JobState) {
  return {
    id: job.id,
    name: TASK_NAME,
    origin: job.data.queueName,
    enqueued_at: job.enqueuedAt ? new Date(job.enqueuedAt).toISOString() : null,
    started_at: job.startedAt ? new Date(job.startedAt).toISOString() : null,
    meta: {
      data_source_id: job.data.dataSourceId,
      org_id: job.data.orgId,
      scheduled: job.data.scheduled,
      query_id: job.data.queryId ?? "adhoc",
      user_id: job.data.userId,
    },
  };
}

async function count(
  ctx: AppContext,
  table: "queries" | "dashboards" | "widgets" | "query_results",
) {
  const row = await ctx.database.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function databaseSize(ctx: AppContext): Promise<number> {
  const { db, dialect } = ctx.database;
  if (dialect === "postgres") {
    const r = await sql<{
      size: number;
    }>`select pg_database_size(current_database()) as size`.execute(db);
    return Number(r.rows[0]?.size ?? 0);
  }
  const pages = await sql<{ page_count: number }>`pragma page_count`.execute(db);
  const size = await sql<{ page_size: number }>`pragma page_size`.execute(db);
  return Number(pages.rows[0]?.page_count ?? 0) * Number(size.rows[0]?.page_size ?? 0);
}

/**
 * What status.json says about the queue. With Redis, its memory, as Redash reports it; the
 * embedded mode has no Redis, so instead of a made-up "0 bytes" the in-process queue's own
 * counts: jobs waiting and running now, and jobs done and failed since the server started.
 */
function queueFacts(status: QueueStatus | null): Record<string, string | number> {
  if (status?.redisUsedMemory !== undefined) {
    return {
      queue_backend: "redis",
      redis_used_memory: status.redisUsedMemory,
      redis_used_memory_human: formatBytes(status.redisUsedMemory),
    };
  }
  if (!status) return { queue_backend: "unavailable" };
  const worker = status.workers[0];
  return {
    queue_backend: "in-process",
    queued_jobs: status.queues.reduce((sum, q) => sum + q.queued, 0),
    started_jobs: status.queues.reduce((sum, q) => sum + q.started.length, 0),
    successful_jobs: worker?.successfulJobs ?? 0,
    failed_jobs: worker?.failedJobs ?? 0,
  };
}

/** /status.json and the admin queue pages (api-platform §7.11). */
export async function adminRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const db = ctx.database.db;

  app.get("/status.json", { schema: docs.status }, async (request, reply) => {
    const { identity, org } = request.auth;
    if (identity.kind === "anonymous" || !org) {
      return reply.redirect(`/login?next=${encodeURIComponent(request.url)}`);
    }
    if (identity.kind !== "user" || !hasPermission(identity, "super_admin")) {
      return reply.code(403).type("text/html; charset=utf-8").send("<h1>Forbidden</h1>");
    }
    const status = await queueStatus(ctx);
    const scheduler = await readState<SchedulerState | null>(db, SCHEDULER_STATE_KEY, null);
    const stores = await resultStoreSizes(db);
    return {
      version: SERVER_VERSION,
      workers: [],
      ...queueFacts(status),
      queries_count: await count(ctx, "queries"),
      dashboards_count: await count(ctx, "dashboards"),
      widgets_count: await count(ctx, "widgets"),
      query_results_count: await count(ctx, "query_results"),
      unused_query_results_count: await countUnusedResults(db),
      query_results_storage: stores,
      manager: {
        started_at: scheduler?.started_at ?? null,
        last_refresh_at: scheduler?.last_refresh_at ?? null,
        outdated_queries_count: scheduler?.outdated_queries_count ?? 0,
        query_ids: JSON.stringify(scheduler?.query_ids ?? []),
        ...(await scheduleHealth(db)),
        queues: Object.fromEntries((status?.queues ?? []).map((q) => [q.name, { size: q.queued }])),
      },
      database_metrics: {
        metrics: [
          ["Query Results Size", stores.metadata_database.size + stores.object_storage.size],
          ["Query Results in Metadata DB", stores.metadata_database.size],
          ["Query Results in Object Storage", stores.object_storage.size],
          ["Redash DB Size", await databaseSize(ctx)],
        ],
      },
    };
  });

  app.get("/api/admin/queries/rq_status", { schema: docs.rqStatus }, async (request) => {
    const { identity, org } = requireSuperAdmin(request);
    let status: QueueStatus;
    try {
      status = await ctx.execution.status();
    } catch (error) {
      if (error instanceof QueueUnavailableError) throw new HttpError(503, error.message);
      throw error;
    }
    recordEventSoon(db, {
      orgId: org.id,
      userId: identity.user.id,
      action: "list",
      objectType: "rq_status",
      request,
    });
    // The queues serve every organisation; an admin sees their own data sources' load.
    const ids = status.dataSources.map((d) => d.dataSourceId);
    const names = new Map(
      ids.length === 0
        ? []
        : (
            await db
              .selectFrom("data_sources")
              .select(["id", "name"])
              .where("org_id", "=", org.id)
              .where("id", "in", ids)
              .execute()
          ).map((row) => [row.id, row.name]),
    );
    return {
      queues: Object.fromEntries(
        status.queues.map((q) => [
          q.name,
          { name: q.name, started: q.started.map(presentQueueJob), queued: q.queued },
        ]),
      ),
      workers: status.workers.map((w) => ({
        name: w.name,
        hostname: w.hostname,
        pid: w.pid,
        queues: w.queues.join(","),
        state: w.state,
        last_heartbeat: w.lastHeartbeat,
        birth_date: w.birthDate,
        current_job: w.currentJob,
        successful_jobs: w.successfulJobs,
        failed_jobs: w.failedJobs,
        total_working_time: w.totalWorkingTime,
      })),
      // Scheduled reports' render queue: waiting, rendering, render times and browser memory.
      reports: await reportQueueStatus(db),
      data_sources: status.dataSources
        .filter((d) => names.has(d.dataSourceId))
        .map((d) => ({
          id: d.dataSourceId,
          name: names.get(d.dataSourceId)!,
          running: d.running,
          waiting: d.waiting,
          limit: d.limit,
        })),
    };
  });

  app.get("/api/admin/queries/outdated", { schema: docs.outdated }, async (request) => {
    const { identity, org } = requireSuperAdmin(request);
    const scheduler = await readState<SchedulerState | null>(db, SCHEDULER_STATE_KEY, null);
    const queries = await findQueriesByIds(db, org.id, scheduler?.query_ids ?? []);
    queries.sort((a, b) => b.created_at.localeCompare(a.created_at));
    const favorites =
      identity.kind === "user"
        ? await favoritesAmong(
            db,
            "Query",
            queries.map((q) => q.id),
            identity.user.id,
          )
        : new Map<number, string>();
    const out = [];
    for (const q of queries) {
      const user = await findUserById(db, org.id, q.user_id);
      const result = q.latest_query_data_id
        ? await db
            .selectFrom("query_results")
            .select(["retrieved_at", "runtime"])
            .where("id", "=", q.latest_query_data_id)
            .executeTakeFirst()
        : undefined;
      out.push({
        ...presentRecentQuery(q, favorites.get(q.id) ?? null),
        user: user ? presentUser(user) : null,
        retrieved_at: result?.retrieved_at ?? null,
        runtime: result ? Number(result.runtime) : null,
      });
    }
    recordEventSoon(db, {
      orgId: org.id,
      userId: identity.user.id,
      action: "list",
      objectType: "outdated_queries",
      request,
    });
    return {
      queries: out,
      updated_at: scheduler?.last_refresh_at ? String(scheduler.last_refresh_at) : null,
    };
  });
}
