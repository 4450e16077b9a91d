// /metrics of a `sightline worker` or `sightline scheduler` process, which serve no HTTP API: the
// jobs its worker ran and its alert deliveries are counted in this process, so Prometheus
// scrapes each background process on SIGHTLINE_METRICS_PORT (with the same token as servers).
import Fastify, { type FastifyInstance } from "fastify";
import { Registry } from "prom-client";
import type { Config } from "../config";
import { metricsEnabled, metricsRoute, type MetricsGuard } from "./endpoint";

/** Null when the process serves no metrics (no port, or neither a token nor the proxy rule). */
export async function startBackgroundMetrics(
  config: Pick<Config, "metricsPort" | "host"> & MetricsGuard,
): Promise<FastifyInstance | null> {
  if (config.metricsPort === null || !metricsEnabled(config)) return null;
  const app = Fastify({ logger: false });
  metricsRoute(app, config, new Registry());
  app.get("/healthz", async () => ({ status: "ok" }));
  await app.listen({ port: config.metricsPort, host: config.host });
  return app;
}
