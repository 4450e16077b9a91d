import type { FastifyBaseLogger } from "fastify";
import type { Config } from "./config";
import type { Keys } from "./auth/secretKey";
import type { Database } from "./store/database";
import type { Mailer } from "./mail";
import type { User } from "./store/users";
import type { ExecutionService } from "./execution/types";
import type { ResultLimits } from "./results/limits";

/** The services every route module is given. */
export interface AppContext {
  config: Config;
  database: Database;
  keys: Keys;
  mailer: Mailer;
  log: FastifyBaseLogger;
  hooks: AppHooks;
  /** The query queue (in-process or BullMQ): execute, jobs, cancel. */
  execution: ExecutionService;
  /** Row/byte caps of stored and displayed results. */
  resultLimits: ResultLimits;
}

/** Extension points other features plug into (e.g. the demo data source after first setup). */
export interface AppHooks {
  afterSetup(user: User): Promise<void>;
}
