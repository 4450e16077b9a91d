import type { FastifyBaseLogger } from "fastify";
import type { Kysely } from "kysely";
import type { Config } from "../config";
import type { Keys } from "../auth/secretKey";
import type { ResultLimits } from "../results/limits";
import { createAlertService, type AlertService } from "../alerts/evaluation";
import { mailScheduleFailure } from "../alerts/scheduleFailureMail";
import { createMailer } from "../mail";
import type { DB } from "../store/schema";
import { createQueueBackend } from "./index";
import { jobProcessor } from "./runJob";
import { measuredJobs } from "../metrics/jobs";
import { localLeader, Scheduler } from "./scheduler";
import { createExecutionService } from "./service";
import type { ExecutionService, JobData } from "./types";
import { startReportWorker, type ReportWorker } from "../reports/startWorker";

export interface ExecutionDeps {
  config: Config;
  db: Kysely<DB>;
  keys: Keys;
  resultLimits: ResultLimits;
  log: Pick<FastifyBaseLogger, "warn" | "error">;
}

export interface RunningExecution {
  service: ExecutionService;
  close(): Promise<void>;
}

/**
 * Creates the execution service over the configured queue, and optionally this process's
 * worker (config.workerConcurrency jobs at once) and scheduler loop (leader-locked in Redis in
 * scaled mode).
 */
export async function startExecution(
  deps: ExecutionDeps,
  parts: { worker: boolean; scheduler: boolean },
): Promise<RunningExecution> {
  const { config, db, log } = deps;
  const backend = await createQueueBackend(config, db, {
    onError: (error) => log.warn({ err: error.message }, "query queue connection problem"),
  });
  const service = createExecutionService({ db, backend });
  let alerts: AlertService | null = null;
  if (parts.worker) {
    const mailer = createMailer(config.mail);
    const alertService = createAlertService({ db, config, keys: deps.keys, mailer, log });
    alerts = alertService;
    // Every stored result has its alerts evaluated; their notifications go out in the background.
    const onResult = (...args: Parameters<AlertService["afterResult"]>) =>
      alertService
        .afterResult(...args)
        .catch((error: unknown) => log.error({ err: error }, "alert evaluation failed"));
    // Sent in the background too: the worker goes on with its next query.
    const onScheduleFailure = async (...args: [JobData, string]) => {
      void mailScheduleFailure({ db, config, mailer, log }, ...args).catch((error: unknown) =>
        log.warn({ err: error }, "could not e-mail a scheduled query's failure"),
      );
    };
    await backend.startWorker(
      measuredJobs(
        jobProcessor({
          db,
          config,
          keys: deps.keys,
          limits: deps.resultLimits,
          onResult,
          onScheduleFailure,
        }),
        db,
      ),
      config.workerConcurrency,
    );
  }
  // Scheduled reports render in the worker, on a queue of their own (reports/worker.ts).
  let reports: ReportWorker | null = null;
  if (parts.worker) reports = startReportWorker({ ...deps, execution: service });
  let scheduler: Scheduler | null = null;
  if (parts.scheduler) {
    scheduler = new Scheduler({
      db,
      execution: service,
      // Loaded only in scaled mode, like the queue's Redis client.
      leader: config.redisUrl
        ? (await import("./redisLeader")).redisLeader(config.redisUrl, config.redisPrefix)
        : localLeader,
      onError: (error) => log.error({ err: error }, "scheduler pass failed"),
    });
    scheduler.start();
  }
  return {
    service,
    async close() {
      await scheduler?.stop();
      await reports?.stop();
      await service.close();
      await alerts?.idle();
    },
  };
}
