import type { Query } from "@sightline/core";
import { http } from "./http";

/** GET /status.json (api-platform §7.11). Every key besides manager and database_metrics is general info. */
export interface SystemStatus {
  manager?: {
    started_at?: number | string | null;
    last_refresh_at?: number | string | null;
    outdated_queries_count?: number | string | null;
    /** The scheduler's last pass (epoch seconds) and seconds since; null when it never ran. */
    heartbeat_at?: number | null;
    heartbeat_age?: number | null;
    /** Scheduled queries due more than late_margin_seconds ago and not run. */
    late_schedules_count?: number;
    late_margin_seconds?: number;
    failing_schedules_count?: number;
    queues?: Record<string, { size: number }>;
    [key: string]: unknown;
  };
  database_metrics?: { metrics?: [string, number][] };
  /** Stored results per store (Sightline): the metadata database or object storage. */
  query_results_storage?: {
    metadata_database: ResultStoreSize;
    object_storage: ResultStoreSize;
    new_results_in: "metadata_database" | "object_storage";
  };
  [key: string]: unknown;
}

export interface ResultStoreSize {
  count: number;
  /** Bytes as Redash JSON. */
  size: number;
  /** Compressed bytes kept there; null when the store can't say (object storage). */
  stored_size: number | null;
}

export interface RqJob {
  id: string;
  name: string;
  origin: string;
  enqueued_at: string | null;
  started_at: string | null;
  meta?: Record<string, unknown>;
}

export interface RqQueue {
  name: string;
  started: RqJob[];
  queued: number;
}

export interface RqWorker {
  name: string;
  hostname: string;
  pid: number;
  queues: string;
  state: string;
  last_heartbeat: string | null;
  birth_date: string | null;
  current_job: string | null;
  successful_jobs: number;
  failed_jobs: number;
  total_working_time: number;
}

/** A data source's work across every worker, against its limit of queries at once (0 = none). */
export interface RqDataSource {
  id: number;
  name: string;
  running: number;
  waiting: number;
  limit: number;
}

/** One worker's report renderers (scheduled reports, issue 28). */
export interface ReportRenderer {
  name: string;
  browsers: number;
  renders: number;
  last_render_ms: number | null;
  average_render_ms: number | null;
  browser_memory_bytes: number;
  peak_browser_memory_bytes: number;
  updated_at: string;
}

export interface RqStatus {
  queues: Record<string, RqQueue>;
  workers: RqWorker[];
  /** Sightline's fair queues; absent from Redash's answer. */
  data_sources?: RqDataSource[];
  /** Sightline's report render queue; absent from Redash's answer. */
  reports?: { queued: number; running: number; workers: ReportRenderer[] };
}

export type OutdatedQuery = Pick<
  Query,
  "id" | "name" | "tags" | "is_draft" | "is_archived" | "created_at" | "schedule"
> & {
  user?: { id: number; name: string; profile_image_url?: string };
  runtime?: number | null;
  retrieved_at?: string | null;
};

export interface OutdatedQueries {
  queries: OutdatedQuery[];
  /** Epoch seconds (or a string) of the scheduler's last pass; null before the first one. */
  updated_at: number | string | null;
}

export function getSystemStatus(): Promise<SystemStatus> {
  return http.get<SystemStatus>("status.json");
}

export function getRqStatus(): Promise<RqStatus> {
  return http.get<RqStatus>("api/admin/queries/rq_status");
}

export function getOutdatedQueries(): Promise<OutdatedQueries> {
  return http.get<OutdatedQueries>("api/admin/queries/outdated");
}
