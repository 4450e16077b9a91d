// /metrics of a `sightline worker` or `sightline scheduler` process, which serve no HTTP API: the
// jobs its worker ran and its alert deliveries are counted in this process, so Prometheus
// scrapes each background process on SIGHTLINE_METRICS_PORT (with the same token as servers).
import Fastify, { type FastifyInstance } from "fastify";
import { Registry } from "prom-client";
import type { Config } from "../config";
import { metricsRoute } from "./endpoint";

/** Null when the process serves no metrics (no port, or no token to guard them). */
export async function startBackgroundMetrics(
  config: Pick<Config, "metricsPort" | "metricsToken" | "host">,
): Promise<FastifyInstance | null> {
  if (config.metricsPort === null || config.metricsToken === null) return null;
  const app = Fastify({ logger: false });
  metricsRoute(app, config.metricsToken, new Registry());
  app.get("/healthz", async () => ({ status: "ok" }));
  await app.listen({ port: config.metricsPort, host: config.host });
  return app;
}
