import type { FastifyInstance } from "fastify";
import type { Config } from "./config";
import type { AppContext, AppHooks } from "./context";
import { buildApp } from "./app";
import { closeDemoWork, demoAfterSetup } from "./services/demoDataSource";
import { deriveKeys, loadOrCreateSecretKey } from "./auth/secretKey";
import { createMailer } from "./mail";
import { metadataConnectionLog, openDatabase, type OpenOptions } from "./store/database";
import { useResultsStorage } from "./results/resultsStorage";
import { migrate } from "./store/migrate";
import { startExecution } from "./execution/runtime";
import { flushEvents } from "./services/events";
import { createLogger } from "./logging";
import type { DestinationStream } from "pino";

export interface RunningServer {
  app: FastifyInstance;
  ctx: AppContext;
  close(): Promise<void>;
}

/** Opens the store (migrating it), derives keys, and builds the HTTP app. Does not listen. */
export async function createServer(
  config: Config,
  options: {
    dbOptions?: OpenOptions;
    hooks?: Partial<AppHooks>;
    logDestination?: DestinationStream;
    /** Run the query worker and scheduler in this process (default: embedded mode). */
    background?: boolean;
    /** The built web app's folder (default: packages/web/dist). */
    webDist?: string;
  } = {},
): Promise<RunningServer> {
  const logger = createLogger(config.logLevel, options.logDestination);
  if (config.showApiKeysToAdmins) {
    logger.warn(
      "SIGHTLINE_SHOW_API_KEYS_TO_ADMINS is on: admins can read every user's API key and act as them. Turn it off once the migration is done.",
    );
  }
  const database = await openDatabase(config.databaseUrl, {
    onConnectionError: metadataConnectionLog(logger),
    ...options.dbOptions,
  });
  await migrate(database);
  await useResultsStorage(database.db, config.resultsStorage);
  const keys = deriveKeys(loadOrCreateSecretKey(config.secretKey, config.dataDir));
  const resultLimits = config.resultLimits;
  const background = options.background ?? config.mode === "embedded";
  const execution = await startExecution(
    { config, db: database.db, keys, resultLimits, log: logger },
    { worker: background, scheduler: background },
  );
  const ctx: AppContext = {
    config,
    database,
    keys,
    mailer: createMailer(config.mail),
    log: logger,
    hooks: { afterSetup: (user) => demoAfterSetup(ctx, user.org_id), ...options.hooks },
    execution: execution.service,
    resultLimits,
  };
  const app = await buildApp(ctx, logger, { webDist: options.webDist });
  return {
    app,
    ctx,
    async close() {
      await app.close();
      await closeDemoWork(ctx);
      await execution.close();
      await flushEvents(database.db);
      await database.close();
    },
  };
}
