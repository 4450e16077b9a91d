import { deriveKeys, loadOrCreateSecretKey } from "../auth/secretKey";
import type { Config } from "../config";
import { createLogger } from "../logging";
import { startBackgroundMetrics } from "../metrics/backgroundServer";
import { metadataConnectionLog, openDatabase } from "../store/database";
import { useResultsStorage } from "../results/resultsStorage";
import { migrate } from "../store/migrate";
import { startExecution } from "./runtime";

/**
 * `sightline worker` / `sightline scheduler`: the scaled-mode background processes. Both need
 * Redis (the queue is shared with the HTTP servers through it).
 */
export async function runBackground(config: Config, role: "worker" | "scheduler"): Promise<void> {
  if (!config.redisUrl) {
    throw new Error(
      `"sightline ${role}" needs SIGHTLINE_REDIS_URL (without Redis, "sightline all" runs the worker and scheduler in-process).`,
    );
  }
  const log = createLogger(config.logLevel);
  const database = await openDatabase(config.databaseUrl, {
    onConnectionError: metadataConnectionLog(log),
  });
  await migrate(database);
  await useResultsStorage(database.db, config.resultsStorage);
  const keys = deriveKeys(loadOrCreateSecretKey(config.secretKey, config.dataDir));
  const execution = await startExecution(
    { config, db: database.db, keys, resultLimits: config.resultLimits, log },
    { worker: role === "worker", scheduler: role === "scheduler" },
  );
  const metrics = await startBackgroundMetrics(config);
  if (config.metricsPort !== null && !metrics) {
    log.warn("SIGHTLINE_METRICS_PORT is set without SIGHTLINE_METRICS_TOKEN: no metrics served");
  }
  log.info(
    {
      role,
      concurrency: config.workerConcurrency,
      metricsPort: metrics ? config.metricsPort : null,
    },
    `Sightline ${role} started`,
  );
  const stop = async (signal: string) => {
    log.info({ signal }, `${role} shutting down`);
    await metrics?.close();
    await execution.close();
    await database.close();
    process.exit(0);
  };
  process.once("SIGINT", () => void stop("SIGINT"));
  process.once("SIGTERM", () => void stop("SIGTERM"));
}
