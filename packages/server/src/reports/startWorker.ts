// The report worker as the execution runtime starts it (execution/runtime.ts): with its mailer
// and the guarded outbound client, or none when SIGHTLINE_REPORT_BROWSERS is 0.
import type { FastifyBaseLogger } from "fastify";
import type { Kysely } from "kysely";
import type { Keys } from "../auth/secretKey";
import type { Config } from "../config";
import type { ExecutionService } from "../execution/types";
import { createMailer } from "../mail";
import { createOutboundClient } from "../outbound/client";
import type { DB } from "../store/schema";
import { ReportWorker } from "./worker";

export type { ReportWorker };

export function startReportWorker(deps: {
  config: Config;
  db: Kysely<DB>;
  keys: Keys;
  execution: ExecutionService;
  log: Pick<FastifyBaseLogger, "warn" | "error">;
}): ReportWorker | null {
  if (deps.config.reports.browsers === 0) return null;
  const mailer = createMailer(deps.config.mail);
  const worker = new ReportWorker({
    db: deps.db,
    keys: deps.keys,
    execution: deps.execution,
    config: deps.config,
    mailer,
    log: deps.log,
    delivery: {
      db: deps.db,
      keys: deps.keys,
      log: deps.log,
      tools: {
        outbound: createOutboundClient({ allowedRanges: deps.config.outboundAllowedRanges }),
        mailer,
      },
    },
  });
  worker.start();
  return worker;
}
