import type { FastifyInstance } from "fastify";
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { ExecutionService } from "../execution/types";

/** Label of requests no route matched (their raw paths would make one series per URL). */
export const UNMATCHED_ROUTE = "unmatched";

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * One server's metrics: its HTTP requests, by route pattern (`/api/queries/:id`, never the path
 * with its ids) and status, and the query queue's depth read at scrape time. Registered on the
 * root app before any route, so that every route of every scope is counted.
 */
export function registerHttpMetrics(app: FastifyInstance, execution: ExecutionService): Registry {
  const registry = new Registry();
  const labelNames = ["method", "route", "status_code"] as const;
  const requests = new Counter({
    name: "sightline_http_requests_total",
    help: "HTTP requests answered, by method, route pattern and status code.",
    labelNames,
    registers: [registry],
  });
  const latency = new Histogram({
    name: "sightline_http_request_duration_seconds",
    help: "Time to answer HTTP requests, by method, route pattern and status code.",
    labelNames,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  new Gauge({
    name: "sightline_queue_jobs",
    help: "Query jobs in each queue, waiting or running (all workers), read at scrape time.",
    labelNames: ["queue", "state"] as const,
    registers: [registry],
    async collect() {
      this.reset();
      let status;
      try {
        status = await execution.status();
      } catch {
        // The queue is out of reach: no depth to report; /readyz says why.
        return;
      }
      for (const queue of status.queues) {
        this.set({ queue: queue.name, state: "waiting" }, queue.queued);
        this.set({ queue: queue.name, state: "running" }, queue.started.length);
      }
    },
  });
  new Gauge({
    name: "sightline_data_source_jobs",
    help: "Query jobs of each data source with work, waiting or running (all workers), read at scrape time.",
    labelNames: ["data_source_id", "state"] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const status = await execution.status().catch(() => null);
      for (const load of status?.dataSources ?? []) {
        const id = String(load.dataSourceId);
        this.set({ data_source_id: id, state: "waiting" }, load.waiting);
        this.set({ data_source_id: id, state: "running" }, load.running);
      }
    },
  });

  app.addHook("onResponse", async (request, reply) => {
    const labels = {
      method: request.method,
      route: request.routeOptions.url ?? UNMATCHED_ROUTE,
      status_code: String(reply.statusCode),
    };
    requests.inc(labels);
    latency.observe(labels, reply.elapsedTime / 1000);
  });
  return registry;
}
