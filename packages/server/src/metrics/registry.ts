import { Counter, Histogram, Registry, collectDefaultMetrics } from "prom-client";

/**
 * The process's own metrics (shared by every app a process builds): Node's default process
 * metrics, the jobs this process's worker ran and the alert deliveries it made. Each server adds
 * its HTTP and queue metrics in its own registry (metrics/http.ts); a scrape merges both.
 */
export const processRegistry = new Registry();

collectDefaultMetrics({ register: processRegistry });

/** Query run times are seconds to many minutes. */
const JOB_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600];

const jobsTotal = new Counter({
  name: "sightline_jobs_total",
  help: "Query jobs this process's worker ended, by final state and data source type.",
  labelNames: ["state", "data_source_type"] as const,
  registers: [processRegistry],
});

const jobDuration = new Histogram({
  name: "sightline_job_duration_seconds",
  help: "Time from a job's start on the worker to its end, by final state and data source type.",
  labelNames: ["state", "data_source_type"] as const,
  buckets: JOB_BUCKETS,
  registers: [processRegistry],
});

const alertDeliveries = new Counter({
  name: "sightline_alert_deliveries_total",
  help: "Alert notifications delivered or given up after retries, by destination type.",
  labelNames: ["destination_type", "result"] as const,
  registers: [processRegistry],
});

export type JobEndState = "finished" | "failed" | "cancelled" | "timed_out";

export function recordJob(state: JobEndState, dataSourceType: string, seconds: number): void {
  const labels = { state, data_source_type: dataSourceType };
  jobsTotal.inc(labels);
  jobDuration.observe(labels, seconds);
}

export function recordAlertDelivery(destinationType: string, result: "sent" | "failed"): void {
  alertDeliveries.inc({ destination_type: destinationType, result });
}
